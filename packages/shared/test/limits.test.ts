/**
 * Length limits: every limited field, in the contract (what the server parses) and in
 * the form rules (what the web forms show), accepts a value at its limit and refuses one character
 * more with the limit's message. A last check walks the JSON Schema of every contract input, so a
 * string added later without a bound fails here.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BEP20_ADDRESS_LENGTH,
  changePasswordFormSchema,
  contract,
  emailChangeField,
  forgotUsernameFormSchema,
  loginFormSchema,
  MSG,
  OTP_LENGTH,
  planPackageSchema,
  procedureNames,
  registrationFormSchema,
  resetPasswordFormSchema,
  resetUsernameSchema,
  supportFormSchema,
  TEXT_MAX,
  transactionPasswordField,
  type ProcedureName,
} from '../src/index.ts';

// ---------- values of an exact length that pass every other rule of their field ----------
const letters = (n: number) => 'a'.repeat(n);
/** A syntactically valid address of exactly n characters (n ≥ 20): local part ≤ 64, labels ≤ 63. */
const emailOf = (n: number) => {
  const local = letters(Math.min(64, n - 10));
  let rest = n - local.length - 1 - 4; // '@' and '.com'
  const labels: string[] = [];
  while (rest > 0) {
    const size = Math.min(63, rest === 64 ? 62 : rest); // never leave a lone '.'
    labels.push('b'.repeat(size));
    rest -= size + 1;
  }
  const email = `${local}@${labels.join('.')}.com`;
  return email.length === n ? email : `${'a'.repeat(n - email.length)}${email}`;
};
/** A password meeting every password rule (upper, lower, digit, special), exactly n characters. */
const passwordOf = (n: number) => `Aa1!${letters(n - 4)}`;
const digits = (n: number) => '1'.repeat(n);

const M = TEXT_MAX;
const login = { username: 'demo', password: 'Demo@1234' };
const register = {
  username: 'newbie',
  name: 'New Member',
  sponsor: 'demo',
  email: 'new@example.com',
  password: 'Secret@123',
  conpassword: 'Secret@123',
  otp: '123456',
  side: '0',
  country: 'United Kingdom',
};
const table = { pageNo: 1, pageSize: 10 };

interface Row {
  /** What is parsed: a contract procedure's input, or a form rule. */
  schema: z.ZodType;
  where: string;
  base: Record<string, unknown>;
  /** The input with the field set to a value of length n. */
  set: (n: number) => Record<string, unknown>;
  max: number;
  message: string;
}
const input = (name: ProcedureName) => contract[name].input as z.ZodType;
/** One field of a contract input. */
const field = (
  name: ProcedureName,
  key: string,
  base: Record<string, unknown>,
  max: number,
  message: string,
  make: (n: number) => unknown = letters,
): Row => ({
  schema: input(name),
  where: `${name} ${key}`,
  base,
  set: (n) => ({ ...base, [key]: make(n) }),
  max,
  message,
});
const usernameLookups: ProcedureName[] = [
  'user.check_username_available',
  'user.reset_password_email',
  'level.downline_exist',
  'level.view_downline',
  'binary.view_binary_downline',
  'binary.view_binary_downline_details',
];

const CONTRACT_ROWS: Row[] = [
  field('user.login', 'username', login, M.username, MSG.usernameTooLong),
  field('user.login', 'password', login, M.password, MSG.passwordTooLong),
  field('user.view_country', 'username', {}, M.username, MSG.usernameTooLong),
  ...usernameLookups.map((name) =>
    field(name, 'username', { username: 'demo' }, M.username, MSG.usernameTooLong),
  ),
  field('user.verify_otp', 'username', { page: 'Email Verification' }, M.username, MSG.usernameTooLong),
  field('user.verify_otp', 'email', { page: 'Email Verification' }, M.email, MSG.emailTooLong),
  field('user.verify_otp', 'new_email', { page: 'Email Verification' }, M.email, MSG.emailTooLong),
  field(
    'user.verify_otp',
    'project',
    { page: 'Email Verification' },
    M.tag,
    'project must be at most 100 characters',
  ),
  field('user.verify_otp', 'otp', { page: 'Email Verification' }, OTP_LENGTH, MSG.enterOtp6, digits),
  field('user.register', 'username', register, M.username, MSG.usernameTooLong),
  field('user.register', 'name', register, M.name, MSG.nameTooLong),
  field('user.register', 'sponsor', register, M.username, MSG.sponsorTooLong),
  field('user.register', 'email', register, M.email, MSG.emailTooLong, emailOf),
  {
    ...field('user.register', 'password', register, M.password, MSG.passwordTooLong),
    set: (n) => ({ ...register, password: passwordOf(n), conpassword: passwordOf(n) }),
  },
  field('user.register', 'country', register, M.country, MSG.countryTooLong),
  field('user.register', 'project', register, M.tag, 'project must be at most 100 characters'),
  field(
    'user.reset_password',
    'username',
    { username: 'demo', otp: '123456', newpassword: 'Fresh@1234', conpassword: 'Fresh@1234' },
    M.username,
    MSG.usernameTooLong,
  ),
  {
    ...field('user.reset_password', 'newpassword', {}, M.password, MSG.passwordTooLong),
    set: (n) => ({ username: 'demo', otp: '123456', newpassword: passwordOf(n), conpassword: passwordOf(n) }),
  },
  field('user.forgot_username', 'email', { email: 'demo@example.com' }, M.email, MSG.emailTooLong, emailOf),
  field(
    'user.forgot_username',
    'captcha',
    { email: 'demo@example.com' },
    M.captcha,
    'captcha must be at most 4096 characters',
  ),
  ...(['oldpassword', 'newpassword', 'conpassword'] as const).map((key) =>
    field(
      'user.change_password',
      key,
      { oldpassword: 'Demo@1234', newpassword: 'Fresh@1234', conpassword: 'Fresh@1234', otp: '123456' },
      M.password,
      MSG.passwordTooLong,
      passwordOf,
    ),
  ),
  field('user.change_email_request', 'email', {}, M.email, MSG.emailTooLong, emailOf),
  field('user.change_email', 'email', { otp: '123456' }, M.email, MSG.emailTooLong, emailOf),
  field('user.reset_transaction_password', 'password', {}, M.password, MSG.passwordTooLong, passwordOf),
  field(
    'user.verify_transaction_password',
    'password',
    { otp: '123456' },
    M.password,
    MSG.passwordTooLong,
    passwordOf,
  ),
  field(
    'user.verify_transaction_password',
    'otp',
    { password: 'Txn@123' },
    OTP_LENGTH,
    MSG.enterOtp6,
    digits,
  ),
  field('subscription.buy_subscription_packages', 'plan', {}, M.plan, MSG.planTooLong),
  field('transfer_to_user', 'username', { amount: 1, password: 'Txn@123' }, M.username, MSG.usernameTooLong),
  field('transfer_to_user', 'password', { username: 'demo', amount: 1 }, M.password, MSG.passwordTooLong),
  field('withdraw.withdraw_request', 'password', { amount: 20 }, M.password, MSG.passwordTooLong),
  // A BEP.20 address is exactly 42 characters: one more is simply invalid (the spec's message).
  field(
    'wallet.update_wallet_address',
    'address',
    { network: 'BEP.20' },
    BEP20_ADDRESS_LENGTH,
    MSG.invalidWalletAddress,
    (n) => `0x${'a'.repeat(n - 2)}`,
  ),
  field(
    'wallet.wallet_address_verification',
    'address',
    { network: 'BEP.20', otp: '123456' },
    BEP20_ADDRESS_LENGTH,
    MSG.invalidWalletAddress,
    (n) => `0x${'a'.repeat(n - 2)}`,
  ),
  field(
    'deposit.make_payment',
    'gateway',
    { amount_usdt: 10, currency: 'USDT.BEP20' },
    M.tag,
    'gateway must be at most 100 characters',
  ),
  field('user.view_profile', 'jwt', {}, M.token, 'jwt must be at most 8192 characters'),
  field(
    'notification.total_view_notification',
    'token',
    {},
    M.token,
    'token must be at most 8192 characters',
  ),
  field('table.view_deposit_transaction', 'path', table, M.tag, 'path must be at most 100 characters'),
  field('table.view_deposit_transaction', 'search', table, M.search, MSG.searchTooLong, (n) => [letters(n)]),
  field(
    'table.view_deposit_transaction',
    'start_date',
    table,
    M.date,
    'start_date must be a date as YYYY-MM-DD',
  ),
  field('table.view_deposit_transaction', 'end_date', table, M.date, 'end_date must be a date as YYYY-MM-DD'),
  field(
    'table.view_deposit_transaction',
    'filters',
    table,
    M.filterName,
    'A filter name must be at most 50 characters',
    (n) => ({ [letters(n)]: ['PAID'] }),
  ),
  field(
    'table.view_deposit_transaction',
    'filters',
    table,
    M.filterValue,
    'A filter value must be at most 100 characters',
    (n) => ({ status: [letters(n)] }),
  ),
  field(
    'support.send_message',
    'name',
    { email: 'a@b.co', subject: 'Hello', message: 'Ten chars or more' },
    M.name,
    MSG.nameTooLong,
  ),
  field(
    'support.send_message',
    'email',
    { name: 'A', subject: 'Hello', message: 'Ten chars or more' },
    M.email,
    MSG.emailTooLong,
    emailOf,
  ),
  field(
    'support.send_message',
    'subject',
    { name: 'A', email: 'a@b.co', message: 'Ten chars or more' },
    M.supportSubject,
    MSG.subjectTooLong,
  ),
  field(
    'support.send_message',
    'message',
    { name: 'A', email: 'a@b.co', subject: 'Hello' },
    M.supportMessage,
    MSG.messageTooLong,
  ),
];

/** The form rules the web app validates with (the same words as the server). */
const form = (
  schema: z.ZodType,
  where: string,
  base: Record<string, unknown>,
  key: string,
  max: number,
  message: string,
  make: (n: number) => unknown = letters,
): Row => ({
  schema,
  where,
  base,
  set: (n) => ({ ...base, [key]: make(n) }),
  max,
  message,
});
const registerForm = {
  username: 'newbie',
  name: 'New Member',
  sponsor: 'demo',
  email: 'new@example.com',
  password: 'Secret@123',
  con_password: 'Secret@123',
  side: '0',
  country: 'United Kingdom',
};
const changeForm = { oldpassword: 'Demo@1234', newpassword: 'Fresh@1234', conpassword: 'Fresh@1234' };
const FORM_ROWS: Row[] = [
  form(loginFormSchema(false), 'sign-in username', login, 'username', M.username, MSG.usernameTooLong),
  form(loginFormSchema(false), 'sign-in password', login, 'password', M.password, MSG.passwordTooLong),
  form(
    registrationFormSchema,
    'registration username',
    registerForm,
    'username',
    M.username,
    MSG.usernameTooLong,
  ),
  form(registrationFormSchema, 'registration name', registerForm, 'name', M.name, MSG.nameTooLong),
  form(
    registrationFormSchema,
    'registration sponsor',
    registerForm,
    'sponsor',
    M.username,
    MSG.sponsorTooLong,
  ),
  form(
    registrationFormSchema,
    'registration email',
    registerForm,
    'email',
    M.email,
    MSG.emailTooLong,
    emailOf,
  ),
  {
    ...form(
      registrationFormSchema,
      'registration password',
      registerForm,
      'password',
      M.password,
      MSG.passwordTooLong,
    ),
    set: (n) => ({ ...registerForm, password: passwordOf(n), con_password: passwordOf(n) }),
  },
  form(
    registrationFormSchema,
    'registration country',
    registerForm,
    'country',
    M.country,
    MSG.countryTooLong,
  ),
  form(resetUsernameSchema, 'reset username', {}, 'username', M.username, MSG.usernameTooLong),
  {
    ...form(
      resetPasswordFormSchema,
      'reset new password',
      {},
      'newpassword',
      M.password,
      MSG.passwordTooLong,
    ),
    set: (n) => ({ otp: '123456', newpassword: passwordOf(n), conpassword: passwordOf(n) }),
  },
  form(forgotUsernameFormSchema, 'forgot-username email', {}, 'email', M.email, MSG.emailTooLong, emailOf),
  ...(['oldpassword', 'newpassword', 'conpassword'] as const).map((key) =>
    key === 'oldpassword'
      ? form(
          changePasswordFormSchema,
          `change-password ${key}`,
          changeForm,
          key,
          M.password,
          MSG.passwordTooLong,
          passwordOf,
        )
      : {
          ...form(
            changePasswordFormSchema,
            `change-password ${key}`,
            changeForm,
            key,
            M.password,
            MSG.passwordTooLong,
          ),
          set: (n: number) => ({ ...changeForm, newpassword: passwordOf(n), conpassword: passwordOf(n) }),
        },
  ),
  form(
    z.object({ email: emailChangeField }),
    'email change',
    {},
    'email',
    M.email,
    MSG.emailTooLong,
    emailOf,
  ),
  form(
    z.object({ password: transactionPasswordField }),
    'transaction password',
    {},
    'password',
    M.password,
    MSG.passwordTooLong,
    passwordOf,
  ),
  form(
    supportFormSchema,
    'support subject',
    { name: 'A', email: 'a@b.co', message: 'Ten chars or more' },
    'subject',
    M.supportSubject,
    MSG.subjectTooLong,
  ),
  form(
    supportFormSchema,
    'support message',
    { name: 'A', email: 'a@b.co', subject: 'Hello' },
    'message',
    M.supportMessage,
    MSG.messageTooLong,
  ),
];

const check = (rows: Row[]) =>
  it.each(rows.map((row) => [`${row.where} ≤ ${row.max}`, row] as const))('%s', (_label, row) => {
    const atLimit = row.schema.safeParse(row.set(row.max));
    expect(atLimit.success ? [] : atLimit.error.issues.map((i) => i.message), 'at the limit').toEqual([]);
    const over = row.schema.safeParse(row.set(row.max + 1));
    expect(over.success, 'one over the limit').toBe(false);
    // The first message is the one the server answers and the form shows first.
    expect(over.success ? undefined : over.error.issues[0]?.message).toBe(row.message);
  });

describe('length limits in the contract (what the server accepts)', () => {
  check(CONTRACT_ROWS);

  it('keeps what the spec and the demo data use: 42-character BEP.20 addresses, demo names, every country', () => {
    const address = '0x842dad94eaA5655D6452EEe18419FaA8a085dab8';
    expect(address).toHaveLength(BEP20_ADDRESS_LENGTH);
    expect(input('wallet.update_wallet_address').safeParse({ address, network: 'BEP.20' }).success).toBe(
      true,
    );
    expect(input('user.login').safeParse({ username: 'bernadette_038', password: 'Demo@1234' }).success).toBe(
      true,
    );
    expect(
      input('user.register').safeParse({
        ...register,
        country: 'Democratic Republic of the Congo',
        name: 'Bernadette Mueller',
      }).success,
    ).toBe(true);
  });

  it('counts a username after trimming, and lowercases it', () => {
    const parsed = input('user.login').parse({
      username: `  ${'A'.repeat(M.username)}  `,
      password: 'x',
    }) as { username: string };
    expect(parsed.username).toBe('a'.repeat(M.username));
  });

  it('bounds the number of filters and of values in one filter', () => {
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, ['x']]));
    expect(
      input('table.view_deposit_transaction').safeParse({ ...table, filters: many }).error?.issues[0]
        ?.message,
    ).toBe('At most 20 filters');
    const values = Array.from({ length: 51 }, () => 'x');
    expect(
      input('table.view_deposit_transaction').safeParse({ ...table, filters: { status: values } }).error
        ?.issues[0]?.message,
    ).toBe('A filter takes at most 50 values');
  });

  it('holds plan files to the contract bound on package names', () => {
    const pkg = { price: 100, roiPercentage: 1, binaryVolume: 100, rankVolume: 100 };
    expect(planPackageSchema.safeParse({ ...pkg, name: letters(M.plan) }).success).toBe(true);
    expect(planPackageSchema.safeParse({ ...pkg, name: letters(M.plan + 1) }).success).toBe(false);
  });
});

describe('length limits in the form rules (what the web forms show)', () => {
  check(FORM_ROWS);
});

// ---------- every input string is bounded ----------
type Json = { [key: string]: unknown };
/** Where a string in this JSON Schema has no upper bound (no maxLength, enum, const or bounded pattern). */
function unbounded(schema: unknown, path: string, out: string[]) {
  if (Array.isArray(schema)) return schema.forEach((item, i) => unbounded(item, `${path}[${i}]`, out));
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Json;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  // A pattern bounds the length when it is anchored and repeats nothing without a limit (^\d{6}$).
  const boundedPattern =
    typeof node.pattern === 'string' && /^\^[^*+]*\$$/.test(node.pattern) && !/\{\d*,\}/.test(node.pattern);
  if (
    types.includes('string') &&
    node.maxLength === undefined &&
    node.enum === undefined &&
    node.const === undefined &&
    !boundedPattern
  )
    out.push(path || '(root)');
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties')
      for (const [name, property] of Object.entries(value as Json))
        unbounded(property, `${path}.${name}`, out);
    else if (typeof value === 'object') unbounded(value, `${path}/${key}`, out);
  }
}

describe('every string a contract input takes', () => {
  it('has a maxLength (or a fixed form) in its JSON Schema, so the OpenAPI document states it', () => {
    const found: string[] = [];
    for (const name of procedureNames)
      unbounded(z.toJSONSchema(contract[name].input, { io: 'input', unrepresentable: 'any' }), name, found);
    expect(found).toEqual([]);
  });
});
