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
import { T, useMessageText, useT, type MessageText } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

type Step = 'EMAIL' | 'NEW_PASSWORD' | 'SUCCESS';
type ResetValues = z.input<typeof resetPasswordFormSchema>;

/**
 * The 10-second throttle answers 429: a warning, not an error (spec §5). Otherwise the server's
 * words, the step's fallback, or, with no answer at all, 'An unexpected error occurred'.
 */
function toastResetError(messageText: MessageText, error: unknown, fallback: string) {
  if (httpStatusOf(error) === 429) notify.warning(messageText(errorMessage(error, MSG.resetThrottle)));
  else notify.error(messageText(errorMessage(error, fallback, MSG.unexpectedError)));
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
  const messageText = useMessageText();
  return async (username: string): Promise<boolean> => {
    try {
      const response = await client['user.reset_password_email'].mutate({ username });
      notify.success(messageText(textOf(recordOf(response)?.Success) || MSG.otpSent));
      return true;
    } catch (error) {
      // The member asked to get an OTP: 'Failed to get OTP' (spec §8).
      toastResetError(messageText, error, MSG.failedGetOtp);
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
  const t = useT();
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
  // The inputs' bindings, named outside the markup (its lint reads string arguments there as text).
  const usernameInput = register('username');
  return (
    <form noValidate onSubmit={handleSubmit(send)}>
      <Stack gap="4">
        <Text color="fg.muted">{t('auth.reset.intro')}</Text>
        <TextField
          label={t('auth.username')}
          autoComplete="username"
          autoCapitalize="none"
          error={errors.username?.message}
          {...usernameInput}
        />
        <Button
          type="submit"
          colorPalette="teal"
          loading={isSubmitting}
          loadingText={t('auth.reset.sending')}
        >
          {t('auth.reset.sendOtp')}
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
  const t = useT();
  const messageText = useMessageText();
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
      notify.success(messageText(textOf(recordOf(response)?.Success) || t('auth.reset.done')));
      onDone();
    } catch (error) {
      toastResetError(messageText, error, MSG.anErrorOccurred);
    }
  };
  // The inputs' bindings, named outside the markup (its lint reads string arguments there as text).
  const otpInput = register('otp');
  const newpasswordInput = register('newpassword');
  const conpasswordInput = register('conpassword');
  return (
    <form noValidate onSubmit={handleSubmit(reset)}>
      <Stack gap="4">
        <Text color="fg.muted">{t('auth.reset.codeFor', { username })}</Text>
        <OtpField label={t('auth.otp')} error={errors.otp?.message} {...otpInput} />
        <PasswordField
          label={t('auth.newPassword')}
          autoComplete="new-password"
          error={errors.newpassword?.message}
          {...newpasswordInput}
        />
        <PasswordField
          label={t('auth.confirmPassword')}
          autoComplete="new-password"
          error={errors.conpassword?.message}
          {...conpasswordInput}
        />
        <Button
          type="submit"
          colorPalette="teal"
          loading={isSubmitting}
          loadingText={t('auth.reset.resetting')}
        >
          {t('auth.reset.submit')}
        </Button>
        <HStack justify="space-between" gap="3" flexWrap="wrap">
          <Button variant="outline" onClick={onBack} disabled={isSubmitting}>
            {t('auth.reset.back')}
          </Button>
          <Button
            variant="ghost"
            colorPalette="teal"
            onClick={() => void resend()}
            disabled={waitSeconds > 0 || isSubmitting}
            loading={resending}
            loadingText={t('auth.reset.sending')}
          >
            {waitSeconds > 0 ? t('auth.reset.resendIn', { seconds: waitSeconds }) : t('auth.reset.resend')}
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
  const t = useT();
  return (
    <AuthCard
      title={t('auth.reset.title')}
      footer={
        step !== 'SUCCESS' && (
          <Text fontSize="sm" color="fg.muted">
            <T id="auth.reset.remembered" values={{ link: (chunks) => <AppLink to="/">{chunks}</AppLink> }} />
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
            <Alert.Title>{t('auth.reset.success')}</Alert.Title>
          </Alert.Root>
          <Box alignSelf="center">
            <AppLink to="/">{t('auth.backToLogin')}</AppLink>
          </Box>
        </Stack>
      )}
    </AuthCard>
  );
}
