/**
 * Scoping sweep: every endpoint that names a member (a username, a sponsor, an id) has a
 * case here showing that a signed-in member cannot read or change another member's data outside
 * his downline, and that inside it only what the spec shows is readable. Adding such an endpoint
 * to the contract without a case fails the first test. Every other endpoint acts for the token's
 * member whatever the body names (the sweep at the end).
 *
 * Members of the demo seed: gonzalo_001 heads demo's left leg (claude_003 is in his downline);
 * reynold_004 sits in the right leg, outside it, and neither is above the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract, MSG, procedureNames, type ProcedureName } from '@md/shared';
import { OTP_MESSAGES } from '../src/core/otp.ts';
import {
  createTestApp,
  expectLedgerSound,
  memberIdOf,
  moneySnapshot,
  type Reply,
  type TestApp,
} from './helpers.ts';

let t: TestApp;
let own: string;
let outsiderToken: string;
const ME = 'gonzalo_001';
const BELOW = 'claude_003';
const OUTSIDER = 'reynold_004';
const NOT_IN_DOWNLINE = {
  status: 404,
  body: { Error: 'User not found in your downline', Code: 'NOT_FOUND' },
};

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  own = await t.login(ME);
  outsiderToken = await t.login(OUTSIDER);
  const parentOf = (username: string) =>
    (
      t.services.sqlite
        .prepare('select p.username from members m join members p on p.id = m.parent_id where m.username = ?')
        .get(username) as { username: string } | undefined
    )?.username;
  const ancestors = (username: string) => {
    const found: string[] = [];
    for (let u = parentOf(username); u; u = parentOf(u)) found.push(u);
    return found;
  };
  // The fixture's premise: the outsider is neither below nor above me, and BELOW is below me.
  expect(ancestors(OUTSIDER)).not.toContain(ME);
  expect(ancestors(ME)).not.toContain(OUTSIDER);
  expect(ancestors(BELOW)).toContain(ME);
});
afterAll(() => t.close());

const post = <T = Record<string, unknown>>(path: string, body: unknown, token?: string) =>
  t.post<T>(path, body, {
    token,
    ip: `10.55.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
const emailOf = (username: string) =>
  (
    t.services.sqlite.prepare('select email from members where username = ?').get(username) as {
      email: string;
    }
  ).email;
const memberRow = (username: string) =>
  JSON.stringify(t.services.sqlite.prepare('select * from members where username = ?').get(username));

/** Input fields that name a member. */
const NAMING_FIELD = /^(username|sponsor|user|member|user_?id|member_?id|id)$/i;
const namingFields = (name: ProcedureName) => {
  const schema = z.toJSONSchema(contract[name].input, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
  };
  return Object.keys(schema.properties ?? {}).filter((key) => NAMING_FIELD.test(key));
};

/** One case per endpoint that names a member: what the outsider (or someone else's name) gets. */
const CASES: Record<string, () => Promise<void>> = {
  'user.login': async () => {
    // A session of mine gives no way into another account: its password is still needed.
    expect(await post('/user/login', { username: OUTSIDER, password: 'Wrong@1234' }, own)).toMatchObject({
      status: 400,
      body: { Error: 'Invalid username or password' },
    });
  },
  'user.view_country': async () => {
    // Public by the spec (the sign-in form asks it before anyone is signed in): one boolean, nothing else.
    expect(await post('/user/view_country', { username: OUTSIDER }, own)).toEqual({
      status: 200,
      body: { Success: false },
    });
  },
  'user.check_username_available': async () => {
    // Public by the spec (registration's live availability): taken or free, nothing else.
    expect(await post('/user/check_username_available', { username: OUTSIDER }, own)).toEqual({
      status: 200,
      body: { Status: false, Success: 'Username already exists' },
    });
  },
  'user.verify_otp': async () => {
    // Change Password: the code goes to the token's member whatever username the body names.
    const before = (await t.mailbox(emailOf(OUTSIDER))).length;
    expect(
      (
        await post(
          '/user/verify_otp',
          { page: 'Change Password', username: OUTSIDER, email: emailOf(OUTSIDER) },
          own,
        )
      ).status,
    ).toBe(200);
    expect((await t.mailbox(emailOf(OUTSIDER))).length).toBe(before);
    expect((await t.mailbox(emailOf(ME)))[0]?.subject).toBe('Your password change code');
    // Email Verification (registration) cannot be opened for an existing account's name.
    expect(
      await post(
        '/user/verify_otp',
        { page: 'Email Verification', username: OUTSIDER, email: 'taker@mail.test' },
        own,
      ),
    ).toMatchObject({ status: 400, body: { Error: 'Username already exists' } });
  },
  'user.register': async () => {
    // An existing name cannot be registered over; the account stays as it was.
    const before = memberRow(OUTSIDER);
    const reply = await post('/user/register', {
      username: OUTSIDER,
      name: 'X',
      sponsor: ME,
      email: 'taker@mail.test',
      password: 'Taker@1234',
      conpassword: 'Taker@1234',
      otp: '123456',
      side: '0',
      country: 'India',
    });
    expect(reply).toMatchObject({ status: 400, body: { Error: 'Username already exists' } });
    expect(memberRow(OUTSIDER)).toBe(before);
  },
  'user.reset_password_email': async () => {
    // The code goes to the named member's registered address, never to the caller.
    const mine = (await t.mailbox(emailOf(ME))).length;
    expect((await post('/user/reset_password_email', { username: OUTSIDER }, own)).status).toBe(200);
    expect((await t.mailbox(emailOf(OUTSIDER)))[0]?.subject).toBe('Your password reset code');
    expect((await t.mailbox(emailOf(ME))).length).toBe(mine);
  },
  'user.reset_password': async () => {
    // Without the code mailed to that member nothing changes, session or not.
    const before = memberRow(OUTSIDER);
    t.clock.advance(11_000);
    const reply = await post(
      '/user/reset_password',
      { username: OUTSIDER, otp: '000000', newpassword: 'Taken@1234', conpassword: 'Taken@1234' },
      own,
    );
    expect(reply).toMatchObject({ status: 400, body: { Error: OTP_MESSAGES.invalid } });
    expect(memberRow(OUTSIDER)).toBe(before);
  },
  'level.downline_exist': async () => {
    expect(await post('/level/downline_exist', { username: OUTSIDER }, own)).toEqual({
      status: 200,
      body: { Success: false },
    });
    expect(await post('/level/downline_exist', { username: 'demo' }, own)).toEqual({
      status: 200,
      body: { Success: false },
    });
    expect(await post('/level/downline_exist', { username: BELOW }, own)).toEqual({
      status: 200,
      body: { Success: true },
    });
  },
  transfer_to_user: async () => {
    const before = moneySnapshot(t);
    expect(
      await post('/transfer_to_user', { username: OUTSIDER, amount: 1, password: 'Txn@123' }, own),
    ).toMatchObject({ status: 400, body: { Error: MSG.recipientNotFoundOrInvalid } });
    expect(
      await post('/transfer_to_user', { username: 'demo', amount: 1, password: 'Txn@123' }, own),
    ).toMatchObject({ status: 400, body: { Error: MSG.recipientNotFoundOrInvalid } });
    expect(moneySnapshot(t)).toBe(before);
  },
  'level.view_downline': async () => {
    expect(await post('/level/view_downline', { username: OUTSIDER }, own)).toEqual(NOT_IN_DOWNLINE);
    expect(await post('/level/view_downline', { username: 'demo' }, own)).toEqual(NOT_IN_DOWNLINE);
    // Inside: names and counts only.
    const inside = await post<{ Success: { Downline: Record<string, unknown>[] } }>(
      '/level/view_downline',
      { username: BELOW },
      own,
    );
    expect(inside.status).toBe(200);
    expect(Object.keys(inside.body.Success).sort()).toEqual(['CountUser', 'Downline', 'Username']);
    for (const row of inside.body.Success.Downline)
      expect(Object.keys(row).sort()).toEqual(['Count', 'Username']);
  },
  'level.view_downline_page': async () => {
    expect(await post('/level/view_downline_page', { username: OUTSIDER, page: 1 }, own)).toEqual(
      NOT_IN_DOWNLINE,
    );
    expect(await post('/level/view_downline_page', { username: 'demo', page: 1 }, own)).toEqual(
      NOT_IN_DOWNLINE,
    );
    const inside = await post<{ Success: { Downline: Record<string, unknown>[] } }>(
      '/level/view_downline_page',
      { username: BELOW, page: 1 },
      own,
    );
    expect(inside.status).toBe(200);
    expect(Object.keys(inside.body.Success).sort()).toEqual([
      'CountUser',
      'Downline',
      'Page',
      'Per_Page',
      'Username',
    ]);
    for (const row of inside.body.Success.Downline)
      expect(Object.keys(row).sort()).toEqual(['Count', 'Username']);
  },
  'binary.view_binary_downline': async () => {
    expect(await post('/binary/view_binary_downline', { username: OUTSIDER }, own)).toEqual(NOT_IN_DOWNLINE);
    expect(await post('/binary/view_binary_downline', { username: 'demo' }, own)).toEqual(NOT_IN_DOWNLINE);
    const inside = await post<{ Success: { Downline: Record<string, unknown>[] } }>(
      '/binary/view_binary_downline',
      { username: BELOW },
      own,
    );
    expect(inside.status).toBe(200);
    expect(inside.body.Success.Downline.length).toBeGreaterThan(0);
    for (const row of inside.body.Success.Downline)
      expect(Object.keys(row).sort()).toEqual(['Side', 'Sponsor', 'Status', 'Username']);
  },
  'binary.view_binary_downline_details': async () => {
    expect(await post('/binary/view_binary_downline_details', { username: OUTSIDER }, own)).toEqual(
      NOT_IN_DOWNLINE,
    );
    expect(await post('/binary/view_binary_downline_details', { username: 'demo' }, own)).toEqual(
      NOT_IN_DOWNLINE,
    );
    // Inside: the hover panel of spec §3, no email, address or anything private.
    const inside = await post<{ Success: Record<string, unknown> }>(
      '/binary/view_binary_downline_details',
      { username: BELOW },
      own,
    );
    expect(inside.status).toBe(200);
    expect(Object.keys(inside.body.Success).sort()).toEqual([
      'Current_Binary',
      'Direct_Bouns',
      'Earnings',
      'Side',
      'Sponsor',
      'Status',
      'Total_User_Subscription_Plan',
    ]);
    expect(JSON.stringify(inside.body)).not.toContain(emailOf(BELOW));
  },
  'binary.view_path': async () => {
    // Extension binary_paths: the path to a member of my binary subtree only; outside, above and unknown answer alike.
    expect(await post('/binary/view_path', { username: OUTSIDER }, own)).toEqual(NOT_IN_DOWNLINE);
    expect(await post('/binary/view_path', { username: 'demo' }, own)).toEqual(NOT_IN_DOWNLINE);
    expect(await post('/binary/view_path', { username: 'nobody_at_all' }, own)).toEqual(NOT_IN_DOWNLINE);
    const inside = await post<{ Success: { Username: string; Head: string[] } }>(
      '/binary/view_path',
      { username: BELOW },
      own,
    );
    expect(inside.status).toBe(200);
    expect(inside.body.Success.Username).toBe(BELOW);
    expect(inside.body.Success.Head[0]).toBe(ME);
    expect(JSON.stringify(inside.body)).not.toContain(emailOf(BELOW));
  },
};

describe('scoping: endpoints that name a member', () => {
  it('every such endpoint of the contract has a case here (a new one fails until it gets one)', () => {
    const naming = procedureNames.filter((name) => namingFields(name).length > 0).sort();
    expect(naming).toEqual(Object.keys(CASES).sort());
  });

  for (const [name, check] of Object.entries(CASES)) {
    it(`${name}: nothing of a member outside the downline is read or changed`, async () => {
      await check();
    });
  }

  it('the outsider sees none of my tree either (the rule holds both ways)', async () => {
    for (const path of [
      '/binary/view_binary_downline',
      '/binary/view_binary_downline_details',
      '/level/view_downline',
      '/level/view_downline_page',
      '/binary/view_path',
    ]) {
      const page = path === '/level/view_downline_page' ? { page: 1 } : {};
      expect(await post(path, { username: ME, ...page }, outsiderToken), path).toEqual(NOT_IN_DOWNLINE);
      expect(await post(path, { username: BELOW, ...page }, outsiderToken), path).toEqual(NOT_IN_DOWNLINE);
    }
    await expectLedgerSound(t);
  });
});

describe('scoping: every other endpoint acts for the token, whatever the body names', () => {
  const others = procedureNames.filter(
    (name) =>
      contract[name].auth === 'required' &&
      contract[name].kind === 'query' &&
      namingFields(name).length === 0,
  );

  const ownTransId = (query: string) =>
    (t.services.sqlite.prepare(query).get(memberIdOf(t, ME)) as { trans_id: string }).trans_id;

  it('reads refuse a body that names another member, and never carry the outsider', async () => {
    expect(others.length).toBeGreaterThan(20);
    const outsiderId = memberIdOf(t, OUTSIDER);
    const intruding = {
      username: OUTSIDER,
      Username: OUTSIDER,
      user: OUTSIDER,
      member: OUTSIDER,
      member_id: outsiderId,
      user_id: outsiderId,
      id: outsiderId,
      sub: String(outsiderId),
    };
    // The reads that need a field besides the token.
    const base: Partial<Record<ProcedureName, object>> = {
      'withdraw.withdraw_fees': { amount: 50 },
      'binary.view_leg_bottom': { side: '0' },
      'earning.view_daily_earnings': { days: 30 },
      'binary.view_daily_volume': { days: 30 },
      // The caller's own payout, withdrawal and statement (capabilities payout_details, withdrawal_timeline, statements).
      'earning.view_payout_details': {
        trans_id: ownTransId('select trans_id from level_incomes where member_id = ? order by id limit 1'),
      },
      'withdraw.view_withdrawal_timeline': {
        trans_id: ownTransId('select trans_id from withdrawals where member_id = ? order by id limit 1'),
      },
      'wallet.view_statement': {
        wallet: 'Deposit',
        month: new Date(t.services.clock.now()).toISOString().slice(0, 7),
      },
    };
    for (const name of others) {
      const path = contract[name].path;
      const plain: Reply = await post(path, base[name] ?? {}, own);
      expect(plain.status, path).toBe(200);
      // A body field the read does not take is refused by name, never read as a member.
      const named: Reply = await post(path, { ...base[name], ...intruding }, own);
      expect(named, path).toMatchObject({
        status: 400,
        body: {
          Error: `Received unknown fields ${Object.keys(intruding)
            .map((key) => `'${key}'`)
            .join(', ')}`,
        },
      });
      const text = JSON.stringify(plain.body);
      expect(text, path).not.toContain(OUTSIDER);
      expect(text, path).not.toContain(emailOf(OUTSIDER));
    }
  });
});
