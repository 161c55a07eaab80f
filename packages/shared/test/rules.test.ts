import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  changePasswordFormSchema,
  changePasswordOtpField,
  clampPage,
  contract,
  decimalPlaces,
  depositAmountField,
  emailChangeField,
  emailChangeOtpField,
  forgotUsernameFormSchema,
  loginFormSchema,
  meetsRegistrationPassword,
  moneyAmount,
  MSG,
  otpSchema,
  PASSWORD_CHECKLIST,
  parsePageJump,
  registrationFormSchema,
  registrationOtpSchema,
  resetPasswordFormSchema,
  resetUsernameSchema,
  sideFromQuery,
  supportFormSchema,
  transactionPasswordField,
  twoFactorCode,
  walletAddressField,
  withdrawalAmountField,
  ZERO_ADDRESS,
} from '../src/index.ts';

/** Every message the schema reports for a value, in order. */
const messages = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};
const first = (schema: z.ZodType, value: unknown) => messages(schema, value)[0];

describe('login form (§5 Login)', () => {
  const plain = loginFormSchema(false);
  it('requires username and password', () => {
    expect(messages(plain, { username: '', password: '' })).toEqual(
      expect.arrayContaining([MSG.usernameRequired, MSG.passwordRequired]),
    );
    expect(MSG.usernameRequired).toBe('Username is required');
    expect(MSG.passwordRequired).toBe('Password is required');
  });
  it('needs 6+ password characters', () => {
    expect(messages(plain, { username: 'demo', password: 'abc' })).toEqual([MSG.passwordMin6]);
    expect(MSG.passwordMin6).toBe('Password must be at least 6 characters');
  });
  it('accepts only letters, digits and _ @ $ . , # +', () => {
    expect(messages(plain, { username: 'de mo', password: 'Demo@1234' })).toEqual([
      'Invalid characters used.',
    ]);
    expect(messages(plain, { username: 'demo', password: 'Demo!1234' })).toEqual([
      'Invalid characters used.',
    ]);
    expect(plain.safeParse({ username: 'a_b@c$d.e,f#g+h', password: 'Demo@1234' }).success).toBe(true);
  });
  it('requires a numeric TOTP of at most 6 digits only when enabled', () => {
    const withTotp = loginFormSchema(true);
    expect(messages(withTotp, { username: 'demo', password: 'Demo@1234', totp: '' })).toEqual([
      'TOTP is required',
    ]);
    expect(messages(withTotp, { username: 'demo', password: 'Demo@1234', totp: '12a' })).toEqual([
      'TOTP is required',
    ]);
    expect(messages(withTotp, { username: 'demo', password: 'Demo@1234', totp: '1234567' })).toEqual([
      'TOTP is required',
    ]);
    expect(withTotp.safeParse({ username: 'demo', password: 'Demo@1234', totp: '123456' }).success).toBe(
      true,
    );
    expect(plain.safeParse({ username: 'demo', password: 'Demo@1234' }).success).toBe(true);
  });
  it('keeps the invalid-submit toast text', () => {
    expect(MSG.fixFormErrors).toBe('Please fix the form errors');
  });
});

describe('registration (§5 Registration)', () => {
  const valid = {
    username: 'NewUser',
    name: 'New User',
    sponsor: 'demo',
    email: 'new@example.com',
    password: 'Secret#123',
    con_password: 'Secret#123',
    side: '0',
    country: 'India',
  };
  it('lowercases the username on submit', () => {
    const parsed = registrationFormSchema.parse(valid);
    expect(parsed.username).toBe('newuser');
  });
  it('refuses an all-digit username', () => {
    expect(first(registrationFormSchema, { ...valid, username: '12345' })).toBe(
      'Username cannot contain only numbers',
    );
  });
  it('requires a sponsor', () => {
    expect(first(registrationFormSchema, { ...valid, sponsor: '  ' })).toBe('Sponsor is required');
  });
  it('has the sponsor messages verbatim', () => {
    expect(MSG.checkSponsor).toBe('Please check your sponsor');
    expect(MSG.failedValidateSponsor).toBe('Failed to validate sponsor');
    expect(MSG.invalidSponsorLong).toBe('Invalid sponsor. Please check your sponsor or contact support.');
  });
  it('checks the password checklist item by item', () => {
    const passing = (v: string) => PASSWORD_CHECKLIST.map((rule) => rule.test(v));
    expect(passing('abc')).toEqual([false, false, false, false]);
    expect(passing('abcdefgh')).toEqual([true, false, false, false]);
    expect(passing('Abcdefg1')).toEqual([true, true, true, false]);
    expect(passing('Abcdef1"')).toEqual([true, true, true, true]);
    expect(meetsRegistrationPassword('Abcdef1~')).toBe(false); // ~ is not in the listed specials
    expect(
      first(registrationFormSchema, { ...valid, password: 'weakpass', con_password: 'weakpass' }),
    ).toBeDefined();
  });
  it('needs the confirmation to match', () => {
    expect(first(registrationFormSchema, { ...valid, con_password: 'Secret#124' })).toBe(
      'Passwords do not match',
    );
  });
  it('requires the OTP', () => {
    expect(first(registrationOtpSchema, { otp: '' })).toBe('OTP is required');
  });
  it("maps side=left to '0' and anything else to '1'", () => {
    expect(sideFromQuery('left')).toBe('0');
    expect(sideFromQuery('right')).toBe('1');
    expect(sideFromQuery(null)).toBe('1');
  });
});

describe('password reset (§5 Password reset)', () => {
  it('strips spaces from the username and lowercases it', () => {
    expect(resetUsernameSchema.parse({ username: ' De Mo ' }).username).toBe('demo');
  });
  it('needs 8+ characters with lower, upper, digit and special', () => {
    const base = { otp: '123456', conpassword: '' };
    for (const weak of ['Short1!', 'alllower1!', 'ALLUPPER1!', 'NoDigits!!', 'NoSpecial12']) {
      expect(first(resetPasswordFormSchema, { ...base, newpassword: weak, conpassword: weak })).toBe(
        'Password must be at least 8 characters and include at least 1 lowercase letter, 1 uppercase letter, 1 number, and 1 special character',
      );
    }
    expect(
      resetPasswordFormSchema.safeParse({
        otp: '123456',
        newpassword: 'Good#Pass1',
        conpassword: 'Good#Pass1',
      }).success,
    ).toBe(true);
  });
  it('reports a mismatch', () => {
    expect(
      first(resetPasswordFormSchema, { otp: '123456', newpassword: 'Good#Pass1', conpassword: 'Good#Pass2' }),
    ).toBe('Passwords do not match');
  });
  it('takes at most 6 digits of OTP', () => {
    expect(
      messages(resetPasswordFormSchema, {
        otp: '1234567',
        newpassword: 'Good#Pass1',
        conpassword: 'Good#Pass1',
      }),
    ).toHaveLength(1);
    expect(
      messages(resetPasswordFormSchema, {
        otp: '12ab',
        newpassword: 'Good#Pass1',
        conpassword: 'Good#Pass1',
      }),
    ).toHaveLength(1);
  });
  it('keeps the throttle warning verbatim', () => {
    expect(MSG.resetThrottle).toBe('You have recently used this function. Try again after 10 seconds.');
  });
});

describe('forgot username (§5)', () => {
  it('requires the email, lowercases it and strips spaces', () => {
    expect(forgotUsernameFormSchema.parse({ email: ' Demo @Example.com ' }).email).toBe('demo@example.com');
    expect(first(forgotUsernameFormSchema, { email: '   ' })).toBe('Email is required');
  });
});

describe('change password (§5 Change password)', () => {
  it('requires every field', () => {
    expect(first(changePasswordFormSchema, { oldpassword: '', newpassword: 'x', conpassword: 'x' })).toBe(
      'Please fill in all password fields.',
    );
  });
  it('refuses the old password as the new one', () => {
    expect(
      first(changePasswordFormSchema, {
        oldpassword: 'Same#123',
        newpassword: 'Same#123',
        conpassword: 'Same#123',
      }),
    ).toBe('Old password and New password cannot be same.');
  });
  it('needs new and confirm to match', () => {
    expect(
      first(changePasswordFormSchema, {
        oldpassword: 'Old#1234',
        newpassword: 'New#1234',
        conpassword: 'New#1235',
      }),
    ).toBe('New password and confirm password do not match.');
  });
  it('checks the criteria after stripping spaces', () => {
    expect(
      first(changePasswordFormSchema, {
        oldpassword: 'Old#1234',
        newpassword: 'newpass12',
        conpassword: 'newpass12',
      }),
    ).toBe('New password does not meet the required criteria.');
    const parsed = changePasswordFormSchema.parse({
      oldpassword: 'Old#1234',
      newpassword: 'New #1234',
      conpassword: 'New#1234 ',
    });
    expect(parsed.newpassword).toBe('New#1234');
  });
  it('requires a 6-digit OTP', () => {
    expect(first(changePasswordOtpField, '')).toBe('Please enter the OTP.');
    expect(first(changePasswordOtpField, '12345')).toBe('Please enter the OTP.');
    expect(changePasswordOtpField.safeParse('123456').success).toBe(true);
    expect(MSG.newPasswordMin6).toBe('New password must be at least 6 characters.');
  });
});

describe('email change (§5)', () => {
  it('requires the email', () => {
    expect(first(emailChangeField, '')).toBe('Enter your New Email');
  });
  it('takes up to 6 OTP digits', () => {
    expect(emailChangeOtpField.safeParse('123456').success).toBe(true);
    expect(emailChangeOtpField.safeParse('1234567').success).toBe(false);
  });
});

describe('2FA (§5)', () => {
  it('needs a 6-character numeric code', () => {
    expect(first(twoFactorCode, '12345')).toBe('Invalid verification code');
    expect(twoFactorCode.safeParse('123456').success).toBe(true);
    expect([MSG.failedActivate2fa, MSG.twoFaEnabled, MSG.twoFaDisabled, MSG.keyCopied]).toEqual([
      'Failed to activate 2FA',
      '2FA enabled successfully',
      '2FA disabled successfully',
      'Key copied to clipboard',
    ]);
  });
});

describe('money rules used by later screens (§5)', () => {
  it('deposit amount', () => {
    expect(first(depositAmountField, '')).toBe('Enter Amount');
    expect(first(depositAmountField, 'abc')).toBe('Please enter a valid amount');
    expect(first(depositAmountField, '0')).toBe('Please enter a valid amount');
    expect(first(depositAmountField, '9.99')).toBe('Amount cannot be less than 10!');
    expect(depositAmountField.safeParse('10').success).toBe(true);
  });
  it('withdrawal minimum keeps its wording', () => {
    expect(first(withdrawalAmountField, '19.99')).toBe('Amount should be greater then $20 ');
    expect(withdrawalAmountField.safeParse('20').success).toBe(true);
  });
  it('transaction password', () => {
    expect(first(transactionPasswordField, '')).toBe('Enter Transaction Password');
    expect(first(transactionPasswordField, 'abc12!')).toBeUndefined();
    expect(first(transactionPasswordField, 'abcdef!')).toBe(
      'Password must be at least 6 characters long, include at least one number and one special character.',
    );
    expect(first(otpSchema, '123')).toBe('Enter OTP of 6 Digits');
  });
  it('wallet address', () => {
    expect(first(walletAddressField, '')).toBe('Enter Wallet Address');
    expect(first(walletAddressField, '0x123')).toBe('Invaid Wallet Address');
    expect(walletAddressField.safeParse('0x52908400098527886E0F7030069857D2E4169EE7').success).toBe(true);
  });
  it('wallet address: the zero address is refused with the spec’s message, on the form and in the contract', () => {
    const zero = '0x0000000000000000000000000000000000000000';
    expect(ZERO_ADDRESS).toBe(zero);
    expect(messages(walletAddressField, zero)).toEqual(['Invaid Wallet Address']);
    // A one-digit neighbour is an ordinary address.
    expect(walletAddressField.safeParse(`${zero.slice(0, -1)}1`).success).toBe(true);
    for (const [name, otp] of [
      ['wallet.update_wallet_address', {}],
      ['wallet.wallet_address_verification', { otp: '123456' }],
    ] as const) {
      const input = { address: zero, network: 'BEP.20', ...otp };
      expect(messages(contract[name].input, input), name).toEqual([MSG.invalidWalletAddress]);
      expect(
        contract[name].input.safeParse({ ...input, address: `${zero.slice(0, -1)}1` }).success,
        name,
      ).toBe(true);
    }
  });
  it('wire amounts: positive, finite, at most 6 decimals', () => {
    expect(moneyAmount.safeParse(10.123456).success).toBe(true);
    expect(moneyAmount.safeParse(10.1234567).success).toBe(false);
    expect(moneyAmount.safeParse(1e-7).success).toBe(false);
    expect(moneyAmount.safeParse(0).success).toBe(false);
    expect(moneyAmount.safeParse(-5).success).toBe(false);
    expect(moneyAmount.safeParse(Number.NaN).success).toBe(false);
    expect(moneyAmount.safeParse('10').success).toBe(false);
    expect(moneyAmount.safeParse(1e12).success).toBe(false);
    expect(decimalPlaces(1.5e-6)).toBe(7);
  });
});

describe('support form (§5)', () => {
  it('has every message', () => {
    expect(messages(supportFormSchema, { name: '', email: '', subject: '', message: '' })).toEqual([
      'Name is required',
      'Email is required',
      'Subject is required',
      'Message is required',
    ]);
    expect(
      first(supportFormSchema, { name: 'a', email: 'nope', subject: 's', message: 'long enough message' }),
    ).toBe('Email is invalid');
    expect(first(supportFormSchema, { name: 'a', email: 'a@b.co', subject: 's', message: 'short' })).toBe(
      'Message must be at least 10 characters',
    );
  });
});

describe('table page jump (§5)', () => {
  it('accepts whole numbers in 1..total and reverts otherwise', () => {
    expect(parsePageJump('3', 5)).toBe(3);
    expect(parsePageJump('0', 5)).toBeNull();
    expect(parsePageJump('6', 5)).toBeNull();
    expect(parsePageJump('2.5', 5)).toBeNull();
    expect(parsePageJump('abc', 5)).toBeNull();
  });
  it('clamps page changes', () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(3, 0)).toBe(1);
  });
});
