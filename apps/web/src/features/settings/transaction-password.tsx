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
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

export function TransactionPasswordSection({ isSet }: { isSet: boolean }) {
  const client = useTRPCClient();
  const { refreshProfile } = useAuth();
  const [step, setStep] = useState<0 | 1>(0);
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const finish = async (message: string) => {
    notify.success(message);
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
      } else await finish(message || 'Transaction password set');
    } catch (failure) {
      notify.error(errorMessage(failure, MSG.failedSendOtp));
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
      await finish(textOf(recordOf(response)?.Success) || 'Transaction password updated');
    } catch (failure) {
      notify.error(errorMessage(failure, MSG.failedVerifyTransactionPassword));
    } finally {
      setBusy(false);
    }
  };

  return (
    <SectionCard
      title="Transaction Password"
      regionLabel="Transaction password settings"
      description={
        isSet
          ? 'Confirms withdrawals and P2P transfers. Resetting it sends a code to your email.'
          : 'Confirms withdrawals and P2P transfers.'
      }
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
              label="Transaction Password"
              autoComplete="new-password"
              value={password}
              error={error}
              helper="At least 6 characters, with a number and one of ! @ # $ % ^ & *"
              onChange={(event) => {
                setPassword(event.target.value);
                setError(undefined);
              }}
            />
          ) : (
            <>
              <Text color="fg.muted">Enter the 6-digit code we sent to your email.</Text>
              <OtpField
                value={otp}
                error={error}
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
                Back
              </Button>
            )}
            <Button type="submit" colorPalette="teal" loading={busy}>
              {step === 1 ? 'Verify OTP' : isSet ? 'Reset Transaction Password' : 'Set Transaction Password'}
            </Button>
          </HStack>
        </Stack>
      </form>
    </SectionCard>
  );
}
