/** The sidebar: a 16 rem column from 768 px up, a slide-in drawer below that closes on navigation. */
import { useId } from 'react';
import {
  Box,
  CloseButton,
  Drawer,
  Flex,
  Heading,
  Icon,
  Portal,
  Stack,
  Text,
  type HeadingProps,
} from '@chakra-ui/react';
import { NavLink } from 'react-router';
import { SIDEBAR_WIDTH } from '@md/shared';
import { useT } from '@/lib/i18n/i18n.tsx';
import { EXTRA_ROUTES, NAV_ITEMS, type NavItem } from './nav-items.ts';
import { useNavText } from './nav-text.ts';

function NavLinks({
  items,
  onNavigate,
}: {
  items: readonly NavItem[];
  onNavigate?: (() => void) | undefined;
}) {
  const nav = useNavText();
  return (
    <Stack as="ul" gap="1" listStyleType="none" p="0" m="0">
      {items.map((item) => (
        <li key={item.path}>
          <NavLink to={item.path} end={item.end ?? false} onClick={onNavigate}>
            {({ isActive }) => (
              <Flex
                align="center"
                gap="3"
                px="3"
                py="2"
                rounded="md"
                fontWeight={isActive ? 'semibold' : 'medium'}
                bg={isActive ? 'teal.subtle' : 'transparent'}
                color={isActive ? 'teal.fg' : 'fg'}
                _hover={{ bg: isActive ? 'teal.subtle' : 'bg.muted' }}
                aria-current={isActive ? 'page' : undefined}
              >
                <Icon as={item.icon} boxSize="4" />
                {nav.name(item)}
              </Flex>
            )}
          </NavLink>
        </li>
      ))}
    </Stack>
  );
}

/** The spec's thirteen items, then the routes it leaves out of them (Support, Timeline, …) under "More". */
function NavList({ onNavigate }: { onNavigate?: () => void }) {
  // Both the column and the drawer render a list: each names its group by its own id.
  const moreId = useId();
  const t = useT();
  return (
    <Stack gap="4">
      <NavLinks items={NAV_ITEMS} onNavigate={onNavigate} />
      <Box as="section" aria-labelledby={moreId}>
        <Text
          id={moreId}
          px="3"
          pb="1"
          fontSize="xs"
          fontWeight="semibold"
          textTransform="uppercase"
          letterSpacing="wider"
          color="fg.muted"
        >
          {t('shell.sidebar.more')}
        </Text>
        <NavLinks items={EXTRA_ROUTES} onNavigate={onNavigate} />
      </Box>
    </Stack>
  );
}

// Takes props: as the drawer's title (asChild) it receives the id the dialog is named by.
function Brand(props: HeadingProps) {
  const t = useT();
  return (
    <Heading as="p" size="md" px="3" py="4" color="teal.fg" {...props}>
      {t('shell.sidebar.brand')}
    </Heading>
  );
}

export function DesktopSidebar() {
  const t = useT();
  return (
    <Box
      as="nav"
      aria-label={t('shell.sidebar.main')}
      display={{ base: 'none', md: 'block' }}
      width={SIDEBAR_WIDTH}
      flexShrink={0}
      borderEndWidth="1px"
      bg="bg.panel"
      position="sticky"
      top="0"
      height="100dvh"
      overflowY="auto"
      px="3"
      pb="6"
    >
      <Brand />
      <NavList />
    </Box>
  );
}

export function MobileSidebar({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useT();
  return (
    <Drawer.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      placement="start"
      size="xs"
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content maxW={SIDEBAR_WIDTH}>
            <Drawer.Header>
              <Drawer.Title asChild>
                <Brand />
              </Drawer.Title>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('shell.sidebar.closeMenu')} />
              </Drawer.CloseTrigger>
            </Drawer.Header>
            <Drawer.Body as="nav" aria-label={t('shell.sidebar.main')} px="3">
              <NavList onNavigate={() => onOpenChange(false)} />
            </Drawer.Body>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
