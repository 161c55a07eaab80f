/** Shell header: menu (mobile), package balance, referral links, notifications bell, theme toggle, the avatar's account menu and logout. */
import { Box, HStack, Icon, Menu, Portal, Skeleton, Text } from '@chakra-ui/react';
import { useLocation, useNavigate } from 'react-router';
import { useTheme } from 'next-themes';
import { LuCheck, LuLogOut, LuMenu, LuShare2 } from 'react-icons/lu';
import { useAuth } from '../../lib/auth.tsx';
import { useFormat, useLocale, useT } from '../../lib/i18n/i18n.tsx';
import { LOCALE_NAMES, LOCALES, type AnyLocale } from '../../lib/i18n/locales.ts';
import { useWallets } from '../../lib/wallets.ts';
import { copyText, shareOrCopy } from '../copy-button.tsx';
import { Unavailable } from '../unavailable.tsx';
import { AsOf } from '../as-of.tsx';
import { LanguageSelect } from '../language-select.tsx';
import { useMediaQuery } from '../../lib/use-is-mobile.ts';
import { NotificationBell } from './notification-bell.tsx';
import { ThemeToggle } from '../ui/theme-toggle.tsx';

export const referralLink = (origin: string, username: string, side: 'left' | 'right') =>
  `${origin}/register?sponsor=${encodeURIComponent(username)}&side=${side}`;

type Side = 'left' | 'right';
const SIDES: readonly Side[] = ['left', 'right'];

/**
 * On the package page: the Deposit wallet's Available, pulsing. While the wallets load it is a
 * skeleton; when they cannot be read it says "Unavailable" with a Retry, never a made-up $0.00.
 */
function PackageBalance() {
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
  if (isPending)
    return (
      <HStack
        gap="2"
        fontSize={{ base: 'xs', sm: 'md' }}
        flexWrap="wrap"
        rowGap="0"
        data-testid="package-balance"
        aria-busy="true"
      >
        {label}
        <Skeleton height="1em" width="5rem" aria-label={t('shell.loadingBalance')} />
      </HStack>
    );
  if (!deposit)
    return (
      <HStack
        gap="2"
        fontSize={{ base: 'xs', sm: 'md' }}
        flexWrap="wrap"
        rowGap="1"
        data-testid="package-balance"
      >
        {label}
        <Unavailable
          what={t('shell.availableBalance')}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      </HStack>
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

/** Large screens (spec §2): LEFT and RIGHT copy the registration links. */
function ReferralButtons({ username }: { username: string }) {
  const t = useT();
  const copy = (side: Side) => {
    const link = referralLink(window.location.origin, username, side);
    void copyText(link, t('shell.copiedLink', { link }), t('common.copyFailed'));
  };
  return (
    <div className="fs-from-lg">
      <button
        type="button"
        className="fs-button-outline-sm"
        onClick={() => copy('left')}
        title={t('shell.referral.copyLeft')}
      >
        {t('shell.referral.left')}
      </button>
      <button
        type="button"
        className="fs-button-outline-sm"
        onClick={() => copy('right')}
        title={t('shell.referral.copyRight')}
      >
        {t('shell.referral.right')}
      </button>
    </div>
  );
}

/**
 * Below 1024 px, where LEFT and RIGHT do not fit: one Invite button whose menu shares either link
 * with the phone's share sheet (Web Share API), or copies it where there is none.
 */
function ReferralShareMenu({ username }: { username: string }) {
  const t = useT();
  const share = (side: Side) => {
    const url = referralLink(window.location.origin, username, side);
    void shareOrCopy(
      {
        url,
        title: t('shell.referral.shareTitle'),
        text: t('shell.referral.shareText', { side, username }),
      },
      t('shell.copiedLink', { link: url }),
      t('common.copyFailed'),
    );
  };
  return (
    <div className="fs-below-lg">
      <Menu.Root onSelect={({ value }) => share(value === 'left' ? 'left' : 'right')}>
        <Menu.Trigger asChild>
          <button
            type="button"
            className="fs-icon-button"
            aria-label={t('shell.referral.share')}
            title={t('shell.referral.share')}
          >
            <LuShare2 />
          </button>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              {SIDES.map((side) => (
                <Menu.Item key={side} value={side}>
                  {side === 'left' ? t('shell.referral.leftLink') : t('shell.referral.rightLink')}
                </Menu.Item>
              ))}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </div>
  );
}

/** Where each account item of the avatar menu leads: Settings' tabs by fragment. */
export const ACCOUNT_LINKS = {
  profile: '/dashboard/settings',
  security: '/dashboard/settings#security',
  sessions: '/dashboard/settings#sessions',
} as const;

/** The avatar menu's language items: `language:es`. */
const LANGUAGE_ITEM = 'language:';

/**
 * The avatar opens the account menu: profile, security, sessions (Settings), the theme and sign
 * out. Chakra's menu is already in the shell (the share menu), so it adds no library.
 */
function AccountMenu({
  username,
  email,
  onSignOut,
}: {
  username: string;
  email: string | undefined;
  onSignOut: () => void;
}) {
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
    <Menu.Root onSelect={({ value }) => select(value)} positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <button
          type="button"
          className="fs-account-button"
          title={email ? t('shell.account.title', { username, email }) : username}
          data-testid="avatar-menu"
        >
          <span className="fs-account">
            {/* The trigger is named by the member's name and email (its visible text); the initial is decoration. */}
            <span className="fs-avatar" aria-hidden>
              <span className="fs-avatar-initial">{username.slice(0, 1).toUpperCase()}</span>
            </span>
            {/* On a phone the avatar stands for the member (the names, squeezing the balance, are read out only). */}
            <span className="fs-account-names">
              <span className="fs-account-name" data-testid="header-username">
                {username}
              </span>
              <span className="fs-account-email">{email}</span>
            </span>
          </span>
        </button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
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
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

export function Header({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { user, logout } = useAuth();
  const { pathname } = useLocation();
  const t = useT();
  const username = user?.username ?? '';
  return (
    // Drawn with the first screen's classes (components/first-screen): the header is on every
    // dashboard screen. Its menus' contents are Chakra's, mounted when opened.
    <header className="fs-header">
      <button
        type="button"
        className="fs-icon-button fs-below-md"
        aria-label={t('shell.openMenu')}
        onClick={onOpenMenu}
      >
        <LuMenu />
      </button>
      <div className="fs-grow">{pathname === '/dashboard/package' && <PackageBalance />}</div>
      <ReferralButtons username={username} />
      <ReferralShareMenu username={username} />
      <NotificationBell username={username} />
      {/* From 1024 px, beside LEFT and RIGHT; below, on phones and tablets, the avatar menu offers the languages. */}
      <div className="fs-from-lg">
        <LanguageSelect />
      </div>
      <ThemeToggle />
      <AccountMenu username={username} email={user?.email} onSignOut={logout} />
      <button
        type="button"
        className="fs-icon-button"
        aria-label={t('shell.logout')}
        title={t('shell.logout')}
        onClick={logout}
      >
        <LuLogOut />
      </button>
    </header>
  );
}
