/** The frame of the sign-in screens: a centred card with the theme toggle (spec §1). */
import type { ReactNode } from 'react';
import { Box, Card, Flex, Heading, Text } from '@chakra-ui/react';
import { ThemeToggle } from '../ui/theme-toggle.tsx';

export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    // data-auth-frame: the QA button's bottom clearance finds the frame by it (features/qa-panel/index.tsx).
    <Flex
      minH="100dvh"
      direction="column"
      align="center"
      px="4"
      pt="4"
      pb="10"
      bg="bg.subtle"
      data-auth-frame=""
    >
      {/* In the flow, not floating, so it never covers the card on narrow screens. */}
      <Box alignSelf="flex-end">
        <ThemeToggle />
      </Box>
      <Card.Root as="main" width="full" maxW="md" variant="elevated" my="auto">
        <Card.Header>
          <Heading as="h1" size="2xl">
            {title}
          </Heading>
          {subtitle && <Text color="fg.muted">{subtitle}</Text>}
        </Card.Header>
        <Card.Body>{children}</Card.Body>
        {footer && (
          <Card.Footer justifyContent="center" flexWrap="wrap" gap="4">
            {footer}
          </Card.Footer>
        )}
      </Card.Root>
    </Flex>
  );
}
