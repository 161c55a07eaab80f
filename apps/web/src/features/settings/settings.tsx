/**
 * Settings (/dashboard/settings): Profile, Security, Notifications and Wallet Address tabs. The
 * address's fragment opens a tab (#security, #notifications…; the header's avatar menu links them);
 * #sessions opens Security and lands on the signed-in devices (sessions.tsx).
 */
import { useState } from 'react';
import { useLocation } from 'react-router';
import { Stack, Tabs, VisuallyHidden } from '@chakra-ui/react';
import { FullScreenSpinner } from '@/components/full-screen-spinner.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { Unavailable } from '@/components/unavailable.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { useT } from '@/lib/i18n/i18n.tsx';
import { ChangeEmailSection } from './change-email.tsx';
import { ChangePasswordSection } from './change-password.tsx';
import { NotificationPreferences } from './notification-preferences.tsx';
import { PreferencesSection, ProfileTab } from './profile-tab.tsx';
import { SessionsSection } from './sessions.tsx';
import { TransactionPasswordSection } from './transaction-password.tsx';
import { TwoFactorSection } from './two-factor.tsx';
import { WalletAddressTab } from './wallet-address-tab.tsx';

const TABS = ['profile', 'security', 'notifications', 'wallet'] as const;
/** The tab a fragment names; a section of a tab opens that tab. */
export function tabOfHash(hash: string): string {
  const name = hash.replace(/^#/, '');
  if ((TABS as readonly string[]).includes(name)) return name;
  return name === 'sessions' ? 'security' : 'profile';
}

export default function SettingsPage() {
  const { profile, profileFailed, refreshProfile } = useAuth();
  const t = useT();
  const [retrying, setRetrying] = useState(false);
  const retry = () => {
    setRetrying(true);
    void refreshProfile().finally(() => setRetrying(false));
  };
  const { hash } = useLocation();
  const [tab, setTab] = useState(() => tabOfHash(hash));
  // A link to another fragment while the page is open (the avatar menu) switches the tab (state
  // adjusted during render, React's way for state derived from a changing prop).
  const [seenHash, setSeenHash] = useState(hash);
  if (hash !== seenHash) {
    setSeenHash(hash);
    setTab(tabOfHash(hash));
  }
  const item = navItemByPath('/dashboard/settings')!;
  return (
    <Stack gap="2">
      <PageHeader route={item} />
      {/* The profile read failed (toasted, spec §8): Unavailable with a Retry, not a spinner that never ends. */}
      {!profile && profileFailed ? (
        <Unavailable what={t('settings.tabs.profile')} onRetry={retry} retrying={retrying} />
      ) : !profile ? (
        <FullScreenSpinner label={t('settings.loadingProfile')} />
      ) : (
        <Tabs.Root
          value={tab}
          // The address is left alone: a navigation reloads the profile (the shell refreshes it on every move).
          onValueChange={({ value }) => setTab(value)}
          variant="line"
          colorPalette="teal"
          lazyMount
        >
          <Tabs.List flexWrap="wrap">
            <Tabs.Trigger value="profile">{t('settings.tabs.profile')}</Tabs.Trigger>
            <Tabs.Trigger value="security">{t('settings.tabs.security')}</Tabs.Trigger>
            <Tabs.Trigger value="notifications">{t('settings.tabs.notifications')}</Tabs.Trigger>
            <Tabs.Trigger value="wallet">{t('settings.tabs.wallet')}</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="profile">
            <Stack gap="6">
              <ProfileTab profile={profile} />
              <PreferencesSection />
            </Stack>
          </Tabs.Content>
          <Tabs.Content value="security">
            <Stack gap="6">
              <ChangePasswordSection />
              <TransactionPasswordSection isSet={Boolean(profile.Transaction_Password)} />
              <ChangeEmailSection hasSubscription={Boolean(profile.Subscription)} />
              <TwoFactorSection enabled={Boolean(profile.TOTP_Enabled)} />
              <SessionsSection />
            </Stack>
          </Tabs.Content>
          <Tabs.Content value="notifications">
            <NotificationPreferences />
          </Tabs.Content>
          {/* Named apart from its trigger so 'Wallet Address' labels only the address input. */}
          <Tabs.Content value="wallet" aria-labelledby="wallet-tab-panel-name">
            <VisuallyHidden id="wallet-tab-panel-name">{t('settings.wallet.panelName')}</VisuallyHidden>
            <WalletAddressTab profile={profile} />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </Stack>
  );
}
