/**
 * The one OTP/2FA code input (registration, reset, password change, email change, 2FA): a single
 * labelled text box that keeps digits only, at most 6, so it can be typed, pasted or autofilled.
 */
import { forwardRef, type ChangeEvent } from 'react';
import { OTP_LENGTH } from '@md/shared';
import { TextField, type TextFieldProps } from './text-field.tsx';

export interface OtpFieldProps extends Omit<TextFieldProps, 'label' | 'onChange'> {
  label?: string;
  onChange?: (event: ChangeEvent<HTMLInputElement>) => void;
}

export const OtpField = forwardRef<HTMLInputElement, OtpFieldProps>(function OtpField(
  { label = 'OTP', onChange, ...props },
  ref,
) {
  return (
    <TextField
      ref={ref}
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={OTP_LENGTH}
      placeholder={'0'.repeat(OTP_LENGTH).replace(/0/g, '•')}
      letterSpacing="0.3em"
      onChange={(event) => {
        event.target.value = event.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH);
        onChange?.(event);
      }}
      {...props}
    />
  );
});
