/** Password reset (/forgot-password): username → OTP + new password → success (spec §2, §4, §5). */
import { useState } from 'react';
import { Alert, Button, Stack, Text } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { MSG, resetPasswordFormSchema, resetUsernameSchema } from '@md/shared';
import { AuthCard } from '@/components/form/auth-card.tsx';
import { OtpField } from '@/components/form/otp-field.tsx';
import { AppLink } from '@/components/form/router-link.tsx';
import { PasswordField, TextField } from '@/components/form/text-field.tsx';
import { errorMessage, httpStatusOf } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

type Step = 'EMAIL' | 'NEW_PASSWORD' | 'SUCCESS';
type ResetValues = z.input<typeof resetPasswordFormSchema>;

/**
 * The 10-second throttle answers 429: a warning, not an error (spec §5). Otherwise the server's
 * words, the step's fallback, or, with no answer at all, 'An unexpected error occurred'.
 */
function toastResetError(error: unknown, fallback: string) {
  if (httpStatusOf(error) === 429) notify.warning(errorMessage(error, MSG.resetThrottle));
  else notify.error(errorMessage(error, fallback, MSG.unexpectedError));
}

function UsernameStep({ onSent }: { onSent: (username: string) => void }) {
  const client = useTRPCClient();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof resetUsernameSchema>, unknown, z.output<typeof resetUsernameSchema>>({
    resolver: zodResolver(resetUsernameSchema),
    defaultValues: { username: '' },
  });
  const send = async ({ username }: { username: string }) => {
    try {
      const response = await client['user.reset_password_email'].mutate({ username });
      notify.success(textOf(recordOf(response)?.Success) || MSG.otpSent);
      onSent(username);
    } catch (error) {
      // The member asked to get an OTP: 'Failed to get OTP' (spec §8).
      toastResetError(error, MSG.failedGetOtp);
    }
  };
  return (
    <form noValidate onSubmit={handleSubmit(send)}>
      <Stack gap="4">
        <Text color="fg.muted">Enter your username and we will email you a one-time code.</Text>
        <TextField label="Username" autoComplete="username" autoCapitalize="none" error={errors.username?.message} {...register('username')} />
        <Button type="submit" colorPalette="teal" loading={isSubmitting} loadingText="Sending...">
          Send OTP
        </Button>
      </Stack>
    </form>
  );
}

function NewPasswordStep({ username, onDone }: { username: string; onDone: () => void }) {
  const client = useTRPCClient();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetValues>({ resolver: zodResolver(resetPasswordFormSchema), defaultValues: { otp: '', newpassword: '', conpassword: '' } });
  const reset = async (values: ResetValues) => {
    try {
      const response = await client['user.reset_password'].mutate({ username, ...values });
      notify.success(textOf(recordOf(response)?.Success) || 'Password reset successfully');
      onDone();
    } catch (error) {
      toastResetError(error, MSG.anErrorOccurred);
    }
  };
  return (
    <form noValidate onSubmit={handleSubmit(reset)}>
      <Stack gap="4">
        <Text color="fg.muted">Enter the code we emailed for {username} and choose a new password.</Text>
        <OtpField label="OTP" error={errors.otp?.message} {...register('otp')} />
        <PasswordField label="New Password" autoComplete="new-password" error={errors.newpassword?.message} {...register('newpassword')} />
        <PasswordField label="Confirm Password" autoComplete="new-password" error={errors.conpassword?.message} {...register('conpassword')} />
        <Button type="submit" colorPalette="teal" loading={isSubmitting} loadingText="Resetting...">
          Reset Password
        </Button>
      </Stack>
    </form>
  );
}

export default function ForgotPasswordPage() {
  const [step, setStep] = useState<Step>('EMAIL');
  const [username, setUsername] = useState('');
  return (
    <AuthCard
      title="Reset Password"
      footer={
        step !== 'SUCCESS' && (
          <Text fontSize="sm" color="fg.muted">
            Remembered it? <AppLink to="/">Sign in</AppLink>
          </Text>
        )
      }
    >
      {step === 'EMAIL' && (
        <UsernameStep
          onSent={(name) => {
            setUsername(name);
            setStep('NEW_PASSWORD');
          }}
        />
      )}
      {step === 'NEW_PASSWORD' && <NewPasswordStep username={username} onDone={() => setStep('SUCCESS')} />}
      {step === 'SUCCESS' && (
        <Stack gap="4">
          <Alert.Root status="success">
            <Alert.Indicator />
            <Alert.Title>Your password has been reset. You can sign in with the new password.</Alert.Title>
          </Alert.Root>
          <AppLink to="/" alignSelf="center">
            Back to Login
          </AppLink>
        </Stack>
      )}
    </AuthCard>
  );
}
