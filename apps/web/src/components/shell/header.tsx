/**
 * Shell header: menu (mobile), package balance, referral links, notifications bell, theme toggle, the
 * avatar's account menu and logout. Drawn with the first screen's classes; the menus' lists, the
 * drawer and the package balance are Chakra's, loaded when first used (frame-parts.ts).
 */
import { useLocation } from 'react-router';
import { LuLogOut, LuMenu, LuShare2 } from 'react-icons/lu';
import { useAuth } from '../../lib/auth.tsx';
import { copyText, shareOrCopy } from '../../lib/copy.ts';
import { useT } from '../../lib/i18n/i18n.tsx';
import { LanguageSelect } from '../language-select.tsx';
import { ThemeToggle } from '../ui/theme-toggle.tsx';
import { useFrameMenu, useFrameParts } from './frame-parts.ts';
import { NotificationBell } from './notification-bell.tsx';

export const referralLink = (origin: string, username: string, side: 'left' | 'right') =>
  `${origin}/register?sponsor=${encodeURIComponent(username)}&side=${side}`;

type Side = 'left' | 'right';

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
  const { menu, parts, trigger } = useFrameMenu();
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
      <button
        type="button"
        className="fs-icon-button"
        aria-label={t('shell.referral.share')}
        title={t('shell.referral.share')}
        {...trigger}
      >
        <LuShare2 />
      </button>
      {parts && <parts.ShareMenu menu={menu} onShare={share} />}
    </div>
  );
}

/** The avatar opens the account menu (frame-chakra.tsx): profile, security, sessions, the theme, sign out. */
function AccountMenu({
  username,
  email,
  onSignOut,
}: {
  username: string;
  email: string | undefined;
  onSignOut: () => void;
}) {
  const t = useT();
  const { menu, parts, trigger } = useFrameMenu();
  return (
    <>
      <button
        type="button"
        className="fs-account-button"
        title={email ? t('shell.account.title', { username, email }) : username}
        data-testid="avatar-menu"
        {...trigger}
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
      {parts && <parts.AccountMenu menu={menu} onSignOut={onSignOut} />}
    </>
  );
}

/** On the package page: the Deposit wallet's Available (frame-chakra.tsx), loaded with that page. */
function PackageBalance() {
  const { parts } = useFrameParts(true);
  return parts ? <parts.PackageBalance /> : null;
}

export function Header({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { user, logout } = useAuth();
  const { pathname } = useLocation();
  const t = useT();
  const username = user?.username ?? '';
  return (
    // Drawn with the first screen's classes (components/first-screen): the header is on every
    // dashboard screen. Its menus' lists are Chakra's, loaded when first opened (frame-parts.ts).
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
