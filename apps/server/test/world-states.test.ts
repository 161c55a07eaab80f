/**
 * Declared world states: every example in world-states/ builds into a fresh empty database through
 * the domain functions, passes the ledger check, and shows through the contract's handlers (as its
 * member reads them) what it declares; a wrong document answers every fault with its path and
 * changes nothing; a 20-member state builds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PLAN, DEFAULT_RANKS, parseWorldState, worldStateSchema, type WorldState } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { verifyPassword } from '../src/core/passwords.ts';
import { currentTotp } from '../src/core/totp.ts';
import { buildWorldState, WORLD_WITHDRAWAL_ADDRESS } from '../src/seed/declared-state.ts';
import { createTestApp, expectLedgerSound, moneySnapshot, type TestApp } from './helpers.ts';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'world-states');
const example = (file: string): WorldState => {
  const parsed = parseWorldState(JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error}`);
  return parsed.state;
};

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A fresh empty app with `state` built into it. */
async function built(state: WorldState) {
  t = await createTestApp({ seed: 'empty' });
  const summary = buildWorldState(t.services, state);
  await expectLedgerSound(t);
  expect(t.clock.now()).toBe(Date.parse(state.date));
  expect((await t.get<{ now: string }>('/__qa/clock')).body.now).toBe(new Date(state.date).toISOString());
  return { t, summary };
}

type Wallets = Record<string, { Available: number }>;
const wallets = async (app: TestApp, token: string) =>
  (await app.post<{ Success: Wallets }>('/wallet/view_all_wallets_details', {}, { token })).body.Success;
const profile = async (app: TestApp, token: string) =>
  (
    await app.post<{ Success: { Transaction_Password: boolean; TOTP_Enabled: boolean }[] }>(
      '/user/view_profile',
      {},
      { token },
    )
  ).body.Success[0]!;

describe('the example states', () => {
  it('are every JSON file of world-states/, each pointing editors at the JSON Schema', () => {
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(9);
    for (const file of files) {
      const doc = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { $schema?: string };
      expect(doc.$schema, file).toBe('../packages/shared/world-state.schema.json');
      expect(worldStateSchema.safeParse(doc).success, file).toBe(true);
    }
  });

  const steps = [
    { rank: 'Bronze', file: 'near-bronze.json', plan: 'Basic' },
    { rank: 'Silver', file: 'near-silver.json', plan: 'Silver' },
    { rank: 'Gold', file: 'near-gold.json', plan: 'Gold' },
    { rank: 'Platinum', file: 'near-platinum.json', plan: 'Platinum' },
    { rank: 'Diamond', file: 'near-diamond.json', plan: 'Diamond' },
  ];
  for (const { rank, file, plan } of steps)
    it(`${file}: a member one purchase on the right leg short of ${rank}, already at the rank below`, async () => {
      const { t } = await built(example(file));
      const index = DEFAULT_RANKS.findIndex((r) => r.name === rank);
      const target = DEFAULT_RANKS[index]!;
      const price = DEFAULT_PLAN.packages.find((p) => p.name === plan)!.price;
      const token = await t.login(`near_${rank.toLowerCase()}`);
      const progress = (
        await t.post<{
          Success: { Rank: string; Left_Volume: number; Right_Volume: number; Qualified_Leaders: number };
        }>('/rank/view_rank_progress', {}, { token })
      ).body.Success;
      expect(progress).toEqual({
        Rank: DEFAULT_RANKS[index - 1]!.name,
        Left_Volume: target.leftVolume,
        Right_Volume: target.rightVolume - price,
        Qualified_Leaders: target.qualifiedLeaders,
      });
    });

  it('package-at-99-percent.json: a Gold package that has earned 99 % of its 3x cap, still ACTIVE', async () => {
    const { t } = await built(example('package-at-99-percent.json'));
    const token = await t.login('nearly_capped');
    const packages = (
      await t.post<{
        Success: { Name: string; Status: string; Max_Earnings: number; Total_Earnings: number }[];
      }>('/subscription/subscription_transaction', { pageNo: 1, pageSize: 10 }, { token })
    ).body.Success;
    expect(packages).toHaveLength(1);
    expect(packages[0]).toMatchObject({
      Name: 'Gold',
      Status: 'ACTIVE',
      Max_Earnings: 3000,
      Total_Earnings: 2970,
    });
    expect((await wallets(t, token)).ROI!.Available).toBe(2970);
  });

  it('pending-withdrawal.json: one withdrawal PENDING, one APPROVED, one REJECTED and refunded, as the member reads them', async () => {
    const { t } = await built(example('pending-withdrawal.json'));
    const token = await t.login('withdrawer');
    const money = await wallets(t, token);
    // 300 declared - 100 approved - 50 pending (the rejected 40 came back); 40 declared + 25 paid (the 60 window is open).
    expect(money.Withdrawal!.Available).toBe(150);
    expect(money.Deposit!.Available).toBe(65);
    const history = (
      await t.post<{ Success: { TransID: string; Type: string; Amount: number }[] }>(
        '/earning/view_all_earning_history',
        { pageNo: 1, pageSize: 100 },
        { token },
      )
    ).body.Success;
    const requests = history.filter((row) => row.Type === 'Withdrawal Request');
    const statuses: Record<string, number> = {};
    for (const request of requests) {
      const timeline = (
        await t.post<{ Success: { Status: string; Amount: number; Address: string } }>(
          '/withdraw/view_withdrawal_timeline',
          { trans_id: request.TransID },
          { token },
        )
      ).body.Success;
      statuses[timeline.Status] = timeline.Amount;
      expect(timeline.Address).toBe(WORLD_WITHDRAWAL_ADDRESS);
    }
    expect(statuses).toEqual({ APPROVED: 100, REJECTED: 40, PENDING: 50 });
    expect(history.some((row) => row.Type === 'QA Credit' && row.Amount === 300)).toBe(true);
    expect((await profile(t, token)).Transaction_Password).toBe(true);
    const notices = (
      await t.post<{ Success: { Message: string; Type: string }[] }>(
        '/notification/view_notification',
        {},
        { token },
      )
    ).body.Success;
    expect(notices[0]).toMatchObject({ Type: 'System', Message: 'Your withdrawal is being reviewed.' });
    for (const [status, amount] of [
      ['PENDING', 60],
      ['EXPIRED', 30],
      ['PAID', 25],
    ] as const) {
      const listed = await t.get<{ amount: number }[]>(`/__qa/deposits?status=${status}`);
      expect(listed.body.map((d) => d.amount)).toEqual([amount]);
    }
  });

  it('two-factor.json: sign-in asks for the TOTP of the declared secret; a transaction password is set', async () => {
    const { t } = await built(example('two-factor.json'));
    const refused = await t.post<{ Error?: string }>('/user/login', {
      username: 'secured',
      password: 'Secure@2026',
    });
    expect(refused.body.Error).toBeTruthy();
    const { code } = currentTotp('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', t.clock);
    const token = await t.login('secured', 'Secure@2026', code);
    expect(await profile(t, token)).toMatchObject({ TOTP_Enabled: true, Transaction_Password: true });
    const { hash } = t.services.sqlite
      .prepare("select transaction_password_hash as hash from members where username = 'secured'")
      .get() as { hash: string };
    expect(await verifyPassword('Pay#2026', hash)).toBe(true);
  });

  it('deep-leg.json: a left leg 5,000 deep, each level counted in its uplines’ teams', async () => {
    const { t, summary } = await built(example('deep-leg.json'));
    expect(summary.members).toBe(5001);
    const token = await t.login('deep_root');
    const bottom = (
      await t.post<{ Success: { Username: string; Levels: number } }>(
        '/binary/view_leg_bottom',
        { side: '0' },
        { token },
      )
    ).body.Success;
    expect(bottom).toMatchObject({ Username: 'deep_root_l5000', Levels: 5000 });
    const team = (
      await t.post<{ Success: { Left: { Members: number }; Right: { Members: number } } }>(
        '/team/view_team_summary',
        {},
        { token },
      )
    ).body.Success;
    expect(team.Left.Members).toBe(5000);
    expect(team.Right.Members).toBe(0);
    // The batch placement leaves every team_size as placing them one by one would.
    const sizes = t.services.sqlite
      .prepare(
        "select m.username, s.team_size as size from members m join binary_stats s on s.member_id = m.id where m.username in ('deep_root', 'deep_root_l1', 'deep_root_l2500', 'deep_root_l5000')",
      )
      .all() as { username: string; size: number }[];
    expect(Object.fromEntries(sizes.map((r) => [r.username, r.size]))).toEqual({
      deep_root: 5000,
      deep_root_l1: 4999,
      deep_root_l2500: 2500,
      deep_root_l5000: 0,
    });
  });
});

describe('a wrong document', () => {
  it('answers one message naming the JSON path of each fault', () => {
    const parsed = parseWorldState({
      date: '2026-03-04T12:00:00Z',
      color: 'blue',
      members: [
        { username: 'ann', wallets: { Savings: 10, Withdrawal: 30 } },
        { username: 'ann', sponsor: 'ann', side: '0' },
        { username: 'cy', sponsor: 'bob', side: '2', packages: [{ plan: 'Titanium' }] },
        { username: 'dee', sponsor: 'ann', side: '1', withdrawals: [{ amount: 50 }] },
      ],
    });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.error).toContain("state.color: Unknown key 'color'");
    expect(parsed.error).toContain("state.members[0].wallets.Savings: Unknown wallet 'Savings'");
    expect(parsed.error).toContain("state.members[2].side: Must be '0' (left) or '1' (right)");
    // Cross-reference faults come once the values are right.
    const semantic = parseWorldState({
      date: '2026-03-04T12:00:00Z',
      members: [
        { username: 'ann', wallets: { Withdrawal: 30 } },
        { username: 'ann', sponsor: 'ann', side: '0' },
        { username: 'cy', sponsor: 'bob', side: '1', packages: [{ plan: 'Titanium' }] },
        { username: 'dee', sponsor: 'ann', side: '1', withdrawals: [{ amount: 50 }] },
        { username: 'eve', sponsor: 'zed', side: '0' },
        { username: 'zed' },
      ],
      legs: [{ under: 'nobody', side: '0', depth: 3 }],
    });
    expect(semantic.success).toBe(false);
    if (semantic.success) return;
    expect(semantic.faults.map((f) => `${f.path}: ${f.message}`)).toEqual([
      "state.members[1].username: Duplicate username 'ann'",
      'state.members[1].sponsor: A member cannot sponsor itself',
      "state.members[2].sponsor: Unknown member 'bob'",
      expect.stringMatching(/^state\.members\[2\]\.packages\[0\]\.plan: Unknown package "Titanium"/),
      expect.stringMatching(
        /^state\.members\[3\]\.withdrawals\[0\]\.amount: 50 is more than the Withdrawal wallet holds/,
      ),
      "state.members[4].sponsor: Member 'zed' is declared after this one",
      "state.legs[0].under: Unknown member 'nobody' (a declared member, or one generated by an earlier leg)",
    ]);
    expect(semantic.error).toBe(semantic.faults.map((f) => `${f.path}: ${f.message}`).join('; '));
  });

  it('refused by a domain function while building names its path and changes nothing, clock included', async () => {
    t = await createTestApp({ seed: 'empty' });
    const before = { money: moneySnapshot(t), members: t.count('members'), now: t.clock.now() };
    const state = example('pending-withdrawal.json');
    // The schema takes any text as an address; the withdrawal function refuses this one midway through the build.
    state.members[0]!.withdrawals![2] = { amount: 50, address: '0x0000000000000000000000000000000000000000' };
    expect(() => buildWorldState(t!.services, state)).toThrow(/^state\.members\[0\]\.withdrawals\[2\]: /);
    expect({ money: moneySnapshot(t), members: t.count('members'), now: t.clock.now() }).toEqual(before);
    expect(t.count('notifications')).toBe(0);
  });

  it('against the server’s plan: a package the plan does not sell is a fault with its path', async () => {
    t = await createTestApp({ seed: 'empty' });
    const state = example('package-at-99-percent.json');
    t.services.plan = {
      ...t.services.plan,
      packages: t.services.plan.packages.filter((p) => p.name !== 'Gold'),
    };
    expect(() => buildWorldState(t!.services, state)).toThrow(
      /^state\.members\[0\]\.packages\[0\]\.plan: Unknown package "Gold"/,
    );
    expect(t.count('members')).toBe(0);
  });
});

it('a 20-member state with packages, deposits and withdrawals on both legs builds and balances', async () => {
  const names = Array.from({ length: 20 }, (_, i) => `member_${String(i + 1).padStart(2, '0')}`);
  const state: WorldState = {
    date: '2026-04-10T12:00:00Z',
    start: '2026-04-01T09:00:00Z',
    members: names.map((username, i) => ({
      username,
      ...(i === 0
        ? {}
        : { sponsor: names[Math.floor((i - 1) / 2)]!, side: i % 2 === 1 ? ('0' as const) : ('1' as const) }),
      joinedAt: new Date(Date.parse('2026-04-01T09:00:00Z') + i * 3_600_000).toISOString(),
      packages: [{ plan: DEFAULT_PLAN.packages[i % 4]!.name }],
      wallets: { Withdrawal: 100 },
      withdrawals: i % 3 === 0 ? [{ amount: 25, status: 'APPROVED' as const }] : [],
      deposits: [{ amount: 10 + i }],
    })),
  };
  const parsed = parseWorldState(state);
  expect(parsed.success).toBe(true);
  const { t, summary } = await built(state);
  expect(summary.members).toBe(20);
  expect(summary.runs).toBeGreaterThan(0);
  expect(t.count('subscriptions')).toBe(20);
  const token = await t.login('member_01');
  const team = (
    await t.post<{ Success: { Left: { Members: number }; Right: { Members: number } } }>(
      '/team/view_team_summary',
      {},
      { token },
    )
  ).body.Success;
  expect(team.Left.Members + team.Right.Members).toBe(19);
  // The engine paid member_01 level income on its team's purchases and ROI on its own package.
  const money = await wallets(t, token);
  expect(money.Level!.Available).toBeGreaterThan(0);
  expect(money.ROI!.Available).toBeGreaterThan(0);
  expect(money.Withdrawal!.Available).toBe(75);
});

it('legs: a subtree from `count`, and a leg under a member an earlier leg generated', async () => {
  const { t } = await built({
    date: '2026-03-04T12:00:00Z',
    start: '2026-03-04T09:00:00Z',
    members: [{ username: 'root' }],
    legs: [
      { under: 'root', side: '0', depth: 3, count: 7 },
      { under: 'root_l3', side: '1', depth: 2, prefix: 'deeper', at: '2026-03-04T10:00:00Z' },
    ],
  });
  const rows = t.services.sqlite
    .prepare(
      `select m.username, s.username as sponsor, p.username as parent, m.side, bs.team_size as team
         from members m left join members s on s.id = m.sponsor_id left join members p on p.id = m.parent_id
         join binary_stats bs on bs.member_id = m.id order by m.id`,
    )
    .all();
  expect(rows).toEqual([
    { username: 'root', sponsor: null, parent: null, side: null, team: 9 },
    { username: 'root_l1', sponsor: 'root', parent: 'root', side: '0', team: 8 },
    { username: 'root_l2', sponsor: 'root_l1', parent: 'root_l1', side: '0', team: 5 },
    { username: 'root_l3', sponsor: 'root_l2', parent: 'root_l2', side: '0', team: 3 },
    // Past the chain: directs of the chain members on the other side, top first, then round again.
    { username: 'root_l4', sponsor: 'root_l1', parent: 'root_l1', side: '1', team: 1 },
    { username: 'root_l5', sponsor: 'root_l2', parent: 'root_l2', side: '1', team: 0 },
    { username: 'root_l6', sponsor: 'root_l3', parent: 'root_l3', side: '1', team: 2 },
    { username: 'root_l7', sponsor: 'root_l1', parent: 'root_l4', side: '1', team: 0 },
    { username: 'deeper1', sponsor: 'root_l3', parent: 'root_l6', side: '1', team: 1 },
    { username: 'deeper2', sponsor: 'deeper1', parent: 'deeper1', side: '1', team: 0 },
  ]);
});

it('on a server whose clock is stored in its database, the clock ends at the date, and a refused build leaves it', async () => {
  const app = await buildApp({ databasePath: ':memory:', seed: 'empty' });
  try {
    const { clock } = app.services;
    const before = clock.now();
    const refused = example('pending-withdrawal.json');
    refused.members[0]!.withdrawals![0] = { amount: 50, address: 'not-an-address' };
    expect(() => buildWorldState(app.services, refused)).toThrow(/^state\.members\[0\]\.withdrawals\[0\]: /);
    // Real time runs on under an offset clock: "unchanged" is within the test's own duration.
    expect(Math.abs(clock.now() - before)).toBeLessThan(60_000);
    const state = example('pending-withdrawal.json');
    buildWorldState(app.services, state);
    expect(Math.abs(clock.now() - Date.parse(state.date))).toBeLessThan(60_000);
    clock.reload();
    expect(Math.abs(clock.now() - Date.parse(state.date))).toBeLessThan(60_000);
  } finally {
    await app.fastify.close();
  }
});
