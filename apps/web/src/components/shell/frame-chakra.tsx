/**
 * The dashboard frame's parts drawn with Chakra, loaded when first used (frame-parts.ts): the lists
 * of the header's three menus, the phone's navigation drawer and the package page's balance. Each
 * renders in a Chakra root of its own: the frame around them has none.
 */
import {
  Badge,
  Box,
  CloseButton,
  Drawer,
  HStack,
  Icon,
  Menu,
  Portal,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTheme } from 'next-themes';
import { LuCheck } from 'react-icons/lu';
import { localizeNoticeTimes, MSG, SIDEBAR_WIDTH } from '@md/shared';
import { textOf } from '@/lib/guards.ts';
import { useFormat, useLocale, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { LOCALE_NAMES, LOCALES, type AnyLocale } from '@/lib/i18n/locales.ts';
import type { useLatestNotifications } from '@/lib/notifications-seen.ts';
import { useMediaQuery } from '@/lib/use-is-mobile.ts';
import { useWallets } from '@/lib/wallets.ts';
import { ChakraRoot } from '../ui/chakra-root.tsx';
import { AsOf } from '../as-of.tsx';
import { Unavailable } from '../unavailable.tsx';
import type { FrameMenu } from './frame-parts.ts';
import { capitalizeUnknown, useNotificationType } from './notification-type.ts';
import { Brand, NavList } from './sidebar.tsx';

/** Where each account item of the avatar menu leads: Settings' tabs by fragment. */
const ACCOUNT_LINKS = {
  profile: '/dashboard/settings',
  security: '/dashboard/settings#security',
  sessions: '/dashboard/settings#sessions',
} as const;

/** The avatar menu's language items: `language:es`. */
const LANGUAGE_ITEM = 'language:';

/** A header menu's root, anchored to the frame's own trigger button (`menu.triggerId`). */
function FrameMenuRoot({
  menu,
  items,
  onSelect,
  children,
}: {
  menu: FrameMenu;
  /** The first and last items' values: the keyboard opens the menu on one of them. */
  items: readonly [first: string, last: string];
  onSelect?: (value: string) => void;
  children: ReactNode;
}) {
  const [highlighted, setHighlighted] = useState<string | null>(null);
  useEffect(() => {
    setHighlighted(!menu.open || menu.opener === 'pointer' ? null : items[menu.opener === 'first' ? 0 : 1]);
    // On opening only: the items may change while it is open (the bell's list arrives).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [menu.open, menu.opener]);
  return (
    <ChakraRoot>
      <Menu.Root
        open={menu.open}
        onOpenChange={(details) => menu.setOpen(details.open)}
        highlightedValue={highlighted}
        onHighlightChange={(details) => setHighlighted(details.highlightedValue)}
        ids={{ trigger: menu.triggerId, content: menu.contentId }}
        positioning={{ placement: 'bottom-end' }}
        {...(onSelect ? { onSelect: ({ value }: { value: string }) => onSelect(value) } : {})}
        lazyMount
        unmountOnExit
      >
        <Portal>
          <Menu.Positioner>{children}</Menu.Positioner>
        </Portal>
      </Menu.Root>
    </ChakraRoot>
  );
}

/** Below 1024 px: the Invite button's two links. */
export function ShareMenu({ menu, onShare }: { menu: FrameMenu; onShare: (side: 'left' | 'right') => void }) {
  const t = useT();
  return (
    <FrameMenuRoot
      menu={menu}
      items={['left', 'right']}
      onSelect={(value) => onShare(value === 'left' ? 'left' : 'right')}
    >
      <Menu.Content>
        <Menu.Item value="left">{t('shell.referral.leftLink')}</Menu.Item>
        <Menu.Item value="right">{t('shell.referral.rightLink')}</Menu.Item>
      </Menu.Content>
    </FrameMenuRoot>
  );
}

/** The avatar's account menu: profile, security, sessions (Settings), the theme, languages on narrow screens, sign out. */
export function AccountMenu({ menu, onSignOut }: { menu: FrameMenu; onSignOut: () => void }) {
  const navigate = useNavigate();
  const t = useT();
  const { locale, setLocale } = useLocale();
  const { resolvedTheme, setTheme } = useTheme();
  const dark = resolvedTheme === 'dark';
  // The header's own language menu shows from 1024 px (Chakra's lg).
  const languagesHere = useMediaQuery('(max-width: 1023.98px)');
  const select = (value: string) => {
    if (value === 'theme') setTheme(dark ? 'light' : 'dark');
    else if (value.startsWith(LANGUAGE_ITEM)) void setLocale(value.slice(LANGUAGE_ITEM.length) as AnyLocale);
    else if (value === 'signout') onSignOut();
    else if (value in ACCOUNT_LINKS) void navigate(ACCOUNT_LINKS[value as keyof typeof ACCOUNT_LINKS]);
  };
  return (
    <FrameMenuRoot menu={menu} items={['profile', 'signout']} onSelect={select}>
      <Menu.Content minW="12rem">
        <Menu.Item value="profile">{t('shell.account.profile')}</Menu.Item>
        <Menu.Item value="security">{t('shell.account.security')}</Menu.Item>
        <Menu.Item value="sessions">{t('shell.account.sessions')}</Menu.Item>
        <Menu.Separator />
        <Menu.Item value="theme">
          {dark ? t('shell.account.lightTheme') : t('shell.account.darkTheme')}
        </Menu.Item>
        {/* Below 1024 px the header has no room for the language menu: it is here instead (in
            the tree only then: a hidden item would still take the keyboard's highlight). */}
        {languagesHere && (
          <>
            <Menu.Separator />
            <Menu.ItemGroup>
              <Menu.ItemGroupLabel>{t('common.language')}</Menu.ItemGroupLabel>
              {LOCALES.map((option) => (
                <Menu.Item
                  key={option}
                  value={`${LANGUAGE_ITEM}${option}`}
                  lang={option}
                  aria-current={option === locale ? 'true' : undefined}
                  fontWeight={option === locale ? 'semibold' : undefined}
                >
                  {LOCALE_NAMES[option]}
                  {option === locale && <Icon as={LuCheck} ms="auto" aria-hidden />}
                </Menu.Item>
              ))}
            </Menu.ItemGroup>
          </>
        )}
        <Menu.Separator />
        <Menu.Item value="signout">{t('shell.account.signOut')}</Menu.Item>
      </Menu.Content>
    </FrameMenuRoot>
  );
}

/** The bell's list: the latest few, "New" on those unseen when it opened, and a link to them all. */
export function BellMenu({
  menu,
  latest,
  loading,
  newOnOpen,
  path,
}: {
  menu: FrameMenu;
  latest: ReturnType<typeof useLatestNotifications>['entries'];
  loading: boolean;
  newOnOpen: number;
  path: string;
}) {
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
  const typeName = useNotificationType();
  return (
    <FrameMenuRoot menu={menu} items={[latest.length > 0 ? 'notification-0' : 'all', 'all']}>
      <Menu.Content
        w={{ base: 'calc(100vw - 1rem)', sm: 'sm' }}
        maxW="sm"
        aria-label={t('shell.bell.title')}
        data-testid="bell-latest"
      >
        <Menu.ItemGroup>
          <Menu.ItemGroupLabel fontSize="sm">{t('shell.bell.title')}</Menu.ItemGroupLabel>
          {latest.length === 0 && (
            <Text px="2" py="1.5" fontSize="sm" color="fg.muted">
              {messageText(loading ? MSG.loading : MSG.noNotifications)}
            </Text>
          )}
          {latest.map((entry, index) => (
            <Menu.Item
              key={`${textOf(entry.TransID)}-${index}`}
              value={`notification-${index}`}
              asChild
              display="block"
              py="2"
            >
              <Link to={path}>
                <Stack direction="row" gap="2" align="center" mb="0.5" flexWrap="wrap">
                  <Badge colorPalette="teal" size="sm" textTransform={capitalizeUnknown(textOf(entry.Type))}>
                    {typeName(textOf(entry.Type))}
                  </Badge>
                  {index < newOnOpen && (
                    <Badge colorPalette="red" variant="subtle" size="sm">
                      {t('shell.bell.new')}
                    </Badge>
                  )}
                  <Text as="span" fontSize="xs" color="fg.muted" ms="auto" whiteSpace="nowrap">
                    {f.dateTime(entry.DateTime)}
                  </Text>
                </Stack>
                <Text fontSize="sm" lineClamp={2} whiteSpace="normal" data-provider-text>
                  {localizeNoticeTimes(textOf(entry.Message), f)}
                </Text>
              </Link>
            </Menu.Item>
          ))}
        </Menu.ItemGroup>
        <Menu.Separator />
        <Menu.Item value="all" asChild justifyContent="center" fontWeight="medium" color="teal.fg">
          <Link to={path}>{t('shell.bell.viewAll')}</Link>
        </Menu.Item>
      </Menu.Content>
    </FrameMenuRoot>
  );
}

/**
 * On the package page: the Deposit wallet's Available, pulsing. While the wallets load it is a
 * skeleton; when they cannot be read it says "Unavailable" with a Retry, never a made-up $0.00.
 */
function PackageBalanceFigure() {
  // The shared wallets query: a purchase refetches it, so this figure follows at once.
  const { wallets, isPending, isFetching, refetch, isRefetchError, dataUpdatedAt } = useWallets();
  const t = useT();
  const f = useFormat();
  const deposit = wallets?.Deposit;
  const label = (
    <Box as="span" whiteSpace="nowrap">
      {t('shell.availableBal')}
    </Box>
  );
  // While loading and when unreadable: the label, then a skeleton or Unavailable with its Retry.
  const row = (busy: boolean, figure: ReactNode) => (
    <HStack
      gap="2"
      fontSize={{ base: 'xs', sm: 'md' }}
      flexWrap="wrap"
      rowGap={busy ? '0' : '1'}
      data-testid="package-balance"
      aria-busy={busy ? 'true' : undefined}
    >
      {label}
      {figure}
    </HStack>
  );
  if (isPending)
    return row(
      true,
      <Skeleton height="1em" width="5rem" role="status" aria-label={t('shell.loadingBalance')} />,
    );
  if (!deposit)
    return row(
      false,
      <Unavailable what={t('shell.availableBalance')} onRetry={() => void refetch()} retrying={isFetching} />,
    );
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
      // The tint hugs the figure: a block would stretch it across the header's free space.
      width="fit-content"
      px="2"
      borderRadius="md"
      _before={{
        content: '""',
        position: 'absolute',
        inset: '0',
        zIndex: '-1',
        borderRadius: 'inherit',
        bg: 'teal.subtle',
        animation: 'pulse 2s ease-in-out infinite',
      }}
      _motionReduce={{ _before: { animation: 'none' } }}
      aria-live="polite"
      data-testid="package-balance"
    >
      {/* Two unbreakable halves: on a phone the figure drops under the label instead of splitting. */}
      {label}{' '}
      <Box as="span" whiteSpace="nowrap">
        {f.money(deposit.Available)}
      </Box>
      {/* The latest refresh failed: the balance is from then, and says so. */}
      {isRefetchError && <AsOf updatedAt={dataUpdatedAt} />}
    </Text>
  );
}

/** The package page's balance, in a Chakra root of its own (the header around it has none). */
export function PackageBalance() {
  return (
    <ChakraRoot>
      <PackageBalanceFigure />
    </ChakraRoot>
  );
}

/** Below 768 px: the navigation in a drawer from the start edge, closed on navigation. */
export function MobileSidebar({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useT();
  return (
    <ChakraRoot>
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
    </ChakraRoot>
  );
}
