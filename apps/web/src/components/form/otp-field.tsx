/**
 * The one OTP/2FA code input (registration, reset, password change, email change, 2FA): a single
 * labelled text box that keeps digits only, at most 6, so it can be typed, pasted or autofilled.
 */
import { forwardRef, type ChangeEvent } from 'react';
import { useT } from '@/lib/i18n/i18n.tsx';
import { keepOtpDigits, OTP_INPUT_PROPS } from './otp-input.ts';
import { TextField, type TextFieldProps } from './text-field.tsx';

export interface OtpFieldProps extends Omit<TextFieldProps, 'label' | 'onChange'> {
  label?: string;
  onChange?: (event: ChangeEvent<HTMLInputElement>) => void;
}

export const OtpField = forwardRef<HTMLInputElement, OtpFieldProps>(function OtpField(
  { label, onChange, ...props },
  ref,
) {
  const t = useT();
  return (
    <TextField
      ref={ref}
      label={label ?? t('common.otp')}
      {...OTP_INPUT_PROPS}
      letterSpacing="0.3em"
      onChange={(event) => {
        keepOtpDigits(event);
        onChange?.(event);
      }}
      {...props}
    />
  );
});
