/**
 * The member's own reports, extensions of this stand-in: why each payout (`payout_details`), where
 * each withdrawal is (`withdrawal_timeline`) and monthly wallet statements (`statements`). The
 * demo scenario is played a month further through the real engine; then every payout of that
 * month is explained and each explanation reconciled with the payout and the engine's records,
 * and every statement of every wallet reconciled with the ledger to the micro-unit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amountToMicros,
  WALLET_NAMES,
  type PayoutDetails,
  type Statement,
  type WithdrawalTimeline,
} from '@md/shared';
import { buildApp } from '../src/app.ts';
import { manualClock } from '../src/core/clock.ts';
import { BINARY_BASIS_POINTS, percentOf } from '../src/modules/engine/income.ts';
import { payoutDetails, PAYOUT_NOT_FOUND } from '../src/modules/reports/payout-details.ts';
import { monthRange, STATEMENT_MESSAGES } from '../src/modules/reports/statements.ts';
import { decideWithdrawal, requestWithdrawal } from '../src/modules/withdrawals/withdrawals.ts';
import { RATE_RULES } from '../src/transport/rate-limit.ts';
import { createTestApp, expectLedgerSound, memberIdOf, migrationsBefore, type TestApp } from './helpers.ts';

let t: TestApp;
let monthStart: number;
let monthEnd: number;
const tokens = new Map<string, string>();
const tokenOf = async (username: string) =>
  tokens.get(username) ?? tokens.set(username, await t.login(username)).get(username)!;
const micros = amountToMicros;

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  monthStart = t.services.clock.now();
  const advanced = await t.post<{ ran: { job: string }[] }>('/__qa/clock?wait=true', { advance: 'P31D' });
  expect(advanced.status).toBe(200);
  monthEnd = t.services.clock.now();
}, 120_000);
afterAll(() => t.close());

const sql = <T>(query: string, ...params: unknown[]) =>
  t.services.sqlite.prepare(query).all(...params) as T[];

describe('capabilities and limits', () => {
  it('are advertised and rate-limited per member like the other ledger reads', async () => {
    const config = await t.get<{ capabilities: string[] }>('/config.json');
    expect(config.body.capabilities).toEqual(
      expect.arrayContaining(['payout_details', 'withdrawal_timeline', 'statements']),
    );
    for (const name of [
      'earning.view_payout_details',
      'withdraw.view_withdrawal_timeline',
      'wallet.view_statement',
    ] as const)
      expect(RATE_RULES[name], name).toEqual(RATE_RULES['earning.view_daily_earnings']);
  });
});

describe('payout details', () => {
  type Payout = { member_id: number; trans_id: string; reason: string; amount: number };
  let payouts: Payout[];
  beforeAll(() => {
    payouts = sql<Payout>(
      `select a.member_id, t.trans_id, t.reason, t.amount from transfers t join accounts a on a.id = t.to_account_id
        where t.reason in ('roi', 'binary_income', 'direct_income', 'level_income', 'rank_reward') order by t.id`,
    );
  });

  it('the seeded history and the month played after it hold payouts of every kind the engine makes', () => {
    const kinds = new Set(payouts.map((p) => p.reason));
    for (const reason of ['roi', 'binary_income', 'direct_income', 'level_income', 'rank_reward'])
      expect(kinds, reason).toContain(reason);
    const month = sql<{ n: number }>(
      "select count(*) as n from transfers where reason = 'roi' and created_at > ? and created_at <= ?",
      monthStart,
      monthEnd,
    )[0]!.n;
    expect(month).toBeGreaterThan(100);
    expect(payouts.length).toBeGreaterThan(month + 500);
  });

  it('explains every payout of the seeded history and the month after it, with figures that reconcile with the payout and the engine records', () => {
    const ctx = t.services;
    let checked = 0;
    for (const p of payouts) {
      const d: PayoutDetails = payoutDetails(ctx, p.member_id, p.trans_id);
      const where = `${p.trans_id} of member ${p.member_id}`;
      expect(micros(d.Received), where).toBe(p.amount);
      expect(micros(d.Cap_Taken), where).toBe(micros(d.Expected) - micros(d.Received));
      if (d.Type !== 'Rank') {
        // The cap: what was paid is what the rules give, up to the room the packages had left.
        expect(micros(d.Received), where).toBe(Math.min(micros(d.Expected), micros(d.Cap_Headroom_Before!)));
        expect(micros(d.Cap_Headroom_After!), where).toBe(micros(d.Cap_Headroom_Before!) - p.amount);
      }
      if (d.Type === 'Binary') {
        const b = d.Binary!;
        // The run's rows: one per leg that received volume, Side and Volume naming it, both with the legs after the match.
        const row = sql<{
          rows: number;
          left_volume: number;
          right_volume: number;
          left_carry: number;
          right_carry: number;
          left_side: number;
          right_side: number;
        }>(
          `select count(*) as rows, sum(left_volume) as left_volume, sum(right_volume) as right_volume, max(left_carry) as left_carry, max(right_carry) as right_carry,
                  sum(case side when '0' then volume else 0 end) as left_side, sum(case side when '1' then volume else 0 end) as right_side
             from volume_entries where member_id = ? and kind = 'binary' and trans_id = ?`,
          p.member_id,
          p.trans_id,
        )[0]!;
        expect(row.rows, where).toBeGreaterThan(0);
        expect([row.left_side, row.right_side], where).toEqual([row.left_volume, row.right_volume]);
        expect(micros(d.Expected), where).toBe(percentOf(micros(b.Matched), BINARY_BASIS_POINTS));
        for (const [leg, fresh, carry] of [
          [b.Left, row.left_volume, row.left_carry],
          [b.Right, row.right_volume, row.right_carry],
        ] as const) {
          expect(micros(leg.New_Volume), where).toBe(fresh);
          expect(micros(leg.Carried), where).toBe(carry);
          expect(micros(leg.Total), where).toBe(micros(leg.Carry_Before) + fresh);
          expect(leg.Flushed, where).toBe(0);
          expect(micros(leg.Carried) + micros(b.Matched), where).toBe(micros(leg.Total));
        }
        expect(micros(b.Matched), where).toBe(Math.min(micros(b.Left.Total), micros(b.Right.Total)));
        expect(b.Business_Date.replaceAll('-', '')).toBe(p.trans_id.slice(2, 10));
      } else if (d.Type === 'ROI') {
        const r = d.ROI!;
        expect(r.Packages.length, where).toBeGreaterThan(0);
        for (const pkg of r.Packages)
          expect(micros(pkg.Daily), where).toBe(
            percentOf(micros(pkg.Amount), Math.round(pkg.ROI_Percentage * 100)),
          );
        expect(micros(d.Expected), where).toBe(r.Packages.reduce((sum, pkg) => sum + micros(pkg.Daily), 0));
        expect(d.Wallet).toBe('ROI');
      } else if (d.Type === 'Direct' || d.Type === 'Level') {
        const row = sql<{
          level: number;
          expected_amount: number;
          received_amount: number;
          from_user: string;
        }>(
          'select l.level, l.expected_amount, l.received_amount, m.username as from_user from level_incomes l join members m on m.id = l.from_member_id where l.member_id = ? and l.trans_id = ?',
          p.member_id,
          p.trans_id,
        )[0]!;
        expect(d.Level, where).toMatchObject({ From: row.from_user, Level: row.level });
        expect(d.Type).toBe(row.level === 1 ? 'Direct' : 'Level');
        expect(micros(d.Expected), where).toBe(row.expected_amount);
        expect(micros(d.Received), where).toBe(row.received_amount);
      } else {
        expect(d.Rank, where).not.toBeNull();
      }
      checked++;
    }
    expect(checked).toBe(payouts.length);
  });

  it('reconstructs the cap room the packages hold now: caps bought less capped income received', () => {
    const members = sql<{ member_id: number; room: number; cap: number }>(
      "select member_id, sum(case when status = 'ACTIVE' then max_earnings - total_earnings else 0 end) as room, sum(max_earnings) as cap from subscriptions group by member_id",
    );
    expect(members.length).toBeGreaterThan(20);
    for (const m of members) {
      const { earned } = t.services.sqlite
        .prepare(
          "select coalesce(sum(t.amount), 0) as earned from transfers t join accounts a on a.id = t.to_account_id where a.member_id = ? and t.reason in ('roi', 'direct_income', 'level_income', 'binary_income')",
        )
        .get(m.member_id) as { earned: number };
      expect(m.cap - earned, `member ${m.member_id}`).toBe(m.room);
    }
  });

  it('explains a binary run the cap kept whole, and a level income paid nothing, from the engine rows alone', () => {
    const unpaid = sql<{ member_id: number; trans_id: string }>(
      `select distinct v.member_id, v.trans_id from volume_entries v where v.kind = 'binary' and v.status = 'Matched'
        and not exists (select 1 from transfers t where t.trans_id = v.trans_id) limit 5`,
    );
    for (const v of unpaid) {
      const d = payoutDetails(t.services, v.member_id, v.trans_id);
      expect(d.Received).toBe(0);
      expect(d.Cap_Headroom_Before).toBe(0);
      expect(d.Cap_Taken).toBe(d.Expected);
    }
    const zero = sql<{ member_id: number; trans_id: string; expected_amount: number }>(
      'select member_id, trans_id, expected_amount from level_incomes where received_amount = 0 limit 5',
    );
    for (const l of zero) {
      const d = payoutDetails(t.services, l.member_id, l.trans_id);
      expect(micros(d.Cap_Taken)).toBe(l.expected_amount);
      expect(d.Received).toBe(0);
    }
    expect(unpaid.length + zero.length).toBeGreaterThan(0);
  });

  it('answers over REST and tRPC alike for the caller, and 404 alike for a payout of a member outside, above or below, and an unknown one', async () => {
    const me = 'gonzalo_001';
    const own =
      payouts.find((p) => p.member_id === memberIdOf(t, me) && p.reason === 'binary_income') ??
      payouts.find((p) => p.member_id === memberIdOf(t, me))!;
    const token = await tokenOf(me);
    const reply = await t.post<{ Success: PayoutDetails }>(
      '/earning/view_payout_details',
      { trans_id: own.trans_id },
      { token },
    );
    expect(reply.status).toBe(200);
    expect(micros(reply.body.Success.Received)).toBe(own.amount);
    const rpc = await t.trpc('earning.view_payout_details', 'query', { trans_id: own.trans_id }, token);
    expect(rpc.status).toBe(200);
    const others = ['reynold_004', 'demo', 'claude_003'].map((u) =>
      payouts.find((p) => p.member_id === memberIdOf(t, u)),
    );
    expect(others.map((p) => p?.trans_id ?? null)).not.toContain(null);
    for (const transId of [
      ...others.map((p) => p!.trans_id),
      'BV20990101M1',
      'ROI20260101M999999',
      'LIXX',
      'nonsense',
    ]) {
      const refused = await t.post('/earning/view_payout_details', { trans_id: transId }, { token });
      expect({ status: refused.status, body: refused.body }, transId).toMatchObject({
        status: 404,
        body: { Error: PAYOUT_NOT_FOUND },
      });
    }
    const bad = await t.post('/earning/view_payout_details', { trans_id: '' }, { token });
    expect(bad.status).toBe(400);
    const unsigned = await t.post('/earning/view_payout_details', { trans_id: own.trans_id });
    expect(unsigned.status).toBe(401);
  });
});

describe('withdrawal timeline', () => {
  it('shows requested, then approved and paid with a BscScan hash, or rejected with the refund; pending has the request only', async () => {
    const id = memberIdOf(t, 'demo');
    const address = sql<{ wallet_address: string }>('select wallet_address from members where id = ?', id)[0]!
      .wallet_address;
    // A fresh pair decided now, so both outcomes are there whatever the seed holds.
    const before =
      sql<{ balance: number }>(
        "select balance from accounts where member_id = ? and wallet = 'Withdrawal'",
        id,
      )[0]?.balance ?? 0;
    expect(before).toBeGreaterThanOrEqual(micros(50));
    const approved = requestWithdrawal(t.services, id, micros(25), address);
    const rejected = requestWithdrawal(t.services, id, micros(25), address);
    decideWithdrawal(t.services, approved.id, 'approve');
    decideWithdrawal(t.services, rejected.id, 'reject');
    const token = await tokenOf('demo');
    const read = async (transId: string) =>
      (
        await t.post<{ Success: WithdrawalTimeline }>(
          '/withdraw/view_withdrawal_timeline',
          { trans_id: transId },
          { token },
        )
      ).body.Success;

    const paid = await read(approved.transId);
    expect(paid.Status).toBe('APPROVED');
    expect(paid.Steps.map((s) => s.Step)).toEqual(['Requested', 'Approved', 'Paid']);
    expect(paid.Tx_Hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(paid.Explorer_Url).toBe(`https://bscscan.com/tx/${paid.Tx_Hash}`);
    expect(micros(paid.Steps[2]!.Amount)).toBe(approved.netAmount);
    expect(micros(paid.Fee) + micros(paid.Net_Amount)).toBe(micros(paid.Amount));

    const refused = await read(rejected.transId);
    expect(refused.Steps.map((s) => s.Step)).toEqual(['Requested', 'Rejected', 'Refunded']);
    expect(refused.Tx_Hash).toBeNull();
    expect(micros(refused.Steps[2]!.Amount)).toBe(rejected.amount);

    const pending = sql<{ trans_id: string }>(
      "select trans_id from withdrawals where member_id = ? and status = 'PENDING'",
      id,
    )[0];
    expect(pending).toBeDefined();
    const waiting = await read(pending!.trans_id);
    expect(waiting.Steps.map((s) => s.Step)).toEqual(['Requested']);
    expect(waiting.Tx_Hash).toBeNull();
    await expectLedgerSound(t);
  });

  it('answers 404 alike for a withdrawal of a member outside, above or below, and an unknown one', async () => {
    const token = await tokenOf('gonzalo_001');
    const ofMember = (u: string) =>
      sql<{ trans_id: string }>(
        'select trans_id from withdrawals where member_id = ? limit 1',
        memberIdOf(t, u),
      )[0]?.trans_id;
    const others = ['demo', 'reynold_004', 'claude_003'].map(ofMember).filter((x): x is string => Boolean(x));
    expect(others.length).toBeGreaterThanOrEqual(1);
    for (const transId of [...others, 'WD99999999']) {
      const reply = await t.post('/withdraw/view_withdrawal_timeline', { trans_id: transId }, { token });
      expect({ status: reply.status, body: reply.body }, transId).toMatchObject({
        status: 404,
        body: { Error: 'Withdrawal not found' },
      });
    }
  });
});

describe('statements', () => {
  const monthsUntil = (from: number, to: number) => {
    const months: string[] = [];
    const d = new Date(from);
    for (
      let y = d.getUTCFullYear(), m = d.getUTCMonth();
      Date.UTC(y, m, 1) <= to;
      m === 11 ? ((m = 0), y++) : m++
    )
      months.push(`${y}-${String(m + 1).padStart(2, '0')}`);
    return months;
  };

  it('reconcile with the ledger to the micro-unit: opening + credits - debits = closing = the next opening, and the last closing is the balance', async () => {
    const first = sql<{ at: number }>('select min(created_at) as at from transfers')[0]!.at;
    const months = monthsUntil(first, t.services.clock.now());
    expect(months.length).toBeGreaterThanOrEqual(3);
    for (const username of ['demo', 'gonzalo_001']) {
      const token = await tokenOf(username);
      const id = memberIdOf(t, username);
      for (const wallet of WALLET_NAMES) {
        let previous = 0;
        for (const month of months) {
          const reply = await t.post<{ Success: Statement }>(
            '/wallet/view_statement',
            { wallet, month },
            { token, ip: `10.9.${months.indexOf(month)}.1` },
          );
          expect(reply.status, `${username} ${wallet} ${month}`).toBe(200);
          const s = reply.body.Success;
          const where = `${username} ${wallet} ${month}`;
          expect(micros(s.Opening), where).toBe(previous);
          expect(micros(s.Total_Credits), where).toBe(
            s.Credits.reduce((sum, c) => sum + micros(c.Amount), 0),
          );
          expect(micros(s.Total_Debits), where).toBe(s.Debits.reduce((sum, c) => sum + micros(c.Amount), 0));
          expect(micros(s.Closing), where).toBe(
            micros(s.Opening) + micros(s.Total_Credits) - micros(s.Total_Debits),
          );
          // Independently from the ledger: the month's legs into and out of the wallet.
          const { from, to } = monthRange(month);
          const [legs] = sql<{ credits: number; debits: number }>(
            `select coalesce(sum(case when ta.member_id = @id and ta.wallet = @wallet then t.amount end), 0) as credits,
                    coalesce(sum(case when fa.member_id = @id and fa.wallet = @wallet then t.amount end), 0) as debits
               from transfers t join accounts fa on fa.id = t.from_account_id join accounts ta on ta.id = t.to_account_id
              where t.created_at >= @from and t.created_at < @to`,
            { id, wallet, from, to },
          );
          expect([micros(s.Total_Credits), micros(s.Total_Debits)], where).toEqual([
            legs!.credits,
            legs!.debits,
          ]);
          previous = micros(s.Closing);
        }
        const balance =
          sql<{ balance: number }>(
            'select balance from accounts where member_id = ? and wallet = ?',
            id,
            wallet,
          )[0]?.balance ?? 0;
        expect(previous, `${username} ${wallet} balance`).toBe(balance);
      }
    }
  }, 60_000);

  it('refuses a bad month or wallet clearly, and a month not yet begun', async () => {
    const token = await tokenOf('demo');
    for (const month of ['2026-13', '2026-1', 'May 2026', '']) {
      const reply = await t.post('/wallet/view_statement', { wallet: 'ROI', month }, { token });
      expect({ status: reply.status, body: reply.body }, month).toMatchObject({
        status: 400,
        body: { Error: 'month must be YYYY-MM' },
      });
    }
    const wallet = await t.post('/wallet/view_statement', { wallet: 'Savings', month: '2026-01' }, { token });
    expect(wallet.body).toMatchObject({ Error: 'Unknown wallet' });
    const future = await t.post('/wallet/view_statement', { wallet: 'ROI', month: '2999-01' }, { token });
    expect({ status: future.status, body: future.body }).toMatchObject({
      status: 400,
      body: { Error: STATEMENT_MESSAGES.futureMonth },
    });
  });

  it('answer for the token’s member only: a body that names a member is refused', async () => {
    const month = new Date(t.services.clock.now()).toISOString().slice(0, 7);
    const mine = await t.post<{ Success: Statement }>(
      '/wallet/view_statement',
      { wallet: 'Deposit', month },
      { token: await tokenOf('reynold_004') },
    );
    const named = await t.post<{ Success: Statement }>(
      '/wallet/view_statement',
      { wallet: 'Deposit', month, username: 'demo' },
      { token: await tokenOf('reynold_004') },
    );
    expect(named.status).toBe(400);
    expect(named.body).toMatchObject({ Error: "Received unknown field 'username'" });
    const demo = await t.post<{ Success: Statement }>(
      '/wallet/view_statement',
      { wallet: 'Deposit', month },
      { token: await tokenOf('demo') },
    );
    expect(micros(mine.body.Success.Closing)).toBe(
      sql<{ balance: number }>(
        "select balance from accounts where member_id = ? and wallet = 'Deposit'",
        memberIdOf(t, 'reynold_004'),
      )[0]?.balance ?? 0,
    );
    expect(demo.body).not.toEqual(mine.body);
  });
});

describe('a database made before migration 0012', () => {
  it('opens, migrates and keeps every withdrawal, those already approved without a hash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-withdrawal-hash-'));
    try {
      const { folder } = migrationsBefore('0012_withdrawal_tx_hash', dir);
      const path = join(dir, 'old.sqlite');
      const old = new Database(path);
      migrate(drizzle(old), { migrationsFolder: folder });
      old
        .prepare(
          "insert into withdrawals (trans_id, member_id, amount, fee, net_amount, address, status, created_at, decided_at) values ('WD00000001', 1, 100000000, 5000000, 95000000, '0xabc', 'APPROVED', 1, 2)",
        )
        .run();
      old.close();
      const app = await buildApp({ databasePath: path, seed: 'demo', clock: manualClock() });
      try {
        const rows = app.services.sqlite
          .prepare('select trans_id, amount, status, decided_at, tx_hash from withdrawals')
          .all();
        expect(rows).toEqual([
          { trans_id: 'WD00000001', amount: 100_000_000, status: 'APPROVED', decided_at: 2, tx_hash: null },
        ]);
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
