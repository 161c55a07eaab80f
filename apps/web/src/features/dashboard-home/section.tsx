/** The home's titled region. */
import type { ReactNode } from 'react';
import { Box, HStack, Heading } from '@chakra-ui/react';

/** A titled region; `action` (a Retry) stands beside the title. */
export function Section({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box as="section" aria-label={title}>
      <HStack gap="3" mb="3" wrap="wrap">
        <Heading as="h2" size="lg">
          {title}
        </Heading>
        {action}
      </HStack>
      {children}
    </Box>
  );
}
