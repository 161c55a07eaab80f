/**
 * What every OTP/2FA code input is: numeric, autofilled from the message, at most OTP_LENGTH
 * digits, anything else typed or pasted dropped. Shared by the Chakra field (otp-field.tsx) and the
 * first screen's (sign-in's TOTP), which cannot import Chakra.
 */
import type { ChangeEvent } from 'react';
import { OTP_LENGTH } from '@md/shared';

export const OTP_INPUT_PROPS = {
  inputMode: 'numeric',
  autoComplete: 'one-time-code',
  maxLength: OTP_LENGTH,
  placeholder: '•'.repeat(OTP_LENGTH),
} as const;

/** Keeps the input's digits only, at most OTP_LENGTH of them, before the change is handled. */
export const keepOtpDigits = (event: ChangeEvent<HTMLInputElement>) => {
  event.target.value = event.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH);
};
