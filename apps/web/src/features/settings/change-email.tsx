/** Security → email change: step 0 the new address (an OTP is mailed to it), step 1 the 6-digit OTP. */
import { useState } from 'react';
import { Alert, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { MSG, emailChangeField, emailChangeOtpField } from '@md/shared';
import { OtpField } from '@/components/form/otp-field.tsx';
import { TextField } from '@/components/form/text-field.tsx';
import { SectionCard } from '@/components/section-card.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

export function ChangeEmailSection({ hasSubscription }: { hasSubscription: boolean }) {
  const client = useTRPCClient();
  const { refreshProfile } = useAuth();
  const t = useT();
  const messageText = useMessageText();
  const [step, setStep] = useState<0 | 1>(0);
  const [email, setEmail] = useState('');
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };

  const requestOtp = () =>
    run(async () => {
      const parsed = emailChangeField.safeParse(email);
      if (!parsed.success) return setError(parsed.error.issues[0]?.message);
      try {
        await client['user.change_email_request'].mutate({ email: parsed.data });
        notify.success(messageText(MSG.otpSent));
        setStep(1);
        setError(undefined);
      } catch (failure) {
        notify.error(messageText(errorMessage(failure, MSG.failedSendOtp)));
      }
    });

  const confirm = () =>
    run(async () => {
      const parsed = emailChangeOtpField.safeParse(otp);
      if (!parsed.success) return setError(parsed.error.issues[0]?.message);
      try {
        const response = await client['user.change_email'].mutate({ email: email.trim(), otp: parsed.data });
        notify.success(messageText(textOf(recordOf(response)?.Success)) || t('settings.email.changed'));
        setStep(0);
        setEmail('');
        setOtp('');
        await refreshProfile();
      } catch (failure) {
        notify.error(messageText(errorMessage(failure, MSG.verificationFailed)));
      }
    });

  return (
    <SectionCard title={t('settings.email.title')} description={t('settings.email.description')}>
      {hasSubscription && (
        <Alert.Root status="info" mb="4">
          <Alert.Indicator />
          <Alert.Title>{t('settings.email.subscriptionHeld')}</Alert.Title>
        </Alert.Root>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void (step === 0 ? requestOtp() : confirm());
        }}
      >
        <fieldset disabled={hasSubscription}>
          <Stack gap="4" maxW="md">
            {step === 0 ? (
              <TextField
                label={t('settings.email.new')}
                type="email"
                autoComplete="email"
                value={email}
                error={error && messageText(error)}
                disabled={hasSubscription}
                onChange={(event) => {
                  setEmail(event.target.value);
                  setError(undefined);
                }}
              />
            ) : (
              <>
                <Text color="fg.muted">{t('settings.email.enterCode', { email: email.trim() })}</Text>
                <OtpField
                  value={otp}
                  error={error && messageText(error)}
                  onChange={(event) => {
                    setOtp(event.target.value);
                    setError(undefined);
                  }}
                />
              </>
            )}
            <HStack gap="3">
              {step === 1 && (
                <Button variant="outline" onClick={() => setStep(0)} disabled={busy}>
                  {t('common.back')}
                </Button>
              )}
              <Button type="submit" colorPalette="teal" loading={busy} disabled={hasSubscription}>
                {step === 0 ? t('settings.sendOtp') : t('settings.email.verify')}
              </Button>
            </HStack>
          </Stack>
        </fieldset>
      </form>
    </SectionCard>
  );
}
