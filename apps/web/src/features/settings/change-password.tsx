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
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

type FormInput = z.input<typeof changePasswordFormSchema>;
type FormOutput = z.output<typeof changePasswordFormSchema>;

export function ChangePasswordSection() {
  const client = useTRPCClient();
  const { logout } = useAuth();
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
      notify.success(MSG.otpSent);
      setPending(values);
    } catch (error) {
      // /user/verify_otp's fallback; no answer at all: the OTP was not sent (docs/decisions/web-app.md).
      notify.error(errorMessage(error, MSG.otpVerificationFailed, MSG.failedSendOtp));
    }
  };

  const changePassword = async (otp: string) => {
    if (!pending) return;
    try {
      const response = await client['user.change_password'].mutate({ ...pending, otp });
      notify.success(textOf(recordOf(response)?.Success) || 'Password changed successfully');
      setPending(null);
      reset();
      // The server revokes tokens issued before the change: sign out and ask for a fresh sign-in.
      logout();
      notify.info('Password changed. Please sign in again with your new password.');
    } catch (error) {
      notify.error(errorMessage(error, MSG.passwordChangeFailed, MSG.passwordChangeError));
    }
  };

  return (
    <SectionCard
      title="Change Password"
      description="You will confirm the change with a code sent to your email."
    >
      <form noValidate onSubmit={handleSubmit(requestOtp)}>
        <Stack gap="4" maxW="md">
          <PasswordField
            label="Current Password"
            autoComplete="current-password"
            error={errors.oldpassword?.message}
            {...register('oldpassword')}
          />
          <PasswordField
            label="New Password"
            autoComplete="new-password"
            error={errors.newpassword?.message}
            {...register('newpassword')}
          />
          <PasswordField
            label="Confirm New Password"
            autoComplete="new-password"
            error={errors.conpassword?.message}
            {...register('conpassword')}
          />
          <Button
            type="submit"
            colorPalette="teal"
            alignSelf="start"
            loading={isSubmitting}
            loadingText="Sending OTP..."
          >
            Change Password
          </Button>
        </Stack>
      </form>
      <OtpDialog
        open={pending !== null}
        title="Confirm password change"
        description="Enter the 6-digit code we sent to your email."
        rule={changePasswordOtpField}
        confirmLabel="Confirm"
        onClose={() => setPending(null)}
        onConfirm={changePassword}
      />
    </SectionCard>
  );
}
