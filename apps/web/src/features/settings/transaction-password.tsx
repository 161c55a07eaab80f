/**
 * Security → transaction password (spec §4): step 0 the password; a first-time create completes
 * there (OTP_Sent false); a reset mails an OTP and completes at step 1.
 */
import { useState } from 'react';
import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { MSG, otpSchema, transactionPasswordField } from '@md/shared';
import { OtpField } from '@/components/form/otp-field.tsx';
import { PasswordField } from '@/components/form/text-field.tsx';
import { SectionCard } from '@/components/section-card.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

export function TransactionPasswordSection({ isSet }: { isSet: boolean }) {
  const client = useTRPCClient();
  const { refreshProfile } = useAuth();
  const t = useT();
  const messageText = useMessageText();
  const [step, setStep] = useState<0 | 1>(0);
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const finish = async (message: string) => {
    notify.success(messageText(message));
    setStep(0);
    setPassword('');
    setOtp('');
    await refreshProfile();
  };

  const submitPassword = async () => {
    const parsed = transactionPasswordField.safeParse(password);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setBusy(true);
    try {
      const response = recordOf(
        await client['user.reset_transaction_password'].mutate({ password: parsed.data }),
      );
      const message = textOf(response?.Success);
      if (response?.OTP_Sent === true) {
        notify.success(message || MSG.otpSent);
        setStep(1);
      } else await finish(message || t('settings.txPassword.set'));
    } catch (failure) {
      notify.error(messageText(errorMessage(failure, MSG.failedSendOtp)));
    } finally {
      setBusy(false);
    }
  };

  const submitOtp = async () => {
    const parsed = otpSchema.safeParse(otp);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setBusy(true);
    try {
      const response = await client['user.verify_transaction_password'].mutate({
        password,
        otp: parsed.data,
      });
      await finish(textOf(recordOf(response)?.Success) || t('settings.txPassword.updated'));
    } catch (failure) {
      notify.error(messageText(errorMessage(failure, MSG.failedVerifyTransactionPassword)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <SectionCard
      title={t('settings.txPassword.title')}
      regionLabel={t('settings.txPassword.region')}
      description={isSet ? t('settings.txPassword.descriptionSet') : t('settings.txPassword.description')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void (step === 0 ? submitPassword() : submitOtp());
        }}
      >
        <Stack gap="4" maxW="md">
          {step === 0 ? (
            <PasswordField
              label={t('settings.txPassword.title')}
              autoComplete="new-password"
              value={password}
              error={error && messageText(error)}
              helper={t('settings.txPassword.helper')}
              onChange={(event) => {
                setPassword(event.target.value);
                setError(undefined);
              }}
            />
          ) : (
            <>
              <Text color="fg.muted">{t('settings.otpToEmail')}</Text>
              <OtpField
                value={otp}
                error={error && messageText(error)}
                autoFocus
                onChange={(event) => {
                  setOtp(event.target.value);
                  setError(undefined);
                }}
              />
            </>
          )}
          <HStack gap="3">
            {step === 1 && (
              <Button
                variant="outline"
                disabled={busy}
                onClick={() => {
                  setStep(0);
                  setOtp('');
                  setError(undefined);
                }}
              >
                {t('common.back')}
              </Button>
            )}
            <Button type="submit" colorPalette="teal" loading={busy}>
              {step === 1
                ? t('settings.verifyOtp')
                : isSet
                  ? t('settings.txPassword.reset')
                  : t('settings.txPassword.setButton')}
            </Button>
          </HStack>
        </Stack>
      </form>
    </SectionCard>
  );
}
