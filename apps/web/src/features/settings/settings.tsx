/** Settings (/dashboard/settings): Profile, Security (with the signed-in devices) and Wallet Address tabs. */
import { Stack, Tabs, VisuallyHidden } from '@chakra-ui/react';
import { FullScreenSpinner } from '@/components/full-screen-spinner.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { useAuth } from '@/lib/auth.tsx';
import { ChangeEmailSection } from './change-email.tsx';
import { ChangePasswordSection } from './change-password.tsx';
import { ProfileTab } from './profile-tab.tsx';
import { SessionsSection } from './sessions.tsx';
import { TransactionPasswordSection } from './transaction-password.tsx';
import { TwoFactorSection } from './two-factor.tsx';
import { WalletAddressTab } from './wallet-address-tab.tsx';

export default function SettingsPage() {
  const { profile } = useAuth();
  const item = navItemByPath('/dashboard/settings')!;
  return (
    <Stack gap="2">
      <PageHeader heading={item.heading} description={item.description} />
      {!profile ? (
        <FullScreenSpinner label="Loading profile" />
      ) : (
        <Tabs.Root defaultValue="profile" variant="line" colorPalette="teal" lazyMount>
          <Tabs.List flexWrap="wrap">
            <Tabs.Trigger value="profile">Profile</Tabs.Trigger>
            <Tabs.Trigger value="security">Security</Tabs.Trigger>
            <Tabs.Trigger value="wallet">Wallet Address</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="profile">
            <ProfileTab profile={profile} />
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
          {/* Named apart from its trigger so 'Wallet Address' labels only the address input. */}
          <Tabs.Content value="wallet" aria-labelledby="wallet-tab-panel-name">
            <VisuallyHidden id="wallet-tab-panel-name">Withdrawal address</VisuallyHidden>
            <WalletAddressTab profile={profile} />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </Stack>
  );
}
