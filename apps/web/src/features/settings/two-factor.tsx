/** Security → 2FA: off→on shows the QR and key, then a 6-digit code enables it; on→off needs a code. */
import { useState } from 'react';
import { Badge, Box, Button, HStack, Image, Stack, Text } from '@chakra-ui/react';
import QRCode from 'qrcode';
import { MSG, twoFactorCode } from '@md/shared';
import { CopyButton } from '@/components/copy-button.tsx';
import { OtpField } from '@/components/form/otp-field.tsx';
import { SectionCard } from '@/components/section-card.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

interface Setup {
  key: string;
  qrDataUrl: string;
}

export function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const client = useTRPCClient();
  const { refreshProfile } = useAuth();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const startSetup = async () => {
    setBusy(true);
    try {
      const details = recordOf(recordOf(await client['user.enable_totp'].mutate({}))?.Success);
      const Key = textOf(details?.Key);
      const URI = textOf(details?.URI);
      // Without a key and a URI there is nothing to scan: activation failed.
      if (!Key || !URI) return notify.error(MSG.failedActivate2fa);
      setSetup({ key: Key, qrDataUrl: await QRCode.toDataURL(URI, { margin: 1, width: 200 }) });
    } catch (failure) {
      notify.error(errorMessage(failure, MSG.failedActivate2fa));
    } finally {
      setBusy(false);
    }
  };

  const changeStatus = async (status: boolean) => {
    const parsed = twoFactorCode.safeParse(code);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setBusy(true);
    try {
      await client['user.change_totp_status'].mutate({ status, totp: parsed.data });
      notify.success(status ? MSG.twoFaEnabled : MSG.twoFaDisabled);
      setSetup(null);
      setCode('');
      await refreshProfile();
    } catch (failure) {
      notify.error(errorMessage(failure, MSG.invalidVerificationCode));
    } finally {
      setBusy(false);
    }
  };

  const codeField = (
    <OtpField
      label="Verification Code"
      value={code}
      error={error}
      onChange={(event) => {
        setCode(event.target.value);
        setError(undefined);
      }}
    />
  );

  return (
    <SectionCard
      title="Two-Factor Authentication"
      description={
        <HStack as="span" gap="2">
          <span>Status:</span>
          <Badge colorPalette={enabled ? 'green' : 'gray'}>{enabled ? 'Enabled' : 'Disabled'}</Badge>
        </HStack>
      }
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void changeStatus(!enabled);
        }}
      >
        <Stack gap="4" maxW="md">
          {enabled ? (
            <>
              <Text color="fg.muted">Enter a code from your authenticator app to turn 2FA off.</Text>
              {codeField}
              <Button type="submit" colorPalette="red" variant="outline" alignSelf="start" loading={busy}>
                Disable 2FA
              </Button>
            </>
          ) : setup ? (
            <>
              <Text color="fg.muted">
                Scan the QR code with your authenticator app, or enter the key by hand, then type the 6-digit
                code.
              </Text>
              <Box bg="white" p="2" rounded="md" alignSelf="start">
                <Image src={setup.qrDataUrl} alt="2FA QR code" width="200px" height="200px" />
              </Box>
              <HStack gap="2" flexWrap="wrap">
                <Text fontFamily="mono" wordBreak="break-all" data-testid="totp-key">
                  {setup.key}
                </Text>
                <CopyButton text={setup.key} confirmation={MSG.keyCopied} aria-label="Copy key">
                  Copy
                </CopyButton>
              </HStack>
              {codeField}
              <Button type="submit" colorPalette="teal" alignSelf="start" loading={busy}>
                Enable 2FA
              </Button>
            </>
          ) : (
            <Button colorPalette="teal" alignSelf="start" loading={busy} onClick={() => void startSetup()}>
              Set up 2FA
            </Button>
          )}
        </Stack>
      </form>
    </SectionCard>
  );
}
