/**
 * The home's insight sections, last on the page: earnings over time and the next rank's meters. A
 * chunk of their own, loaded when the member scrolls near it, so the dashboard's frame and home
 * (loaded at boot) carry none of it. Drawn with Chakra, in a root of its own: the home above it has none.
 */
import { Box, SimpleGrid } from '@chakra-ui/react';
import { EarningsChart } from '@/components/chart/earnings-chart.tsx';
import { NextRankProgress } from '@/components/progress/rank-progress.tsx';
import { ChakraRoot } from '@/components/ui/chakra-root.tsx';

export default function HomeInsights() {
  return (
    <ChakraRoot>
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="6" alignItems="start">
        <Box gridColumn={{ lg: 'span 2' }} minW="0">
          <EarningsChart />
        </Box>
        <NextRankProgress />
      </SimpleGrid>
    </ChakraRoot>
  );
}
