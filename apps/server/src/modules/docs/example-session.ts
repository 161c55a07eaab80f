/**
 * The examples of the OpenAPI document, made by playing one member's session against a fresh
 * `demo` world under example codes (core/example-codes.ts) and keeping each call's request and
 * answer: never typed by hand, so every id is one the demo world has. The build plays it
 * (src/openapi-examples.ts); the document shows each procedure's first call. Played again on a
 * fresh demo world with example codes on (`replay`), every call answers 2xx as recorded, save the
 * `carried` fields: ids the world makes at random (a session's), read from that world's own answers.
 *
 * Order matters: calls that change what later ones rely on (passwords, TOTP, sessions) come last.
 * Each call needs nothing of the session but its member's sign-in and, for a code, the call that
 * mails it: a tool may send any one of them alone on a fresh demo world (dredd-hooks.cjs does).
 */
import { contract, procedureNames, type InputOf, type ProcedureName, type TableInput } from '@md/shared';
import { EXAMPLE_CODE } from '../../core/example-codes.ts';
import type { RecordedQaCall } from './qa-example-session.ts';
import { DEMO_WALLET_ADDRESS } from '../../seed/demo-money.ts';

/** The demo scenario's members and secrets (seed/demo.ts, seed/demo-money.ts). */
const DEMO = { username: 'demo', password: 'Demo@1234', email: 'demo@example.com', transaction: 'Txn@123' };
const NEWCOMER = { username: 'newmember01', email: 'newmember01@example.com' };
/** A demo member without a package (only such a member may change its email). */
const WITHOUT_PACKAGE = 'allene_029';
const PASSWORDS = { first: 'Fresh@12345', reset: 'Renewed@12345', changed: 'Changed@12345' };
/** Two browsers' push subscriptions (PushSubscription.toJSON()): keys of real P-256 points, at a push service that does not exist. */
const PUSH_DEVICES = [
  {
    endpoint: 'https://push.example.invalid/send/dGhpcy1waG9uZQ',
    expirationTime: null,
    keys: {
      p256dh: 'BIFvzbRcRRalGFxl02LDuEgzr0sqzYjFk2XwV0lI0UxUuGOhu_4e21XhNvt_04YZQU4wVY_WYEnnwmxaw90Pyu4',
      auth: '1uzM-5BQJKdCiGehhe2eqQ',
    },
  },
  {
    endpoint: 'https://push.example.invalid/send/YW5vdGhlci1sYXB0b3A',
    expirationTime: null,
    keys: {
      p256dh: 'BPHrOyTZIvZX2Te3zxwXxXJ5WpkBVgNzCkg5qN1iCa6JR3z97PV-RJEjMyjhAzj_trSkhwmxZRxa_YE6a4YN92U',
      auth: 'cdOt17vlEG0CzmmnJD94Qw',
    },
  },
] as const;

export interface RecordedCall {
  name: ProcedureName;
  /** Whose session token went with it; null for a call without one. */
  as: string | null;
  request: unknown;
  /** The call that must come first (it mails the code this one confirms), as it was made. */
  after?: { path: string; request: unknown };
  status: number;
  response: unknown;
}

/** What the build writes (dist/openapi-examples.json) and the document reads. */
export interface RecordedSession {
  /** The world's clock when the session started. */
  at: string;
  from: 'demo';
  calls: RecordedCall[];
  /** The tester's session after it (qa-example-session.ts). */
  qa: RecordedQaCall[];
}

/** One call over REST at the provider's path: the answer's status and JSON. */
export type SendCall = (
  path: string,
  body: unknown,
  token: string | null,
) => Promise<{ status: number; body: unknown }>;

interface Seen {
  /** The latest answer of each procedure so far. */
  answers: Map<ProcedureName, unknown>;
  /** The world's clock at the start (epoch ms). */
  now: number;
  /** A solved captcha of this world (the ALTCHA payload a browser would send). */
  captcha: () => Promise<string>;
}

interface Step {
  name: ProcedureName;
  as: string | null;
  input: (seen: Seen) => unknown;
  /** Fields read from an earlier answer of the same world: a replay reads them from its own. */
  carried?: readonly string[];
  /** The procedure whose latest call must come first: it mails the code (or starts what) this one confirms. */
  after?: ProcedureName;
}

const step = <K extends ProcedureName>(
  name: K,
  as: string | null,
  input: InputOf<K> | ((seen: Seen) => InputOf<K> | Promise<InputOf<K>>),
  options: Pick<Step, 'carried' | 'after'> = {},
): Step => ({
  name,
  as,
  input: typeof input === 'function' ? (input as (seen: Seen) => unknown) : () => input,
  ...options,
});

const rowsOf = (answer: unknown): Record<string, unknown>[] => {
  const rows = (answer as { Success?: unknown } | undefined)?.Success;
  return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
};

/** The first row of the demo member's history whose TransID matches, for the calls that explain one. */
function historyTransId(seen: Seen, pattern: RegExp): string {
  const row = rowsOf(seen.answers.get('earning.view_all_earning_history')).find((r) =>
    pattern.test(String(r.TransID)),
  );
  if (!row) throw new Error(`The demo history has no row whose TransID matches ${pattern}`);
  return String(row.TransID);
}

/** The month before the clock's, as YYYY-MM (UTC): a whole month of statement. */
function lastMonth(now: number): string {
  const date = new Date(now);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

const tableInput = contract['table.view_deposit_transaction'].input;
const isTable = (name: ProcedureName) => contract[name].input === tableInput;

/** A paged table's first page as the web app asks for it (a total call sends no pageNo). */
function tableStep(name: ProcedureName): Step {
  const path = contract[name].path;
  const input: TableInput = path.includes('/total_')
    ? { pageSize: 10, path }
    : { pageNo: 1, pageSize: 10, path };
  return { name, as: DEMO.username, input: () => input };
}

const login = (username: string, password: string) => step('user.login', null, { username, password });

const STEPS: readonly Step[] = [
  login(DEMO.username, DEMO.password),
  step('user.view_country', null, { username: 'demo2fa' }),
  // A newcomer joins under demo; a member without a package resets its password.
  step('user.check_username_available', null, { username: NEWCOMER.username }),
  step('user.verify_otp', null, { page: 'Email Verification', ...NEWCOMER }),
  step(
    'user.register',
    null,
    {
      ...NEWCOMER,
      name: 'New Member',
      sponsor: DEMO.username,
      password: PASSWORDS.first,
      conpassword: PASSWORDS.first,
      otp: EXAMPLE_CODE,
      side: '1',
      country: 'India',
    },
    { after: 'user.verify_otp' },
  ),
  step('user.reset_password_email', null, { username: WITHOUT_PACKAGE }),
  step(
    'user.reset_password',
    null,
    {
      username: WITHOUT_PACKAGE,
      otp: EXAMPLE_CODE,
      newpassword: PASSWORDS.reset,
      conpassword: PASSWORDS.reset,
    },
    { after: 'user.reset_password_email' },
  ),
  step('user.forgot_username', null, async (seen) => ({ email: DEMO.email, captcha: await seen.captcha() }), {
    carried: ['captcha'],
  }),
  // What the dashboard reads.
  step('user.view_profile', DEMO.username, {}),
  step('user_analytics.view_user_analytics', DEMO.username, {}),
  step('direct.view_direct_team_details', DEMO.username, {}),
  step('notification.view_notification', DEMO.username, { page_no: 1, page_size: 20 }),
  step('notification.total_view_notification', DEMO.username, {}),
  step('wallet.view_all_wallets_details', DEMO.username, {}),
  step('table.view_subscription', DEMO.username, {}),
  step('level.downline_exist', DEMO.username, { username: 'gonzalo_001' }),
  step('wallet.view_from_wallets', DEMO.username, {}),
  step('wallet.view_to_wallets', DEMO.username, {}),
  step('withdraw.withdraw_fees', DEMO.username, { amount: 100 }),
  step('level.view_downline', DEMO.username, { username: DEMO.username }),
  step('level.view_downline_page', DEMO.username, { username: DEMO.username, page: 1, per_page: 20 }),
  step('binary.view_binary_downline', DEMO.username, { username: DEMO.username }),
  step('binary.view_binary_downline_details', DEMO.username, { username: 'gonzalo_001' }),
  step('binary.view_leg_bottom', DEMO.username, { side: '0' }),
  step('binary.view_path', DEMO.username, { username: 'gonzalo_001' }),
  step('rank.view_all_ranks', DEMO.username, {}),
  step('rank.current_rank', DEMO.username, {}),
  step('rank.view_rank_progress', DEMO.username, {}),
  step('rank.view_rank_history', DEMO.username, {}),
  ...procedureNames.filter(isTable).map(tableStep),
  step('activity.view_recent', DEMO.username, { limit: 20 }),
  step('earning.view_daily_earnings', DEMO.username, { days: 30 }),
  step('binary.view_daily_volume', DEMO.username, { days: 30 }),
  step('earning.view_payout_details', DEMO.username, (seen) => ({
    trans_id: historyTransId(seen, /^ROI/),
  })),
  step('withdraw.view_withdrawal_timeline', DEMO.username, (seen) => ({
    trans_id: historyTransId(seen, /^WD/),
  })),
  step('wallet.view_statement', DEMO.username, (seen) => ({ wallet: 'ROI', month: lastMonth(seen.now) })),
  step('team.view_team_summary', DEMO.username, {}),
  step('binary.view_next_run', DEMO.username, {}),
  step('notification.view_preferences', DEMO.username, {}),
  step('notification.update_preferences', DEMO.username, { event: 'withdrawals', email: true }),
  // Web Push: this device stays subscribed (the tester's session then sees what was pushed to it),
  // a second is subscribed and turned off again. Endpoints on a reserved domain: nothing is reached.
  step('notification.view_push_key', DEMO.username, {}),
  step('notification.subscribe_push', DEMO.username, PUSH_DEVICES[0]),
  step('notification.subscribe_push', DEMO.username, PUSH_DEVICES[1]),
  step('notification.unsubscribe_push', DEMO.username, { endpoint: PUSH_DEVICES[1].endpoint }),
  // Money.
  step('subscription.buy_subscription_packages', DEMO.username, { plan: 'Starter' }),
  step('transfer_to_user', DEMO.username, {
    username: 'gonzalo_001',
    amount: 100,
    password: DEMO.transaction,
  }),
  step('wallet.transfer_wallet', DEMO.username, { amount: 50, from_wallet: 'Direct', to_wallet: 'Deposit' }),
  step('wallet.update_wallet_address', DEMO.username, { address: DEMO_WALLET_ADDRESS, network: 'BEP.20' }),
  step(
    'wallet.wallet_address_verification',
    DEMO.username,
    {
      address: DEMO_WALLET_ADDRESS,
      network: 'BEP.20',
      otp: EXAMPLE_CODE,
    },
    { after: 'wallet.update_wallet_address' },
  ),
  step('withdraw.withdraw_request', DEMO.username, { amount: 100, password: DEMO.transaction }),
  step('deposit.make_payment', DEMO.username, { amount_usdt: 100, currency: 'USDT.BEP20' }),
  step('support.send_message', DEMO.username, {
    name: 'Demo Member',
    email: DEMO.email,
    subject: 'Withdrawal status',
    message: 'My withdrawal of 100 USDT is still pending. Could you check it?',
  }),
  // Sessions: a second sign-in to end from the first.
  login(DEMO.username, DEMO.password),
  step('user.view_sessions', DEMO.username, {}),
  step(
    'user.end_session',
    DEMO.username,
    (seen) => {
      const other = rowsOf(seen.answers.get('user.view_sessions')).find((s) => s.Current !== true);
      if (!other) throw new Error('The demo member has no other session to end');
      return { session: String(other.ID) };
    },
    { carried: ['session'] },
  ),
  step('user.end_other_sessions', DEMO.username, {}),
  // The member without a package changes its email, and signs out.
  login(WITHOUT_PACKAGE, PASSWORDS.reset),
  step('user.change_email_request', WITHOUT_PACKAGE, { email: 'allene.new@example.com' }),
  step(
    'user.change_email',
    WITHOUT_PACKAGE,
    { email: 'allene.new@example.com', otp: EXAMPLE_CODE },
    { after: 'user.change_email_request' },
  ),
  step('user.logout', WITHOUT_PACKAGE, {}),
  // Demo's secrets, last: the transaction password, TOTP, then the password (which ends its sessions).
  step('user.reset_transaction_password', DEMO.username, { password: 'Txn@456' }),
  step(
    'user.verify_transaction_password',
    DEMO.username,
    { password: 'Txn@456', otp: EXAMPLE_CODE },
    { after: 'user.reset_transaction_password' },
  ),
  step('user.enable_totp', DEMO.username, {}),
  step(
    'user.change_totp_status',
    DEMO.username,
    { status: true, totp: EXAMPLE_CODE },
    { after: 'user.enable_totp' },
  ),
  step('user.verify_otp', DEMO.username, { page: 'Change Password' }),
  step(
    'user.change_password',
    DEMO.username,
    {
      oldpassword: DEMO.password,
      newpassword: PASSWORDS.changed,
      conpassword: PASSWORDS.changed,
      otp: EXAMPLE_CODE,
    },
    { after: 'user.verify_otp' },
  ),
];

/** Whether an answer is a success: 2xx without a provider `Error`. */
const succeeded = (status: number, body: unknown) =>
  status >= 200 && status < 300 && !(body && typeof body === 'object' && 'Error' in body);

/**
 * Plays the session: every call must succeed, else it throws naming the call. With `replay`
 * (an earlier recording), each call sends the recorded request, its carried fields read afresh.
 */
export async function playExampleSession(
  send: SendCall,
  options: { now: number; captcha: () => Promise<string>; replay?: readonly RecordedCall[] },
): Promise<RecordedCall[]> {
  if (options.replay && options.replay.length !== STEPS.length)
    throw new Error(`The recording has ${options.replay.length} calls; the session has ${STEPS.length}`);
  const seen: Seen = { answers: new Map(), now: options.now, captcha: options.captcha };
  const tokens = new Map<string, string>();
  const calls: RecordedCall[] = [];
  for (const [index, { name, as, input, carried, after }] of STEPS.entries()) {
    const recorded = options.replay?.[index];
    let request = await input(seen);
    if (recorded) {
      if (recorded.name !== name)
        throw new Error(`Call ${index} was ${recorded.name}; the session has ${name}`);
      const fresh = request as Record<string, unknown>;
      request = {
        ...(recorded.request as object),
        ...Object.fromEntries((carried ?? []).map((field) => [field, fresh[field]])),
      };
    }
    const token = as === null ? null : tokens.get(as);
    if (token === undefined) throw new Error(`${name}: ${as} has not signed in`);
    const answer = await send(contract[name].path, request, token);
    if (!succeeded(answer.status, answer.body))
      throw new Error(`${name} (call ${index}) answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    if (name === 'user.login') {
      const { username } = request as InputOf<'user.login'>;
      tokens.set(username, String((answer.body as { JWT: string }).JWT));
    }
    seen.answers.set(name, answer.body);
    const before = after && calls.findLast((call) => call.name === after);
    calls.push({
      name,
      as,
      request,
      ...(before ? { after: { path: contract[after].path, request: before.request } } : {}),
      status: answer.status,
      response: answer.body,
    });
  }
  return calls;
}

/** The first of `calls` for each key: the document shows a procedure's (or a QA route's) first call. */
export function firstCalls<K, T>(calls: readonly T[], keyOf: (call: T) => K): Map<K, T> {
  const first = new Map<K, T>();
  for (const call of calls) if (!first.has(keyOf(call))) first.set(keyOf(call), call);
  return first;
}
