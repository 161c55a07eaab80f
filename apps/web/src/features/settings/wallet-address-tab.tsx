/**
 * Settings → Wallet Address (spec §4, §5): the saved address, and the update flow: format check,
 * the third-party chain check (GET {walletCheckUrl}{address}), an OTP mailed by the server, the OTP.
 */
import { useState } from 'react';
import { Box, Button, Stack, Text } from '@chakra-ui/react';
import { MSG, NETWORK, otpSchema, shortenAddress, walletAddressField, type Profile } from '@md/shared';
import { OtpDialog } from '@/components/form/otp-dialog.tsx';
import { TextField } from '@/components/form/text-field.tsx';
import { SectionCard } from '@/components/section-card.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { useConfig, walletCheckUrlFor } from '@/lib/config.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

/** The third-party check: 200 valid; 500 'Please try again later'; anything else invalid. */
async function checkAddress(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, { headers: { Accept: 'application/json' } });
    if (response.ok) return null;
    return response.status === 500 ? MSG.tryAgainLater : MSG.invalidWalletAddress;
  } catch {
    return MSG.invalidWalletAddress;
  }
}

export function WalletAddressTab({ profile }: { profile: Profile }) {
  const client = useTRPCClient();
  const config = useConfig();
  const t = useT();
  const messageText = useMessageText();
  const { refreshProfile } = useAuth();
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<string | null>(null);
  const saved = profile.Wallet_Details?.Wallet_Address;

  const save = async () => {
    const parsed = walletAddressField.safeParse(address);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setBusy(true);
    try {
      const problem = await checkAddress(walletCheckUrlFor(config, parsed.data));
      if (problem) return notify.error(messageText(problem));
      const response = await client['wallet.update_wallet_address'].mutate({
        address: parsed.data,
        network: NETWORK,
      });
      notify.success(messageText(textOf(recordOf(response)?.Success) || MSG.otpSent));
      setPending(parsed.data);
    } catch (failure) {
      notify.error(messageText(errorMessage(failure, MSG.somethingWentWrong)));
    } finally {
      setBusy(false);
    }
  };

  const verify = async (otp: string) => {
    if (!pending) return;
    try {
      const response = await client['wallet.wallet_address_verification'].mutate({
        address: pending,
        network: NETWORK,
        otp,
      });
      notify.success(messageText(textOf(recordOf(response)?.Success)) || t('settings.wallet.saved'));
      setPending(null);
      setAddress('');
      await refreshProfile();
    } catch (failure) {
      // The dialog stays open and shows why (spec §8).
      throw new Error(messageText(errorMessage(failure, MSG.somethingWentWrong)));
    }
  };

  return (
    <SectionCard
      title={t('settings.wallet.title')}
      regionLabel={t('settings.wallet.region')}
      description={t('settings.wallet.description', { network: NETWORK })}
    >
      <Stack gap="6">
        <Box>
          <Text fontSize="sm" color="fg.muted">
            {t('settings.wallet.savedLabel')}
          </Text>
          <Text fontFamily="mono" fontSize="lg" title={saved ?? undefined} data-testid="wallet-address">
            {shortenAddress(saved)}
          </Text>
        </Box>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <Stack gap="4" maxW="lg">
            <TextField
              label={t('settings.wallet.title')}
              // eslint-disable-next-line i18next/no-literal-string -- an address's start, the same in every language
              placeholder="0x…"
              autoComplete="off"
              spellCheck={false}
              fontFamily="mono"
              value={address}
              error={error && messageText(error)}
              // Spaces are blocked (spec §5): typed ones are refused, pasted ones removed.
              onKeyDown={(event) => event.key === ' ' && event.preventDefault()}
              onChange={(event) => {
                setAddress(event.target.value.replace(/\s+/g, ''));
                setError(undefined);
              }}
            />
            <TextField label={t('settings.wallet.network')} value={NETWORK} readOnly bg="bg.muted" />
            <Button type="submit" colorPalette="teal" alignSelf="start" loading={busy}>
              {t('settings.wallet.save')}
            </Button>
          </Stack>
        </form>
      </Stack>
      <OtpDialog
        open={pending !== null}
        title={t('settings.wallet.confirmTitle')}
        description={t('settings.otpToEmail')}
        rule={otpSchema}
        confirmLabel={t('settings.wallet.verify')}
        onClose={() => setPending(null)}
        onConfirm={verify}
      />
    </SectionCard>
  );
}
