/** Password reset (/forgot-password): username → OTP + new password → success (spec §2, §4, §5). */
import { useEffect, useState } from 'react';
import { Alert, Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { MSG, RESET_THROTTLE_MS, resetPasswordFormSchema, resetUsernameSchema } from '@md/shared';
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

/** Seconds left until `until` (a Date.now() time), ticking each second; 0 once it has passed. */
function useSecondsLeft(until: number): number {
  const left = () => Math.max(0, Math.ceil((until - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    const timer = setInterval(() => {
      const now = left();
      setSeconds(now);
      if (now === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `left` reads only `until`
  }, [until]);
  return seconds;
}

/** Asks for a reset code for `username` (the server throttles each name to one request per 10 s). */
function useSendResetCode() {
  const client = useTRPCClient();
  return async (username: string): Promise<boolean> => {
    try {
      const response = await client['user.reset_password_email'].mutate({ username });
      notify.success(textOf(recordOf(response)?.Success) || MSG.otpSent);
      return true;
    } catch (error) {
      // The member asked to get an OTP: 'Failed to get OTP' (spec §8).
      toastResetError(error, MSG.failedGetOtp);
      return false;
    }
  };
}

function UsernameStep({
  initialUsername,
  onSent,
}: {
  initialUsername: string;
  onSent: (username: string) => void;
}) {
  const sendCode = useSendResetCode();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof resetUsernameSchema>, unknown, z.output<typeof resetUsernameSchema>>({
    resolver: zodResolver(resetUsernameSchema),
    defaultValues: { username: initialUsername },
  });
  const send = async ({ username }: { username: string }) => {
    if (await sendCode(username)) onSent(username);
  };
  return (
    <form noValidate onSubmit={handleSubmit(send)}>
      <Stack gap="4">
        <Text color="fg.muted">Enter your username and we will email you a one-time code.</Text>
        <TextField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          error={errors.username?.message}
          {...register('username')}
        />
        <Button type="submit" colorPalette="teal" loading={isSubmitting} loadingText="Sending...">
          Send OTP
        </Button>
      </Stack>
    </form>
  );
}

interface NewPasswordStepProps {
  username: string;
  /** When the last code was asked for (Date.now()): Resend waits out the server's 10 s throttle. */
  sentAt: number;
  onResent: () => void;
  onBack: () => void;
  onDone: () => void;
}

function NewPasswordStep({ username, sentAt, onResent, onBack, onDone }: NewPasswordStepProps) {
  const client = useTRPCClient();
  const sendCode = useSendResetCode();
  const [resending, setResending] = useState(false);
  const waitSeconds = useSecondsLeft(sentAt + RESET_THROTTLE_MS);
  const resend = async () => {
    setResending(true);
    try {
      if (await sendCode(username)) onResent();
    } finally {
      setResending(false);
    }
  };
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetValues>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { otp: '', newpassword: '', conpassword: '' },
  });
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
        <PasswordField
          label="New Password"
          autoComplete="new-password"
          error={errors.newpassword?.message}
          {...register('newpassword')}
        />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          error={errors.conpassword?.message}
          {...register('conpassword')}
        />
        <Button type="submit" colorPalette="teal" loading={isSubmitting} loadingText="Resetting...">
          Reset Password
        </Button>
        <HStack justify="space-between" gap="3" flexWrap="wrap">
          <Button variant="outline" onClick={onBack} disabled={isSubmitting}>
            Back
          </Button>
          <Button
            variant="ghost"
            colorPalette="teal"
            onClick={() => void resend()}
            disabled={waitSeconds > 0 || isSubmitting}
            loading={resending}
            loadingText="Sending..."
          >
            {waitSeconds > 0 ? `Resend code in ${waitSeconds} s` : 'Resend code'}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}

export default function ForgotPasswordPage() {
  const [step, setStep] = useState<Step>('EMAIL');
  const [username, setUsername] = useState('');
  const [sentAt, setSentAt] = useState(0);
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
          initialUsername={username}
          onSent={(name) => {
            setUsername(name);
            setSentAt(Date.now());
            setStep('NEW_PASSWORD');
          }}
        />
      )}
      {step === 'NEW_PASSWORD' && (
        <NewPasswordStep
          username={username}
          sentAt={sentAt}
          onResent={() => setSentAt(Date.now())}
          onBack={() => setStep('EMAIL')}
          onDone={() => setStep('SUCCESS')}
        />
      )}
      {step === 'SUCCESS' && (
        <Stack gap="4">
          <Alert.Root status="success">
            <Alert.Indicator />
            <Alert.Title>Your password has been reset. You can sign in with the new password.</Alert.Title>
          </Alert.Root>
          <Box alignSelf="center">
            <AppLink to="/">Back to Login</AppLink>
          </Box>
        </Stack>
      )}
    </AuthCard>
  );
}
