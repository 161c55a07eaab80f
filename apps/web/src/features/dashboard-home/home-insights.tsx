/**
 * The home's issue 15 sections, below the fold: the next step for a member without a package or a
 * team, earnings over time and the next rank's meters. A chunk of their own, loaded after the first
 * paint, so the dashboard's frame and home (loaded at boot) carry none of it.
 */
import { Box, SimpleGrid } from '@chakra-ui/react';
import { EarningsChart } from '@/components/chart/earnings-chart.tsx';
import { ChoosePackage, ShareYourLink, useStartingPoint } from '@/components/next-step.tsx';
import { NextRankProgress } from '@/components/progress/rank-progress.tsx';
import { Section } from './section.tsx';

/** A member without a package or a team is shown the next step (issue 15); nothing until the analytics answer. */
function NextSteps() {
  const { hasPackage, hasTeam } = useStartingPoint();
  if (hasPackage !== false && hasTeam !== false) return null;
  return (
    <Section title="Next steps">
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        {hasPackage === false && <ChoosePackage />}
        {hasTeam === false && <ShareYourLink />}
      </SimpleGrid>
    </Section>
  );
}

export default function HomeInsights() {
  return (
    <>
      <NextSteps />
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="6" alignItems="start">
        <Box gridColumn={{ lg: 'span 2' }} minW="0">
          <EarningsChart />
        </Box>
        <NextRankProgress />
      </SimpleGrid>
    </>
  );
}
