/**
 * The compensation engine with hand-computed figures (DESIGN §6): ROI over a week with a
 * weekend, binary matching with carry, level income with an inactive upline, the 3x cap crossed
 * mid-payout, ranks with and without leaders, the 11:00 London run across DST, exactly-once runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { amountToMicros } from '@md/shared';
import { manualClock } from '../src/core/clock.ts';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import { insertMember } from '../src/modules/auth/members.ts';
import { openDeposit, payDeposit } from '../src/modules/deposits/deposits.ts';
import { walletBalance } from '../src/modules/ledger/ledger.ts';
import { buyPackage } from '../src/modules/packages/packages.ts';
import { CAP_REACHED_REASON } from '../src/modules/engine/income.ts';
import { engineHooks, resumeUnfinishedRuns, runDueJobs } from '../src/modules/engine/jobs.ts';
import { dueRuns } from '../src/modules/engine/schedule.ts';
import { binaryStatsOf } from '../src/modules/engine/stats.ts';
import { memberNotices } from '../src/modules/notifications/notices.ts';
import type { MemberWallet } from '@md/db';
import { createTestApp, expectLedgerSound, type TestApp } from './helpers.ts';

const apps: TestApp[] = [];
afterEach(async () => {
  engineHooks.chunkSize = 2_000;
  delete engineHooks.afterChunk;
  for (const app of apps.splice(0)) {
    await expectLedgerSound(app);
    await app.close();
  }
});

/** An empty database on a manual clock; `at` is the start (UTC ISO). */
async function world(at: string) {
  const t = await createTestApp({ seed: 'empty', clock: manualClock(Date.parse(at)) });
  apps.push(t);
  let n = 0;
  const member = (sponsorId: number | null, side: '0' | '1' = '0') =>
    insertMember(t.services, {
      username: `m${++n}`,
      name: `Member ${n}`,
      email: `m${n}@example.com`,
      country: 'United Kingdom',
      passwordHash: DEMO_PASSWORD_HASH,
      sponsorId,
      side,
      createdAt: t.clock.now(),
    }).id;
  /** Deposits the price and buys the package now. */
  const buy = (memberId: number, plan: string) => {
    const price = t.services.plan.packages.find((p) => p.name === plan)!.price;
    payDeposit(t.services, openDeposit(t.services, memberId, amountToMicros(price), 'USDT.BEP20').id);
    return buyPackage(t.services, memberId, plan);
  };
  const wallet = (memberId: number, name: MemberWallet) =>
    walletBalance(t.services, memberId, name) / 1_000_000;
  /** Moves the clock to `iso` and runs what fell due, as POST /__qa/clock does. */
  const until = (iso: string) => {
    const from = t.clock.now();
    const to = Date.parse(iso);
    t.clock.set(to);
    return runDueJobs(t.services, from, to);
  };
  const rows = <T>(sql: string, ...params: unknown[]) => t.services.sqlite.prepare(sql).all(...params) as T[];
  return { t, member, buy, wallet, until, rows };
}

describe('ROI', () => {
  it('pays each business day of a week, not on the weekend', async () => {
    // Monday 2 March 2026, 09:00 UTC (= London, before BST).
    const w = await world('2026-03-02T09:00:00Z');
    const a = w.member(null);
    w.buy(a, 'Gold'); // 1,000 at 1.5 % a day = 15
    const ran = w.until('2026-03-09T09:00:00Z');
    expect(ran.filter((r) => r.job === 'roi').map((r) => r.date)).toEqual([
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-09',
    ]);
    expect(w.wallet(a, 'ROI')).toBe(75);
    const [subscription] = w.rows<{ total_earnings: number; status: string }>(
      'select total_earnings, status from subscriptions where member_id = ?',
      a,
    );
    expect(subscription).toEqual({ total_earnings: 75_000_000, status: 'ACTIVE' });
    // A notice per payout, read from its credit: what the day paid and for which business day.
    expect(memberNotices(w.t.services, a, 20).filter((n) => n.type === 'ROI_Income')).toEqual(
      ['2026-03-09', '2026-03-06', '2026-03-05', '2026-03-04', '2026-03-03'].map((date) => ({
        type: 'ROI_Income',
        message: `You earned $15.00 daily ROI for ${date}.`,
        transId: `ROI${date.replaceAll('-', '')}M${a}`,
        createdAt: expect.any(Number),
      })),
    );
  });
});

describe('binary matching', () => {
  it('matches the weaker leg, pays 10 % and carries the rest over three days', async () => {
    const w = await world('2026-03-02T09:00:00Z');
    const root = w.member(null);
    const left = w.member(root, '0');
    const right = w.member(root, '1');
    w.buy(root, 'Diamond'); // cap 15,000: no cap in the way
    // Day 1: left 1,000 vs right 500 → matched 500, paid 50, carry left 500.
    w.buy(left, 'Gold');
    w.buy(right, 'Silver');
    w.until('2026-03-02T12:00:00Z');
    expect(w.wallet(root, 'Binary')).toBe(50);
    expect(binaryStatsOf(w.t.services, root)).toMatchObject({
      leftCarry: 500e6,
      rightCarry: 0,
      leftTotal: 1000e6,
      rightTotal: 500e6,
      leftPending: 0,
      rightPending: 0,
    });
    // Day 2: left 500 (carry) vs right 250 → matched 250, paid 25, carry left 250.
    w.until('2026-03-03T09:00:00Z');
    w.buy(right, 'Basic');
    w.until('2026-03-03T12:00:00Z');
    expect(w.wallet(root, 'Binary')).toBe(75);
    expect(binaryStatsOf(w.t.services, root)).toMatchObject({ leftCarry: 250e6, rightCarry: 0 });
    // Day 3: left 250 (carry) vs right 1,000 → matched 250, paid 25, carry right 750.
    w.until('2026-03-04T09:00:00Z');
    w.buy(right, 'Gold');
    w.until('2026-03-04T12:00:00Z');
    expect(w.wallet(root, 'Binary')).toBe(100);
    expect(binaryStatsOf(w.t.services, root)).toMatchObject({
      leftCarry: 0,
      rightCarry: 750e6,
      leftTotal: 1000e6,
      rightTotal: 1750e6,
    });
    // A row per leg that received volume that day (spec §2 Volume: Side is the leg, Volume what it
    // received, each leg's Volume what the row added to it), Carry and Total as the day's run left the legs.
    const entries = w.rows<{
      side: string;
      volume: number;
      left_volume: number;
      right_volume: number;
      left_carry: number;
      right_carry: number;
      status: string;
    }>(
      "select side, volume, left_volume, right_volume, left_carry, right_carry, status from volume_entries where member_id = ? and kind = 'binary' order by id",
      root,
    );
    expect(entries).toEqual([
      {
        side: '0',
        volume: 1000e6,
        left_volume: 1000e6,
        right_volume: 0,
        left_carry: 500e6,
        right_carry: 0,
        status: 'Matched',
      },
      {
        side: '1',
        volume: 500e6,
        left_volume: 0,
        right_volume: 500e6,
        left_carry: 500e6,
        right_carry: 0,
        status: 'Matched',
      },
      {
        side: '1',
        volume: 250e6,
        left_volume: 0,
        right_volume: 250e6,
        left_carry: 250e6,
        right_carry: 0,
        status: 'Matched',
      },
      {
        side: '1',
        volume: 1000e6,
        left_volume: 0,
        right_volume: 1000e6,
        left_carry: 0,
        right_carry: 750e6,
        status: 'Matched',
      },
    ]);
    // The legs' own members have nothing below them: no matching rows for them.
    expect(
      w.rows("select 1 from volume_entries where kind = 'binary' and member_id in (?, ?)", left, right),
    ).toHaveLength(0);
  });

  it('folds volume from deep in the tree onto every ancestor leg, and pays only members with an active package', async () => {
    const w = await world('2026-03-02T09:00:00Z');
    const root = w.member(null);
    const l1 = w.member(root, '0');
    const l2 = w.member(l1, '0'); // under l1's left
    const l3 = w.member(l2, '1'); // under l2's right
    const r1 = w.member(root, '1');
    w.buy(l3, 'Gold'); // 1,000 on l2's right, l1's left, root's left
    w.buy(r1, 'Gold'); // 1,000 on root's right
    w.buy(l1, 'Starter');
    w.until('2026-03-02T12:00:00Z');
    expect(binaryStatsOf(w.t.services, l2)).toMatchObject({
      rightTotal: 1000e6,
      leftTotal: 0,
      rightCarry: 1000e6,
    });
    expect(binaryStatsOf(w.t.services, l1)).toMatchObject({ leftTotal: 1000e6, rightTotal: 0 });
    // root: 1,100 left (l3's 1,000 + l1's 100) vs 1,000 right → matched 1,000, but no package → 0 paid, still carried.
    expect(binaryStatsOf(w.t.services, root)).toMatchObject({
      leftTotal: 1100e6,
      rightTotal: 1000e6,
      leftCarry: 100e6,
      rightCarry: 0,
    });
    expect(w.wallet(root, 'Binary')).toBe(0);
    expect(binaryStatsOf(w.t.services, l3)).toMatchObject({ depth: 3, teamSize: 0 });
    expect(binaryStatsOf(w.t.services, root)).toMatchObject({ depth: 0, teamSize: 4 });
  });
});

describe('level income', () => {
  it('pays 10 % to level 1 and 1 % to levels 2–5; an upline without a package receives 0', async () => {
    const w = await world('2026-03-02T09:00:00Z');
    const chain = [w.member(null)];
    for (let i = 0; i < 6; i++) chain.push(w.member(chain.at(-1)!));
    const [top, b, c, d, e, f, g] = chain as [number, number, number, number, number, number, number];
    for (const id of [top, b, c, e, f]) w.buy(id, 'Gold'); // d has no package
    const before = Object.fromEntries(
      chain.map((id) => [id, { direct: w.wallet(id, 'Direct'), level: w.wallet(id, 'Level') }]),
    );
    const purchase = w.buy(g, 'Diamond'); // 5,000
    const incomes = w.rows<{
      member_id: number;
      level: number;
      percentage: number;
      expected_amount: number;
      received_amount: number;
    }>(
      'select member_id, level, percentage, expected_amount, received_amount from level_incomes where subscription_trans_id = ? order by level',
      purchase.transId,
    );
    expect(incomes).toEqual([
      { member_id: f, level: 1, percentage: 1000, expected_amount: 500e6, received_amount: 500e6 },
      { member_id: e, level: 2, percentage: 100, expected_amount: 50e6, received_amount: 50e6 },
      { member_id: d, level: 3, percentage: 100, expected_amount: 50e6, received_amount: 0 },
      { member_id: c, level: 4, percentage: 100, expected_amount: 50e6, received_amount: 50e6 },
      { member_id: b, level: 5, percentage: 100, expected_amount: 50e6, received_amount: 50e6 },
    ]);
    expect(w.wallet(f, 'Direct') - before[f]!.direct).toBe(500);
    expect(w.wallet(e, 'Level') - before[e]!.level).toBe(50);
    expect(w.wallet(d, 'Level')).toBe(0);
    expect(w.wallet(top, 'Level') - before[top]!.level).toBe(0); // level 6 earns nothing
  });
});

describe('the 3x cap', () => {
  it('pays up to the cap oldest subscription first, expires it with its Reason, and shows expected vs received', async () => {
    const w = await world('2026-03-02T09:00:00Z');
    const s = w.member(null);
    const starter = w.buy(s, 'Starter'); // cap 300
    const basic = w.buy(s, 'Basic'); // cap 750
    const x = w.member(s, '0');
    const y = w.member(s, '1');
    const z = w.member(s, '0');
    w.buy(x, 'Diamond'); // 500 expected: Starter takes 300 (expired), Basic 200
    const status = (id: number) =>
      w.rows<{ status: string; reason: string | null; total_earnings: number; end_date: number | null }>(
        'select status, reason, total_earnings, end_date from subscriptions where id = ?',
        id,
      )[0];
    expect(status(starter.id)).toEqual({
      status: 'EXPIRED',
      reason: CAP_REACHED_REASON,
      total_earnings: 300e6,
      end_date: w.t.clock.now(),
    });
    expect(status(basic.id)).toMatchObject({ status: 'ACTIVE', total_earnings: 200e6 });
    w.buy(y, 'Diamond'); // 500 more: Basic at 700
    const last = w.buy(z, 'Gold'); // 100 expected, 50 left → 50 received, Basic expired
    expect(status(basic.id)).toEqual({
      status: 'EXPIRED',
      reason: 'Max earnings reached (3x)',
      total_earnings: 750e6,
      end_date: w.t.clock.now(),
    });
    expect(
      w.rows(
        'select expected_amount, received_amount from level_incomes where subscription_trans_id = ?',
        last.transId,
      ),
    ).toEqual([{ expected_amount: 100e6, received_amount: 50e6 }]);
    expect(w.wallet(s, 'Direct')).toBe(1050);
    // Nothing left to earn: the next day's ROI pays s nothing.
    w.until('2026-03-03T09:00:00Z');
    expect(w.wallet(s, 'ROI')).toBe(0);
  });
});

describe('ranks', () => {
  it('reaches Bronze on volume alone, Silver only once a qualified leader exists; rewards are not capped', async () => {
    const w = await world('2026-03-02T09:00:00Z');
    const root = w.member(null); // no package: rank rewards do not need one
    const left = w.member(root, '0');
    const right = w.member(root, '1');
    w.buy(left, 'Diamond');
    w.buy(right, 'Diamond');
    w.until('2026-03-02T12:00:00Z');
    // 5,000 / 5,000 meets Silver's volume, but Silver needs 1 qualified leader: Bronze (50).
    expect(binaryStatsOf(w.t.services, root)).toMatchObject({
      rank: 'Bronze',
      rankLeft: 5000e6,
      rankRight: 5000e6,
    });
    expect(w.wallet(root, 'Rank')).toBe(50);
    // left gets its own 1:1 directs: it is now a qualified leader of root.
    w.member(left, '0');
    w.member(left, '1');
    w.until('2026-03-03T12:00:00Z');
    expect(binaryStatsOf(w.t.services, root)).toMatchObject({ rank: 'Silver' });
    expect(w.wallet(root, 'Rank')).toBe(250);
    expect(w.rows('select rank, reward from rank_rewards where member_id = ? order by id', root)).toEqual([
      { rank: 'Bronze', reward: 50e6 },
      { rank: 'Silver', reward: 200e6 },
    ]);
    expect(
      w.rows("select 1 from notifications where member_id = ? and type = 'Rank_Achieved'", root),
    ).toHaveLength(2);
    // Later runs never pay a rank twice.
    w.until('2026-03-06T12:00:00Z');
    expect(w.wallet(root, 'Rank')).toBe(250);

    const token = await w.t.login('m1');
    expect((await w.t.post('/rank/current_rank', {}, { token })).body).toEqual({
      Success: { Rank: 'Silver' },
    });
    const all = (await w.t.post<{ Success: unknown[] }>('/rank/view_all_ranks', {}, { token })).body.Success;
    expect(all[0]).toEqual({
      Rank: 'Starter',
      Reward: 0,
      Left_Volune: 0,
      Right_Volume: 0,
      Rank_Qualification_Requirement: { Qualified_Leaders: { Side_1: 0 } },
    });
    expect(all[2]).toEqual({
      Rank: 'Silver',
      Reward: 200,
      Left_Volune: 5000,
      Right_Volume: 5000,
      Rank_Qualification_Requirement: { Qualified_Leaders: { Side_1: 1 } },
    });
    const analytics = (
      await w.t.post<{ Success: Record<string, unknown> }>(
        '/user_analytics/view_user_analytics',
        {},
        { token },
      )
    ).body.Success;
    // Binary_Left/Right: lifetime binary volume per leg as of the last binary run.
    expect(analytics).toMatchObject({ Current_Rank: 'Silver', Binary_Left: 5000, Binary_Right: 5000 });
  });
});

describe('schedule', () => {
  it('runs binary at 11:00 London on both daylight-saving days (10:00 and 11:00 UTC)', async () => {
    const spring = dueRuns(Date.parse('2026-03-29T00:00:00Z'), Date.parse('2026-03-29T23:59:00Z'));
    expect(spring.find((r) => r.job === 'binary')).toEqual({
      job: 'binary',
      date: '2026-03-29',
      at: Date.parse('2026-03-29T10:00:00Z'),
    });
    const autumn = dueRuns(Date.parse('2026-10-25T00:00:00Z'), Date.parse('2026-10-25T23:59:00Z'));
    expect(autumn.find((r) => r.job === 'binary')).toEqual({
      job: 'binary',
      date: '2026-10-25',
      at: Date.parse('2026-10-25T11:00:00Z'),
    });
    // Sundays: no ROI. Monday 30 March's 00:05 BST is Sunday 23:05 UTC.
    expect(spring.filter((r) => r.job === 'roi')).toEqual([
      { job: 'roi', date: '2026-03-30', at: Date.parse('2026-03-29T23:05:00Z') },
    ]);

    const w = await world('2026-03-29T09:00:00Z');
    expect(w.until('2026-03-29T09:59:59Z')).toEqual([]);
    expect(w.until('2026-03-29T10:00:00Z').map((r) => r.job)).toEqual(['binary', 'ranks']);
    // A new world: on this one, every day since 29 March would be owed (nothing is ever skipped).
    const october = await world('2026-10-25T10:30:00Z');
    expect(october.until('2026-10-25T10:59:59Z')).toEqual([]);
    expect(october.until('2026-10-25T11:00:00Z').map((r) => [r.job, r.date])).toEqual([
      ['binary', '2026-10-25'],
      ['ranks', '2026-10-25'],
    ]);
  });
});

describe('exactly once', () => {
  it('advancing over the same day twice pays once', async () => {
    const w = await world('2026-03-02T09:00:00Z');
    const a = w.member(null);
    w.buy(a, 'Gold');
    expect(w.until('2026-03-04T09:00:00Z').length).toBeGreaterThan(0);
    const transfers = w.t.count('transfers');
    w.t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
    expect(w.until('2026-03-04T09:00:00Z')).toEqual([]);
    expect(w.t.count('transfers')).toBe(transfers);
    expect(w.wallet(a, 'ROI')).toBe(30);
  });

  it('a run interrupted after its first chunk resumes from the cursor and pays each member once', async () => {
    const w = await world('2026-03-02T09:00:00Z');
    const root = w.member(null);
    const ids = [root];
    for (let i = 0; i < 6; i++) ids.push(w.member(root, i % 2 ? '1' : '0'));
    for (const id of ids) w.buy(id, 'Starter');
    engineHooks.chunkSize = 2;
    let crashes = 0;
    engineHooks.afterChunk = (job) => {
      if (job === 'roi' && crashes++ === 0) throw new Error('simulated crash');
    };
    expect(() => w.until('2026-03-03T09:00:00Z')).toThrow('simulated crash');
    const [run] = w.rows<{ status: string; cursor: number }>(
      "select status, cursor from job_runs where job = 'roi'",
    );
    expect(run).toEqual({ status: 'running', cursor: ids[1] });
    expect(w.rows("select 1 from transfers where reason = 'roi'")).toHaveLength(2);
    // The next start finishes it.
    expect(resumeUnfinishedRuns(w.t.services)).toEqual([
      { job: 'roi', date: '2026-03-03', summary: 'ROI: 7 members, 7 payouts, 7 USDT' },
    ]);
    expect(
      w.rows(
        "select member_id, count(*) as n from transfers where reason = 'roi' group by member_id having n <> 1",
      ),
    ).toEqual([]);
    expect(w.rows("select 1 from transfers where reason = 'roi'")).toHaveLength(7);
    for (const id of ids) expect(w.wallet(id, 'ROI')).toBe(1);
    // Running the interval again pays nothing more.
    w.t.clock.set(Date.parse('2026-03-02T09:00:00Z'));
    expect(w.until('2026-03-03T09:00:00Z')).toEqual([]);
    expect(w.rows("select 1 from transfers where reason = 'roi'")).toHaveLength(7);
  });
});

describe('the demo scenario', () => {
  /** What a seed produced, to compare two seeds and to check the money. */
  const fingerprint = (t: TestApp) =>
    t.services.sqlite
      .prepare(
        'select reason, count(*) as n, sum(amount) as total from transfers group by reason order by reason',
      )
      .all() as { reason: string; n: number; total: number }[];

  it('is played through the real engine over at least 60 simulated days, with the ledger sound after it', async () => {
    const t = await createTestApp({ seed: 'demo' });
    apps.push(t);
    const db = t.services.sqlite;
    const one = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T;
    const n = (sql: string, ...params: unknown[]) => one<{ n: number | null }>(sql, ...params).n ?? 0;
    await expectLedgerSound(t);

    // At least 60 days of history, and every daily run due in it paid once and finished.
    const now = t.clock.now();
    const start = n('select min(created_at) as n from members');
    expect(now - start).toBeGreaterThanOrEqual(60 * 86_400_000);
    const due = dueRuns(start, now);
    expect(n("select count(*) as n from job_runs where status = 'done'")).toBe(due.length);
    expect(n('select count(*) as n from job_runs')).toBe(due.length);

    // Every kind of income exists, and all of it came from the engine's runs or purchases.
    for (const reason of ['roi', 'binary_income', 'direct_income', 'level_income', 'rank_reward'])
      expect(n('select count(*) as n from transfers where reason = ?', reason), reason).toBeGreaterThan(0);
    expect(n("select count(*) as n from transfers where reason in ('direct_income', 'level_income')")).toBe(
      n('select count(*) as n from level_incomes where received_amount > 0'),
    );
    expect(n("select count(*) as n from transfers where reason = 'rank_reward'")).toBe(
      n('select count(*) as n from rank_rewards where reward > 0'),
    );
    // ROI once per member and business day at most.
    expect(n("select count(*) - count(distinct trans_id) as n from transfers where reason = 'roi'")).toBe(0);
    expect(
      n(
        "select max(c) as n from (select count(*) as c from transfers where reason = 'roi' group by to_account_id)",
      ),
    ).toBeLessThanOrEqual(due.filter((r) => r.job === 'roi').length);

    // demo's ROI by hand: 1.75 % of Platinum (2,500) = 43.75 on each business day's 00:05 run after
    // the purchase, plus 1.4 % of Silver (500) = 7 after that one; its cap is never reached.
    const subscriptions = db
      .prepare(
        'select amount, roi_basis_points as bps, created_at as at, status from subscriptions where member_id = 1',
      )
      .all() as {
      amount: number;
      bps: number;
      at: number;
      status: string;
    }[];
    expect(subscriptions.map((s) => [s.amount / 1e6, s.status])).toEqual([
      [2500, 'ACTIVE'],
      [500, 'ACTIVE'],
    ]);
    const expectedRoi = due
      .filter((r) => r.job === 'roi')
      .reduce(
        (sum, r) =>
          sum +
          subscriptions.reduce(
            (perDay, s) => (s.at <= r.at ? perDay + (s.amount * s.bps) / 10_000 : perDay),
            0,
          ),
        0,
      );
    expect(
      n(
        "select sum(t.amount) as n from transfers t join accounts a on a.id = t.to_account_id where t.reason = 'roi' and a.member_id = 1",
      ),
    ).toBe(expectedRoi);

    // The cap's bookkeeping: what each member's subscriptions earned is what the capped incomes paid it.
    const mismatched = db
      .prepare(
        `select m.id from members m
          where coalesce((select sum(total_earnings) from subscriptions s where s.member_id = m.id), 0)
             <> coalesce((select sum(t.amount) from transfers t join accounts a on a.id = t.to_account_id
                           where a.member_id = m.id and t.reason in ('roi', 'binary_income', 'direct_income', 'level_income')), 0)`,
      )
      .all();
    expect(mismatched).toEqual([]);
    // Somebody crossed the 3x cap on the way, and the package says why.
    expect(n("select count(*) as n from subscriptions where status = 'EXPIRED'")).toBeGreaterThan(0);
    expect(
      n(
        "select count(*) as n from subscriptions where status = 'EXPIRED' and (total_earnings <> max_earnings or reason <> ?)",
        CAP_REACHED_REASON,
      ),
    ).toBe(0);
    // Withdrawals decided both ways, and the latest still waiting for QA; the pending account holds exactly those.
    const statuses = db
      .prepare('select status, count(*) as n, sum(amount) as total from withdrawals group by status')
      .all() as { status: string; n: number; total: number }[];
    expect(statuses.map((s) => s.status).sort()).toEqual(['APPROVED', 'PENDING', 'REJECTED']);
    expect(
      n("select balance as n from accounts where member_id is null and wallet = 'pending_withdrawals'"),
    ).toBe(statuses.find((s) => s.status === 'PENDING')!.total);
    expect(n("select count(*) as n from binary_stats where rank <> 'Starter'")).toBeGreaterThan(0);

    // The members the README names show what it says.
    const member = (username: string) =>
      one<{ packages: string; rank: string; pending: number; txn: string | null }>(
        `select (select group_concat(status) from subscriptions s where s.member_id = m.id) as packages, b.rank,
                (select count(*) from withdrawals w where w.member_id = m.id and w.status = 'PENDING') as pending, m.transaction_password_hash as txn
           from members m join binary_stats b on b.member_id = m.id where m.username = ?`,
        username,
      );
    expect(member('demo')).toMatchObject({ packages: 'ACTIVE,ACTIVE', rank: 'Gold', pending: 1 });
    expect(member('demo2fa')).toMatchObject({ packages: null, txn: null });
    expect(member('gonzalo_001').packages).toContain('ACTIVE');
    expect(member('claude_003')).toMatchObject({ packages: 'EXPIRED,ACTIVE', rank: 'Bronze' });
    expect(member('jeff_006').pending).toBe(1);
    expect(member('allene_029')).toMatchObject({ packages: null, txn: null });

    // The same story on every seed.
    const again = await createTestApp({ seed: 'demo' });
    apps.push(again);
    expect(fingerprint(again)).toEqual(fingerprint(t));

    // And the clock goes on from there: a week of runs, each once.
    const reply = await t.post<{ now: string; ran: { job: string }[] }>('/__qa/clock?wait=true', {
      advance: 'P7D',
    });
    expect(reply.status).toBe(200);
    expect(new Set(reply.body.ran.map((r) => r.job))).toEqual(new Set(['roi', 'binary', 'ranks']));
    expect(n("select count(*) as n from job_runs where status <> 'done'")).toBe(0);
    expect(n('select count(*) as n from job_runs')).toBe(due.length + reply.body.ran.length);
  });
});
