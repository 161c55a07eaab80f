/**
 * Self-check of the contract: every endpoint, called with valid input on the realistic `demo`
 * scenario, answers a success that validates against its output schema, on REST (and queries on
 * tRPC too). A handler answer that breaks its schema is caught with a 500 naming the endpoint.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOTP } from 'otpauth';
import { contract, procedureNames, type ProcedureName } from '@md/shared';
import { handlers } from '../src/modules/index.ts';
import { DEMO_WALLET_ADDRESS } from '../src/seed/demo-money.ts';
import { createTestApp, expectLedgerSound, solveCaptcha, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo', config: { rateLimits: false } });
});
afterAll(() => t.close());

/** Tokens by member, signed in when first needed. */
const tokens = new Map<string, string>();
const tokenOf = async (username: string) => {
  if (!tokens.has(username)) tokens.set(username, await t.login(username));
  return tokens.get(username)!;
};
const totpCode = (secret: string) =>
  new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: t.clock.now() });
const PAGE = { pageNo: 1, pageSize: 10 };
const NEW_MEMBER = { username: 'selfcheck01', email: 'selfcheck01@example.com' };
const PUSH_DEVICE = {
  endpoint: 'https://push.example.invalid/send/c2VsZi1jaGVjaw',
  keys: {
    p256dh: 'BIFvzbRcRRalGFxl02LDuEgzr0sqzYjFk2XwV0lI0UxUuGOhu_4e21XhNvt_04YZQU4wVY_WYEnnwmxaw90Pyu4',
    auth: '1uzM-5BQJKdCiGehhe2eqQ',
  },
};

interface Step {
  name: ProcedureName;
  /** The member whose token goes with the call (none for sign-in style calls). */
  as?: string;
  input: () => unknown | Promise<unknown>;
}

// In order: later steps use what earlier ones did (OTPs mailed, TOTP keys handed out), and the
// steps that change a password come after the calls that need the old one.
let totpKey = '';
let countries: string[] = [];
const steps: Step[] = [
  { name: 'user.login', input: () => ({ username: 'demo', password: 'Demo@1234' }) },
  { name: 'user.view_country', input: () => ({ username: 'demo2fa' }) },
  { name: 'user.check_username_available', input: () => ({ username: NEW_MEMBER.username }) },
  {
    name: 'user.verify_otp',
    input: () => ({
      page: 'Email Verification',
      username: NEW_MEMBER.username,
      email: NEW_MEMBER.email,
      project: 'Pro',
    }),
  },
  {
    name: 'user.register',
    input: async () => {
      countries = (await t.post<{ Success: string[] }>('/user/view_country', {})).body.Success;
      const otp = await t.latestOtp(NEW_MEMBER.email);
      return {
        ...NEW_MEMBER,
        name: 'Self Check',
        sponsor: 'demo',
        password: 'Fresh@12345',
        conpassword: 'Fresh@12345',
        otp,
        side: '1',
        country: countries[0],
        project: 'Pro',
      };
    },
  },
  { name: 'user.reset_password_email', input: () => ({ username: 'jeff_006' }) },
  {
    name: 'user.reset_password',
    input: async () => {
      t.clock.advance(11_000); // the spec's 10-second reset throttle
      return {
        username: 'jeff_006',
        otp: await t.latestOtp('jeff_006'),
        newpassword: 'Fresh@12345',
        conpassword: 'Fresh@12345',
      };
    },
  },
  {
    name: 'user.forgot_username',
    input: async () => ({ email: 'demo@example.com', captcha: await solveCaptcha(t.get) }),
  },
  { name: 'user.view_profile', as: 'demo', input: () => ({}) },
  { name: 'user_analytics.view_user_analytics', as: 'demo', input: () => ({}) },
  { name: 'direct.view_direct_team_details', as: 'demo', input: () => ({}) },
  { name: 'notification.view_notification', as: 'demo', input: () => ({ page_no: 1, page_size: 20 }) },
  { name: 'notification.total_view_notification', as: 'demo', input: () => ({}) },
  { name: 'wallet.view_all_wallets_details', as: 'demo', input: () => ({}) },
  { name: 'table.view_subscription', as: 'demo', input: () => ({}) },
  { name: 'subscription.buy_subscription_packages', as: 'demo', input: () => ({ plan: 'Starter' }) },
  { name: 'level.downline_exist', as: 'demo', input: () => ({ username: 'gonzalo_001' }) },
  {
    name: 'transfer_to_user',
    as: 'demo',
    input: () => ({ username: 'gonzalo_001', amount: 1.5, password: 'Txn@123' }),
  },
  { name: 'wallet.view_from_wallets', as: 'demo', input: () => ({}) },
  { name: 'wallet.view_to_wallets', as: 'demo', input: () => ({}) },
  {
    name: 'wallet.transfer_wallet',
    as: 'demo',
    input: () => ({ from_wallet: 'ROI', to_wallet: 'Deposit', amount: 1.25 }),
  },
  { name: 'withdraw.withdraw_fees', as: 'demo', input: () => ({ amount: 50 }) },
  { name: 'withdraw.withdraw_request', as: 'demo', input: () => ({ amount: 25, password: 'Txn@123' }) },
  {
    name: 'deposit.make_payment',
    as: 'demo',
    input: () => ({ amount_usdt: 15, currency: 'USDT.BEP20', gateway: 'nowpayments' }),
  },
  {
    name: 'wallet.update_wallet_address',
    as: 'demo',
    input: () => ({ address: DEMO_WALLET_ADDRESS, network: 'BEP.20' }),
  },
  {
    name: 'wallet.wallet_address_verification',
    as: 'demo',
    input: async () => ({ address: DEMO_WALLET_ADDRESS, network: 'BEP.20', otp: await t.latestOtp('demo') }),
  },
  { name: 'user.reset_transaction_password', as: 'demo', input: () => ({ password: 'Txn@456' }) },
  {
    name: 'user.verify_transaction_password',
    as: 'demo',
    input: async () => ({ password: 'Txn@456', otp: await t.latestOtp('demo') }),
  },
  { name: 'level.view_downline', as: 'demo', input: () => ({ username: 'demo' }) },
  { name: 'binary.view_binary_downline', as: 'demo', input: () => ({ username: 'demo' }) },
  { name: 'binary.view_binary_downline_details', as: 'demo', input: () => ({ username: 'gonzalo_001' }) },
  { name: 'rank.view_all_ranks', as: 'demo', input: () => ({}) },
  { name: 'rank.current_rank', as: 'demo', input: () => ({}) },
  // Every paged table and its total, first page.
  ...procedureNames
    .filter((name) => contract[name].input === contract['table.view_deposit_transaction'].input)
    .map((name): Step => ({ name, as: 'demo', input: () => PAGE })),
  // Extensions of this stand-in (present when their capability is).
  {
    name: 'support.send_message' as ProcedureName,
    as: 'demo',
    input: () => ({
      name: 'Demo Member',
      email: 'demo@example.com',
      subject: 'Self check',
      message: 'Every endpoint answers its schema.',
    }),
  },
  { name: 'activity.view_recent' as ProcedureName, as: 'demo', input: () => ({ limit: 10 }) },
  {
    name: 'level.view_downline_page' as ProcedureName,
    as: 'demo',
    input: () => ({ username: 'demo', page: 1, per_page: 5 }),
  },
  { name: 'earning.view_daily_earnings' as ProcedureName, as: 'demo', input: () => ({ days: 30 }) },
  { name: 'binary.view_daily_volume' as ProcedureName, as: 'demo', input: () => ({ days: 90 }) },
  { name: 'rank.view_rank_progress' as ProcedureName, as: 'demo', input: () => ({}) },
  { name: 'binary.view_leg_bottom' as ProcedureName, as: 'demo', input: () => ({ side: '0' }) },
  { name: 'binary.view_path' as ProcedureName, as: 'demo', input: () => ({ username: 'gonzalo_001' }) },
  {
    name: 'earning.view_payout_details' as ProcedureName,
    as: 'demo',
    input: () => ({ trans_id: 'LIPK00000002L1' }),
  },
  {
    name: 'withdraw.view_withdrawal_timeline' as ProcedureName,
    as: 'demo',
    input: () => ({
      trans_id: (
        t.services.sqlite
          .prepare(
            "select w.trans_id from withdrawals w join members m on m.id = w.member_id where m.username = 'demo' and w.status = 'APPROVED'",
          )
          .get() as { trans_id: string }
      ).trans_id,
    }),
  },
  {
    name: 'wallet.view_statement' as ProcedureName,
    as: 'demo',
    input: () => ({ wallet: 'ROI', month: new Date(t.services.clock.now()).toISOString().slice(0, 7) }),
  },
  { name: 'team.view_team_summary' as ProcedureName, as: 'demo', input: () => ({}) },
  { name: 'binary.view_next_run' as ProcedureName, as: 'demo', input: () => ({}) },
  { name: 'rank.view_rank_history' as ProcedureName, as: 'demo', input: () => ({}) },
  { name: 'notification.view_preferences' as ProcedureName, as: 'demo', input: () => ({}) },
  {
    name: 'notification.update_preferences' as ProcedureName,
    as: 'demo',
    input: () => ({ event: 'team', in_app: true }),
  },
  { name: 'notification.view_push_key' as ProcedureName, as: 'demo', input: () => ({}) },
  // A device subscribed and turned off again at once: nothing is ever sent to it.
  { name: 'notification.subscribe_push' as ProcedureName, as: 'demo', input: () => PUSH_DEVICE },
  {
    name: 'notification.unsubscribe_push' as ProcedureName,
    as: 'demo',
    input: () => ({ endpoint: PUSH_DEVICE.endpoint }),
  },
  { name: 'user.view_sessions' as ProcedureName, as: 'demo', input: () => ({}) },
  {
    name: 'user.end_session' as ProcedureName,
    as: 'demo',
    input: async () => ({ session: await otherSessionOf('demo') }),
  },
  { name: 'user.end_other_sessions' as ProcedureName, as: 'demo', input: () => ({}) },
  // TOTP and email change on a member without a package (email change needs none active).
  { name: 'user.enable_totp', as: 'allene_029', input: () => ({}) },
  {
    name: 'user.change_totp_status',
    as: 'allene_029',
    input: () => ({ status: true, totp: totpCode(totpKey) }),
  },
  { name: 'user.change_email_request', as: 'allene_029', input: () => ({ email: 'allene.new@example.com' }) },
  {
    name: 'user.change_email',
    as: 'allene_029',
    input: async () => ({
      email: 'allene.new@example.com',
      otp: await t.latestOtp('allene.new@example.com'),
    }),
  },
  { name: 'user.logout' as ProcedureName, as: 'allene_029', input: () => ({}) },
  // Last: it revokes the member's earlier tokens.
  { name: 'user.verify_otp', as: 'claude_003', input: () => ({ page: 'Change Password' }) },
  {
    name: 'user.change_password',
    as: 'claude_003',
    input: async () => ({
      oldpassword: 'Demo@1234',
      newpassword: 'Fresh@12345',
      conpassword: 'Fresh@12345',
      otp: await t.latestOtp('claude_003'),
    }),
  },
];

/** The id of a second session of `username` (a fresh sign-in), for user.end_session. */
async function otherSessionOf(username: string): Promise<string> {
  const other = await t.login(username);
  const listed = await t.post<{ Success: { ID: string; Current: boolean }[] }>(
    '/user/view_sessions',
    {},
    { token: other },
  );
  return listed.body.Success.find((session) => session.Current)!.ID;
}

const called = new Set<string>();

describe('every contract endpoint answers its output schema on the demo scenario', () => {
  it('the server checks answers itself in tests', () => {
    expect(t.services.config.validateOutput).toBe(true);
  });

  for (const step of steps.filter((s) => (procedureNames as readonly string[]).includes(s.name))) {
    it(`${step.name}${step.as ? ` (as ${step.as})` : ''}`, async () => {
      const entry = contract[step.name];
      const input = await step.input();
      const reply = await t.post(
        entry.path,
        input,
        step.as ? { token: await tokenOf(step.as) } : { ip: `10.1.${called.size}.1` },
      );
      expect(reply.body, `${entry.path} answered ${reply.status}`).not.toHaveProperty('Error');
      expect(reply.status).toBe(200);
      const checked = entry.output.safeParse(reply.body);
      expect(checked.success, checked.error?.message).toBe(true);
      if (step.name === 'user.enable_totp')
        totpKey = (reply.body as { Success: { Key: string } }).Success.Key;
      // Reads also answer the same valid data over tRPC.
      if (entry.kind === 'query') {
        const rpc = await t.trpc(step.name, 'query', input, step.as ? await tokenOf(step.as) : undefined);
        expect(rpc.status, JSON.stringify(rpc.body).slice(0, 200)).toBe(200);
        expect(entry.output.safeParse((rpc.body as { result: { data: unknown } }).result.data).success).toBe(
          true,
        );
      }
      called.add(step.name);
      // The captcha's proof of work can take seconds on a busy machine.
    }, 30_000);
  }

  it('covered every endpoint of the contract, and the ledger is sound after all of it', async () => {
    expect(procedureNames.filter((name) => !called.has(name))).toEqual([]);
    await expectLedgerSound(t);
  });
});

describe('a handler answer that breaks the contract', () => {
  it('is a 500 naming the endpoint and the field, on REST and tRPC, and is logged as an error', async () => {
    const token = await tokenOf('gonzalo_001');
    const table = handlers as Record<string, unknown>;
    const saved = table['rank.current_rank'];
    table['rank.current_rank'] = () => ({ Success: { Rank: 7 } });
    // Fastify's request loggers are children of the app logger: catch what they report.
    const logged: unknown[] = [];
    const child = t.fastify.log.child({});
    const spy = vi
      .spyOn(Object.getPrototypeOf(child) as { error: (...args: unknown[]) => void }, 'error')
      .mockImplementation((...args: unknown[]) => {
        logged.push(args);
      });
    try {
      const rest = await t.post<{ Error: string }>('/rank/current_rank', {}, { token });
      expect(rest.status).toBe(500);
      expect(rest.body.Error).toBe(
        'Answer of /rank/current_rank breaks the contract: Success.Rank: Invalid input: expected string, received number',
      );
      const rpc = await t.trpc('rank.current_rank', 'query', {}, token);
      expect(rpc.status).toBe(500);
      expect((rpc.body as { error: { message: string } }).error.message).toBe(rest.body.Error);
      expect(JSON.stringify(logged)).toContain('Answer of /rank/current_rank breaks the contract');
      expect(logged.length).toBeGreaterThanOrEqual(2);
    } finally {
      table['rank.current_rank'] = saved;
      spy.mockRestore();
    }
    expect((await t.post('/rank/current_rank', {}, { token })).status).toBe(200);
  });
});
