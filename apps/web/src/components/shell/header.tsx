/** Shell header: menu (mobile), package balance, referral links, theme toggle, user and logout. */
import { Avatar, Box, Button, Flex, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { useLocation } from 'react-router';
import { LuLogOut, LuMenu } from 'react-icons/lu';
import { MSG, formatAmount } from '@md/shared';
import { useAuth } from '../../lib/auth.tsx';
import { availableOf, useWallets } from '../../lib/wallets.ts';
import { copyText } from '../copy-button.tsx';
import { ThemeToggle } from '../ui/theme-toggle.tsx';

export const referralLink = (origin: string, username: string, side: 'left' | 'right') =>
  `${origin}/register?sponsor=${encodeURIComponent(username)}&side=${side}`;

/** On the package page: the Deposit wallet's Available, pulsing. The call fails silently ($0.00). */
function PackageBalance() {
  // The shared wallets query: a purchase refetches it, so this figure follows at once.
  const available = availableOf(useWallets().wallets, 'Deposit');
  return (
    <Text
      fontWeight="semibold"
      color="teal.fg"
      fontSize={{ base: 'xs', sm: 'md' }}
      lineHeight="short"
      // The pulse (spec §2) is a tint behind the figure: pulsing the text itself dimmed it below
      // 4.5:1 contrast half the time. Still when the member asks for less motion.
      position="relative"
      isolation="isolate"
      px="2"
      borderRadius="md"
      _before={{ content: '""', position: 'absolute', inset: '0', zIndex: '-1', borderRadius: 'inherit', bg: 'teal.subtle', animation: 'pulse 2s ease-in-out infinite' }}
      _motionReduce={{ _before: { animation: 'none' } }}
      aria-live="polite"
      data-testid="package-balance"
    >
      {/* Two unbreakable halves: on a phone the figure drops under the label instead of splitting. */}
      <Box as="span" whiteSpace="nowrap">Available Bal :</Box> <Box as="span" whiteSpace="nowrap">${formatAmount(available)}</Box>
    </Text>
  );
}

function ReferralButtons({ username }: { username: string }) {
  const copy = (side: 'left' | 'right') => {
    const link = referralLink(window.location.origin, username, side);
    void copyText(link, MSG.copiedLink(link));
  };
  return (
    <HStack gap="2" display={{ base: 'none', lg: 'flex' }}>
      <Button size="sm" variant="outline" onClick={() => copy('left')} title="Copy the left-leg registration link">
        LEFT
      </Button>
      <Button size="sm" variant="outline" onClick={() => copy('right')} title="Copy the right-leg registration link">
        RIGHT
      </Button>
    </HStack>
  );
}

export function Header({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { user, logout } = useAuth();
  const { pathname } = useLocation();
  const username = user?.username ?? '';
  return (
    <Flex
      as="header"
      align="center"
      gap={{ base: '2', md: '4' }}
      px={{ base: '3', md: '6' }}
      py="3"
      borderBottomWidth="1px"
      bg="bg.panel"
      position="sticky"
      top="0"
      zIndex="sticky"
    >
      <IconButton aria-label="Open menu" variant="ghost" size="sm" display={{ base: 'inline-flex', md: 'none' }} onClick={onOpenMenu}>
        <LuMenu />
      </IconButton>
      <Box flex="1" minW="0">
        {pathname === '/dashboard/package' && <PackageBalance />}
      </Box>
      <ReferralButtons username={username} />
      <ThemeToggle />
      <HStack gap="3" minW="0">
        <Avatar.Root size="sm" colorPalette="teal">
          <Avatar.Fallback>{username.slice(0, 1).toUpperCase()}</Avatar.Fallback>
        </Avatar.Root>
        <Stack gap="0" minW="0">
          <Text fontWeight="semibold" truncate data-testid="header-username">
            {username}
          </Text>
          <Text fontSize="xs" color="fg.muted" truncate maxW={{ base: '8rem', sm: '14rem' }}>
            {user?.email}
          </Text>
        </Stack>
      </HStack>
      <IconButton aria-label="Logout" title="Logout" variant="ghost" size="sm" onClick={logout}>
        <LuLogOut />
      </IconButton>
    </Flex>
  );
}
