/**
 * Validation rules of spec §5 as zod schemas, shared by the web forms and the server's
 * contract inputs so both give the same, verbatim messages.
 */
import './zod-config.ts';
import { z } from 'zod';
import {
  LOGIN_PASSWORD_MIN,
  MAX_AMOUNT,
  MIN_DEPOSIT,
  MIN_WITHDRAWAL,
  OTP_LENGTH,
  SUPPORT_MESSAGE_MIN,
  TABLE_PAGE_SIZES,
  TEXT_MAX,
} from './constants.ts';
import { MSG } from './messages.ts';

/** Letters, digits and _ @ $ . , # + : the only characters login fields accept. */
export const LOGIN_CHARSET = /^[A-Za-z0-9_@$.,#+]*$/;
/** The special characters the registration checklist names. */
export const REGISTRATION_SPECIALS = '!@#$%^&*(),.?":{}|<>';
const registrationSpecial = /[!@#$%^&*(),.?":{}|<>]/;
const anySpecial = /[^A-Za-z0-9\s]/;
const transactionSpecial = /[!@#$%^&*]/;

/** The registration password checklist: each rule a label and a test, shown live under the field. */
export const PASSWORD_CHECKLIST = [
  { label: 'At least 8 characters', test: (v: string) => v.length >= 8 },
  { label: 'One uppercase letter', test: (v: string) => /[A-Z]/.test(v) },
  { label: 'One number', test: (v: string) => /\d/.test(v) },
  {
    label: `One special character (${REGISTRATION_SPECIALS})`,
    test: (v: string) => registrationSpecial.test(v),
  },
] as const;
export const meetsRegistrationPassword = (v: string) => PASSWORD_CHECKLIST.every((rule) => rule.test(v));

/** Reset rule: 8+ with lowercase, uppercase, digit and special. */
export const meetsResetPassword = (v: string) =>
  v.length >= 8 && /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v) && anySpecial.test(v);
/** Change-password rule: 8+ with uppercase, digit and special. */
export const meetsChangePassword = (v: string) =>
  v.length >= 8 && /[A-Z]/.test(v) && /\d/.test(v) && anySpecial.test(v);
export const meetsTransactionPassword = (v: string) =>
  v.length >= 6 && /\d/.test(v) && transactionSpecial.test(v);

export const normalizeUsername = (v: string) => v.replace(/\s+/g, '').toLowerCase();
export const stripSpaces = (v: string) => v.replace(/\s+/g, '');

const otp6 = (message: string) => z.string().regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), { error: message });
export const otpSchema = otp6(MSG.enterOtp6);

// ---- Login ----
export const loginUsername = z
  .string({ error: MSG.usernameRequired })
  .min(1, { error: MSG.usernameRequired, abort: true })
  .max(TEXT_MAX.username, { error: MSG.usernameTooLong, abort: true })
  .regex(LOGIN_CHARSET, { error: MSG.invalidCharacters });
export const loginPassword = z
  .string({ error: MSG.passwordRequired })
  .min(1, { error: MSG.passwordRequired, abort: true })
  .min(LOGIN_PASSWORD_MIN, { error: MSG.passwordMin6 })
  .max(TEXT_MAX.password, { error: MSG.passwordTooLong, abort: true })
  .regex(LOGIN_CHARSET, { error: MSG.invalidCharacters });
export const totpCode = z.string().regex(/^\d{0,6}$/, { error: MSG.totpRequired });

/** The sign-in form; `totpEnabled` comes from the live TOTP lookup. */
export const loginFormSchema = (totpEnabled: boolean) =>
  z.object({
    username: loginUsername,
    password: loginPassword,
    totp: totpEnabled
      ? z
          .string()
          .min(1, { error: MSG.totpRequired, abort: true })
          .regex(/^\d{1,6}$/, { error: MSG.totpRequired })
      : z.string().optional(),
  });
export type LoginForm = z.infer<ReturnType<typeof loginFormSchema>>;

// ---- Registration ----
export const registrationUsername = z
  .string({ error: MSG.usernameRequired })
  .trim()
  .min(1, { error: MSG.usernameRequired, abort: true })
  .max(TEXT_MAX.username, { error: MSG.usernameTooLong, abort: true })
  .regex(/^[A-Za-z0-9_]+$/, { error: MSG.invalidCharacters })
  .refine((v) => !/^\d+$/.test(v), { error: MSG.usernameOnlyNumbers })
  .transform((v) => v.toLowerCase());
export const sponsorField = z
  .string({ error: MSG.sponsorRequired })
  .trim()
  .min(1, { error: MSG.sponsorRequired, abort: true })
  .max(TEXT_MAX.username, { error: MSG.sponsorTooLong });
export const emailField = z
  .string({ error: MSG.emailRequired })
  .trim()
  .min(1, { error: MSG.emailRequired, abort: true })
  .max(TEXT_MAX.email, { error: MSG.emailTooLong, abort: true })
  .pipe(z.email({ error: MSG.emailInvalid }));
/** Every password field's upper bound (it also bounds what scrypt is given). */
export const passwordMax = z.string().max(TEXT_MAX.password, { error: MSG.passwordTooLong, abort: true });
export const registrationPassword = z
  .string({ error: MSG.passwordRequired })
  .min(1, { error: MSG.passwordRequired, abort: true })
  .max(TEXT_MAX.password, { error: MSG.passwordTooLong, abort: true })
  .refine(meetsRegistrationPassword, { error: MSG.registrationPasswordCriteria });
export const nameField = z
  .string({ error: MSG.nameRequired })
  .trim()
  .min(1, { error: MSG.nameRequired, abort: true })
  .max(TEXT_MAX.name, { error: MSG.nameTooLong });
export const countryField = z
  .string({ error: 'Country is required' })
  .min(1, { error: 'Country is required', abort: true })
  .max(TEXT_MAX.country, { error: MSG.countryTooLong });
export const sideField = z.enum(['0', '1'], { error: "Side must be '0' (left) or '1' (right)" });

export const registrationFormSchema = z
  .object({
    username: registrationUsername,
    name: nameField,
    sponsor: sponsorField,
    email: emailField,
    password: registrationPassword,
    con_password: passwordMax,
    side: sideField,
    country: countryField,
  })
  .refine((v) => v.password === v.con_password, { error: MSG.passwordsDoNotMatch, path: ['con_password'] });
export type RegistrationForm = z.input<typeof registrationFormSchema>;
export const registrationOtpSchema = z.object({
  otp: z.string().min(1, { error: MSG.otpRequired, abort: true }),
});

/** `side` query parameter: 'left' means '0', anything else '1'. */
export const sideFromQuery = (side: string | null | undefined) => (side === 'left' ? '0' : '1');

// ---- Password reset ----
export const resetUsernameSchema = z.object({
  username: z
    .string()
    .transform(normalizeUsername)
    .pipe(
      z
        .string()
        .min(1, { error: MSG.usernameRequired, abort: true })
        .max(TEXT_MAX.username, { error: MSG.usernameTooLong }),
    ),
});
export const resetPasswordFormSchema = z
  .object({
    otp: z.string().regex(/^\d{1,6}$/, { error: MSG.enterOtp6 }),
    newpassword: passwordMax.refine(meetsResetPassword, { error: MSG.resetPasswordCriteria }),
    conpassword: passwordMax,
  })
  .refine((v) => v.newpassword === v.conpassword, { error: MSG.passwordsDoNotMatch, path: ['conpassword'] });

// ---- Deposit ----
/** The deposit form's amount field (a string as typed). */
export const depositAmountField = z
  .string()
  .trim()
  .min(1, { error: MSG.enterAmount, abort: true })
  .refine((v) => Number.isFinite(Number(v)) && Number(v) > 0, { error: MSG.validAmount })
  .refine((v) => Number(v) >= MIN_DEPOSIT, { error: MSG.depositMin });

// ---- Support ----
/**
 * The Contact Support form (spec §5), also the input of the server's support extension. The
 * upper bounds (TEXT_MAX, not in the spec) keep one message from filling the outbox.
 */
export const supportFormSchema = z.object({
  name: nameField,
  email: z
    .string({ error: MSG.emailRequired })
    .trim()
    .min(1, { error: MSG.emailRequired, abort: true })
    .regex(/^\S+@\S+\.\S+$/, { error: MSG.emailInvalid })
    .max(TEXT_MAX.email, { error: MSG.emailTooLong }),
  subject: z
    .string({ error: MSG.subjectRequired })
    .trim()
    .min(1, { error: MSG.subjectRequired, abort: true })
    .max(TEXT_MAX.supportSubject, { error: MSG.subjectTooLong }),
  message: z
    .string({ error: MSG.messageRequired })
    .trim()
    .min(1, { error: MSG.messageRequired, abort: true })
    .min(SUPPORT_MESSAGE_MIN, { error: MSG.messageMin })
    .max(TEXT_MAX.supportMessage, { error: MSG.messageTooLong }),
});
export type SupportForm = z.input<typeof supportFormSchema>;

// ---- Money amounts on the wire ----
/** Decimal places of a number as written (1e-7 counts as 7). */
export const decimalPlaces = (n: number) => {
  const s = n.toString();
  const e = s.match(/e-(\d+)$/);
  if (e) return Number(e[1]) + (s.split('e')[0]!.split('.')[1]?.length ?? 0);
  return s.split('.')[1]?.length ?? 0;
};
/** A positive money amount: a finite JSON number, at most 6 decimals, at most MAX_AMOUNT. */
export const moneyAmount = z
  .number({ error: MSG.validAmount })
  .refine((n) => Number.isFinite(n) && n > 0, { error: MSG.validAmount })
  .refine((n) => n <= MAX_AMOUNT, { error: `Amount cannot be more than ${MAX_AMOUNT}` })
  .refine((n) => decimalPlaces(n) <= 6, { error: 'Amount cannot have more than 6 decimals' });

/** P2P amount as typed, checked against the deposit balance. */
export const p2pAmountField = (depositBalance: number) =>
  z
    .string()
    .trim()
    .refine((v) => Number.isFinite(parseFloat(v)) && parseFloat(v) > 0 && parseFloat(v) <= depositBalance, {
      error: MSG.insufficientBalance,
    });

/** Swap amount: above 0 and not above the source balance. */
export const swapAmountField = (fromBalance: number) =>
  z
    .string()
    .trim()
    .refine((v) => Number.isFinite(parseFloat(v)) && parseFloat(v) > 0, { error: MSG.validAmount })
    .refine((v) => parseFloat(v) <= fromBalance, { error: MSG.insufficientBalance });

export const withdrawalAmountField = z
  .string()
  .trim()
  .refine((v) => Number.isFinite(Number(v)) && Number(v) >= MIN_WITHDRAWAL, { error: MSG.withdrawalMin });

// ---- Transaction password ----
export const transactionPasswordField = z
  .string()
  .min(1, { error: MSG.enterTransactionPassword, abort: true })
  .max(TEXT_MAX.password, { error: MSG.passwordTooLong, abort: true })
  .refine(meetsTransactionPassword, { error: MSG.transactionPasswordCriteria });

// ---- Change password ----
export const changePasswordFormSchema = z
  .object({
    // The bound holds for the text as typed, as on the server (spaces are stripped after it).
    oldpassword: passwordMax.transform(stripSpaces),
    newpassword: passwordMax.transform(stripSpaces),
    conpassword: passwordMax.transform(stripSpaces),
  })
  .superRefine((v, ctx) => {
    const fail = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (!v.oldpassword || !v.newpassword || !v.conpassword)
      return fail(MSG.fillAllPasswordFields, 'oldpassword');
    if (v.oldpassword === v.newpassword) return fail(MSG.oldNewSame, 'newpassword');
    if (v.newpassword !== v.conpassword) return fail(MSG.newConfirmMismatch, 'conpassword');
    if (!meetsChangePassword(v.newpassword)) return fail(MSG.newPasswordCriteria, 'newpassword');
  });
export const changePasswordOtpField = z
  .string()
  .min(1, { error: MSG.enterOtp, abort: true })
  .regex(/^\d{6}$/, { error: MSG.enterOtp });

// ---- Email change ----
export const emailChangeField = z
  .string()
  .trim()
  .min(1, { error: MSG.enterNewEmail, abort: true })
  .max(TEXT_MAX.email, { error: MSG.emailTooLong, abort: true })
  .pipe(z.email({ error: MSG.emailInvalid }));
export const emailChangeOtpField = z.string().regex(/^\d{1,6}$/, { error: MSG.enterOtp6 });

// ---- Wallet address (BEP.20 = an EVM address) ----
export const BEP20_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** The zero address: well-formed, but nobody holds its key, so a withdrawal sent there is burnt. */
export const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;
export const isZeroAddress = (address: string) => address.toLowerCase() === ZERO_ADDRESS;
export const walletAddressField = z
  .string()
  .min(1, { error: MSG.enterWalletAddress, abort: true })
  .regex(BEP20_ADDRESS, { error: MSG.invalidWalletAddress, abort: true })
  .refine((address) => !isZeroAddress(address), { error: MSG.invalidWalletAddress });

// ---- 2FA ----
export const twoFactorCode = z.string().regex(/^\d{6}$/, { error: MSG.invalidVerificationCode });

// ---- Forgot username ----
export const forgotUsernameFormSchema = z.object({
  // Bounded as typed, as the server's input is (what the OpenAPI document can say).
  email: z
    .string()
    .max(TEXT_MAX.email, { error: MSG.emailTooLong })
    .transform((v) => stripSpaces(v).toLowerCase())
    .pipe(
      z
        .string()
        .min(1, { error: MSG.emailRequired, abort: true })
        .pipe(z.email({ error: MSG.emailInvalid })),
    ),
});

// ---- Tables ----
export const pageSizeField = z.union(
  TABLE_PAGE_SIZES.map((n) => z.literal(n)) as [z.ZodLiteral<10>, z.ZodLiteral<25>, z.ZodLiteral<50>],
);
/** A page jump: a whole number in 1..totalPages, else null (the input reverts). */
export const parsePageJump = (raw: string, totalPages: number): number | null => {
  if (!/^\d+$/.test(raw.trim())) return null;
  const n = Number(raw);
  return n >= 1 && n <= totalPages ? n : null;
};
export const clampPage = (page: number, totalPages: number) =>
  Math.min(Math.max(1, page), Math.max(1, totalPages));

/** First zod issue's message: the one an API error or a toast shows. */
export const firstIssueMessage = (error: z.ZodError) => error.issues[0]?.message ?? 'Invalid input';
