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
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

interface Setup {
  key: string;
  qrDataUrl: string;
}

export function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const client = useTRPCClient();
  const { refreshProfile } = useAuth();
  const t = useT();
  const messageText = useMessageText();
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
      if (!Key || !URI) return notify.error(messageText(MSG.failedActivate2fa));
      setSetup({ key: Key, qrDataUrl: await QRCode.toDataURL(URI, { margin: 1, width: 200 }) });
    } catch (failure) {
      notify.error(messageText(errorMessage(failure, MSG.failedActivate2fa)));
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
      notify.success(messageText(status ? MSG.twoFaEnabled : MSG.twoFaDisabled));
      setSetup(null);
      setCode('');
      await refreshProfile();
    } catch (failure) {
      notify.error(messageText(errorMessage(failure, MSG.invalidVerificationCode)));
    } finally {
      setBusy(false);
    }
  };

  const codeField = (
    <OtpField
      label={t('settings.twoFactor.code')}
      value={code}
      error={error && messageText(error)}
      onChange={(event) => {
        setCode(event.target.value);
        setError(undefined);
      }}
    />
  );

  return (
    <SectionCard
      title={t('settings.twoFactor.title')}
      description={
        <HStack as="span" gap="2">
          <span>{t('settings.twoFactor.status')}</span>
          <Badge colorPalette={enabled ? 'green' : 'gray'}>
            {enabled ? t('settings.twoFactor.enabled') : t('settings.twoFactor.disabled')}
          </Badge>
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
              <Text color="fg.muted">{t('settings.twoFactor.disableHint')}</Text>
              {codeField}
              <Button type="submit" colorPalette="red" variant="outline" alignSelf="start" loading={busy}>
                {t('settings.twoFactor.disable')}
              </Button>
            </>
          ) : setup ? (
            <>
              <Text color="fg.muted">{t('settings.twoFactor.scan')}</Text>
              <Box bg="white" p="2" rounded="md" alignSelf="start">
                <Image
                  src={setup.qrDataUrl}
                  alt={t('settings.twoFactor.qrAlt')}
                  width="200px"
                  height="200px"
                />
              </Box>
              <HStack gap="2" flexWrap="wrap">
                <Text fontFamily="mono" wordBreak="break-all" data-testid="totp-key">
                  {setup.key}
                </Text>
                <CopyButton
                  text={setup.key}
                  confirmation={messageText(MSG.keyCopied)}
                  aria-label={t('settings.twoFactor.copyKey')}
                >
                  {t('common.copy')}
                </CopyButton>
              </HStack>
              {codeField}
              <Button type="submit" colorPalette="teal" alignSelf="start" loading={busy}>
                {t('settings.twoFactor.enable')}
              </Button>
            </>
          ) : (
            <Button colorPalette="teal" alignSelf="start" loading={busy} onClick={() => void startSetup()}>
              {t('settings.twoFactor.setUp')}
            </Button>
          )}
        </Stack>
      </form>
    </SectionCard>
  );
}
