/** Security → password change: validate, mail an OTP (verify_otp 'Change Password'), confirm in a modal. */
import { useState } from 'react';
import { Button, Stack } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { MSG, changePasswordFormSchema, changePasswordOtpField } from '@md/shared';
import { OtpDialog } from '@/components/form/otp-dialog.tsx';
import { PasswordField } from '@/components/form/text-field.tsx';
import { SectionCard } from '@/components/section-card.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

type FormInput = z.input<typeof changePasswordFormSchema>;
type FormOutput = z.output<typeof changePasswordFormSchema>;

export function ChangePasswordSection() {
  const client = useTRPCClient();
  const { logout } = useAuth();
  const t = useT();
  const messageText = useMessageText();
  const [pending, setPending] = useState<FormOutput | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { oldpassword: '', newpassword: '', conpassword: '' },
  });

  const requestOtp = async (values: FormOutput) => {
    try {
      await client['user.verify_otp'].mutate({ page: 'Change Password' });
      notify.success(messageText(MSG.otpSent));
      setPending(values);
    } catch (error) {
      // /user/verify_otp's fallback; no answer at all: the OTP was not sent (docs/decisions/web-app.md).
      notify.error(messageText(errorMessage(error, MSG.otpVerificationFailed, MSG.failedSendOtp)));
    }
  };

  const changePassword = async (otp: string) => {
    if (!pending) return;
    try {
      const response = await client['user.change_password'].mutate({ ...pending, otp });
      notify.success(messageText(textOf(recordOf(response)?.Success)) || t('settings.password.changed'));
      setPending(null);
      reset();
      // The server revokes tokens issued before the change: sign out and ask for a fresh sign-in.
      logout();
      notify.info(t('settings.password.signInAgain'));
    } catch (error) {
      notify.error(messageText(errorMessage(error, MSG.passwordChangeFailed, MSG.passwordChangeError)));
    }
  };

  const oldInput = register('oldpassword');
  const newInput = register('newpassword');
  const confirmInput = register('conpassword');
  return (
    <SectionCard title={t('settings.password.title')} description={t('settings.password.description')}>
      <form noValidate onSubmit={handleSubmit(requestOtp)}>
        <Stack gap="4" maxW="md">
          <PasswordField
            label={t('settings.password.current')}
            autoComplete="current-password"
            error={errors.oldpassword?.message && messageText(errors.oldpassword.message)}
            {...oldInput}
          />
          <PasswordField
            label={t('settings.password.new')}
            autoComplete="new-password"
            error={errors.newpassword?.message && messageText(errors.newpassword.message)}
            {...newInput}
          />
          <PasswordField
            label={t('settings.password.confirm')}
            autoComplete="new-password"
            error={errors.conpassword?.message && messageText(errors.conpassword.message)}
            {...confirmInput}
          />
          <Button
            type="submit"
            colorPalette="teal"
            alignSelf="start"
            loading={isSubmitting}
            loadingText={t('settings.sendingOtp')}
          >
            {t('settings.password.title')}
          </Button>
        </Stack>
      </form>
      <OtpDialog
        open={pending !== null}
        title={t('settings.password.confirmTitle')}
        description={t('settings.otpToEmail')}
        rule={changePasswordOtpField}
        confirmLabel={t('common.confirm')}
        onClose={() => setPending(null)}
        onConfirm={changePassword}
      />
    </SectionCard>
  );
}
