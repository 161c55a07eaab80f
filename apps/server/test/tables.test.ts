/**
 * The seven paged tables: paging, newest first, search, inclusive dates, preset filters, page
 * counts, scoping to the caller, and clear errors for bad queries. Engine-output rows (the income
 * tables) and deposit/subscription rows are inserted directly: these tests are about the tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, procedureNames } from '@md/shared';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import { insertMember } from '../src/modules/auth/members.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
let me: number;
let other: number;
const DAY = 86_400_000;
const base = Date.UTC(2026, 9, 1, 12); // Oct 1, 2026 12:00 UTC

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  // Members without any history of their own: the demo team's rows come from the engine.
  const join = (username: string) =>
    insertMember(t.services, {
      username,
      name: username,
      email: `${username}@example.com`,
      country: 'United Kingdom',
      passwordHash: DEMO_PASSWORD_HASH,
      sponsorId: 1,
      side: '0',
      createdAt: base,
    }).id;
  me = join('table_me');
  other = join('table_other');
  join('table_stranger');
  token = await t.login('table_me');
  const db = t.services.sqlite;
  const insertLevel = db.prepare(
    `insert into level_incomes (trans_id, member_id, from_member_id, subscription_trans_id, level, percentage, subs_amount, expected_amount, received_amount, created_at)
     values (?, ?, ?, ?, ?, ?, 100000000, ?, ?, ?)`,
  );
  // 23 rows for me on 23 consecutive days (levels cycle 1..5), 4 for somebody else.
  for (let i = 0; i < 23; i++) {
    const level = (i % 5) + 1;
    const pct = level === 1 ? 1000 : 100;
    insertLevel.run(
      `LVL${String(i).padStart(3, '0')}`,
      me,
      other,
      `SUB${i}`,
      level,
      pct,
      pct * 10_000,
      i === 3 ? 0 : pct * 10_000,
      base + i * DAY,
    );
  }
  for (let i = 0; i < 4; i++)
    insertLevel.run(`OTHER${i}`, other, me, `SUBO${i}`, 1, 1000, 10_000_000, 10_000_000, base + i * DAY);

  const insertVolume = db.prepare(
    `insert into volume_entries (kind, trans_id, member_id, from_member_id, transaction_id, side, volume, left_volume, left_carry, left_total, right_volume, right_carry, right_total, status, created_at)
     values (?, ?, ?, ?, ?, ?, 50000000, 50000000, 0, 50000000, 0, 0, 0, ?, ?)`,
  );
  for (let i = 0; i < 12; i++)
    insertVolume.run(
      'binary',
      `BV${i}`,
      me,
      other,
      `SUB${i}`,
      i % 2 ? '1' : '0',
      i % 3 ? 'Carried' : 'Matched',
      base + i * DAY,
    );
  for (let i = 0; i < 3; i++)
    insertVolume.run('rank', `RV${i}`, me, other, `SUB${i}`, '0', 'Counted', base + i * DAY);

  const insertReward = db.prepare(
    'insert into rank_rewards (trans_id, member_id, rank, reward, status, created_at) values (?, ?, ?, ?, ?, ?)',
  );
  insertReward.run('RR1', me, 'Bronze', 50_000_000, 1, base);
  insertReward.run('RR2', me, 'Silver', 100_000_000, 0, base + DAY);

  const insertDeposit = db.prepare(
    `insert into deposits (trans_id, member_id, amount, currency, address, status, paid_amount, created_at, expires_at) values (?, ?, ?, 'USDT.BEP20', ?, ?, 0, ?, ?)`,
  );
  for (let i = 0; i < 11; i++)
    insertDeposit.run(
      `DEP${i}`,
      me,
      (10 + i) * 1_000_000 + 999_999,
      `0x${String(i).padStart(40, 'a')}`,
      i % 2 ? 'PAID' : 'EXPIRED',
      base + i * DAY,
      base + i * DAY + 1_800_000,
    );
  insertDeposit.run('DEPX', other, 50_000_000, `0x${'b'.repeat(40)}`, 'PAID', base, base + 1_800_000);

  db.prepare(
    `insert into subscriptions (trans_id, member_id, plan, amount, roi_basis_points, max_earnings, total_earnings, binary_volume, rank_volume, wallet, status, reason, created_at, end_date)
     values ('SUBA', ?, 'Gold', 1000000000, 150, 3000000000, 3000000000, 1000000000, 1000000000, 'Deposit', 'EXPIRED', 'Max earnings reached', ?, ?)`,
  ).run(me, base, base + 30 * DAY);
});
afterAll(() => t.close());

type Rows = { Success: Record<string, unknown>[] };
const list = (path: string, query: Record<string, unknown> = {}, as = token) =>
  t.post<Rows & { Error?: string }>(path, { pageNo: 1, pageSize: 10, ...query }, { token: as });
const pages = async (path: string, query: Record<string, unknown> = {}) =>
  (await t.post<{ Success: number }>(path, { pageNo: 1, pageSize: 10, ...query }, { token })).body.Success;

describe('paging', () => {
  it('answers newest first, a page at a time, with the page count', async () => {
    const first = await list('/level/level_earning_transaction');
    expect(first.status).toBe(200);
    expect(first.body.Success.map((r) => r.TransID)).toEqual(
      Array.from({ length: 10 }, (_, i) => `LVL${String(22 - i).padStart(3, '0')}`),
    );
    const third = await list('/level/level_earning_transaction', { pageNo: 3 });
    expect(third.body.Success.map((r) => r.TransID)).toEqual(['LVL002', 'LVL001', 'LVL000']);
    expect(await pages('/level/total_pagination_level_earning')).toBe(3);
    expect(await pages('/level/total_pagination_level_earning', { pageSize: 25 })).toBe(1);
    expect((await list('/level/level_earning_transaction', { pageNo: 9 })).body.Success).toEqual([]);
  });

  it('keeps the provider field names and units', async () => {
    const [row] = (await list('/level/level_earning_transaction', { search: ['LVL003'] })).body.Success;
    expect(row).toEqual({
      DateTime: new Date(base + 3 * DAY).toISOString(),
      TransID: 'LVL003',
      Transaction_ID: 'SUB3',
      Subs_Amount: 100,
      From: 'table_other',
      Level: 4,
      Percentage: 1,
      Expected_Amount: 1,
      Received_Amount: 0,
    });
    const [subscription] = (await list('/subscription/subscription_transaction', { search: ['SUBA'] })).body
      .Success;
    expect(subscription).toMatchObject({
      Name: 'Gold',
      Amount: 1000,
      ROI_Percentage: 1.5,
      Max_Earnings: 3000,
      Total_Earnings: 3000,
      Status: 'EXPIRED',
      Reason: 'Max earnings reached',
    });
    const deposits = (await list('/table/view_deposit_transaction', { search: ['DEP10'] })).body.Success;
    expect(deposits).toEqual([
      {
        id: expect.any(String),
        amount: '20.99',
        date: new Date(base + 10 * DAY).toISOString(),
        status: 'EXPIRED',
        transaction_id: 'DEP10',
      },
    ]);
    const rewards = (await list('/rank/view_rank_transaction')).body.Success;
    expect(rewards).toEqual([
      {
        DateTime: new Date(base + DAY).toISOString(),
        Transaction_ID: 'RR2',
        Current_Rank: 'Silver',
        Reward: 100,
        Status: false,
      },
      {
        DateTime: new Date(base).toISOString(),
        Transaction_ID: 'RR1',
        Current_Rank: 'Bronze',
        Reward: 50,
        Status: true,
      },
    ]);
  });

  it('answers one page when there is nothing', async () => {
    const stranger = await t.login('table_stranger');
    const reply = await t.post<{ Success: number }>(
      '/rank/total_pagination_rank_transaction',
      { pageNo: 1, pageSize: 10 },
      { token: stranger },
    );
    expect(reply.body.Success).toBe(1);
  });
});

describe('search, dates and filters', () => {
  it('searches the text columns, with LIKE wildcards taken literally', async () => {
    expect((await list('/level/level_earning_transaction', { search: ['LVL01'] })).body.Success).toHaveLength(
      10,
    );
    expect(
      (await list('/level/level_earning_transaction', { search: ['table_o'] })).body.Success,
    ).toHaveLength(10);
    expect((await list('/level/level_earning_transaction', { search: ['%'] })).body.Success).toHaveLength(0);
    expect((await list('/level/level_earning_transaction', { search: ['LVL_1'] })).body.Success).toHaveLength(
      0,
    );
    expect(await pages('/level/total_pagination_level_earning', { search: ['LVL01'] })).toBe(1);
  });

  it('takes start and end dates as whole days, inclusive', async () => {
    const rows = (
      await list('/level/level_earning_transaction', {
        start_date: '2026-10-03',
        end_date: '2026-10-05',
        pageSize: 50,
      })
    ).body.Success;
    expect(rows.map((r) => r.TransID)).toEqual(['LVL004', 'LVL003', 'LVL002']);
    expect(
      (await list('/level/level_earning_transaction', { start_date: '2026-10-20', pageSize: 50 })).body
        .Success,
    ).toHaveLength(4);
  });

  it('applies preset filters', async () => {
    const level1 = (
      await list('/level/level_earning_transaction', { filters: { Level: ['1'] }, pageSize: 50 })
    ).body.Success;
    expect(level1.map((r) => r.Level)).toEqual([1, 1, 1, 1, 1]);
    const right = (await list('/binary/view_binary_transaction', { filters: { Side: ['1'] }, pageSize: 50 }))
      .body.Success;
    expect(right).toHaveLength(6);
    expect(right.every((r) => r.Side === '1')).toBe(true);
    const paid = (
      await list('/table/view_deposit_transaction', {
        filters: { status: ['PAID'] },
        search: ['DEP'],
        pageSize: 50,
      })
    ).body.Success;
    expect(paid).toHaveLength(5);
    const won = (await list('/rank/view_rank_transaction', { filters: { Status: ['true'] } })).body.Success;
    expect(won.map((r) => r.Current_Rank)).toEqual(['Bronze']);
  });

  it('keeps binary and rank volume apart', async () => {
    expect(await pages('/binary/total_pagination_binary_transaction')).toBe(2);
    expect((await list('/rank/view_rank_qualification')).body.Success.map((r) => r.TransID)).toEqual([
      'RV2',
      'RV1',
      'RV0',
    ]);
  });

  it('refuses bad queries with a clear 400 and no rows', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ start_date: '2026-13-01' }, 'start_date must be a date as YYYY-MM-DD'],
      [{ end_date: 'yesterday' }, 'end_date must be a date as YYYY-MM-DD'],
      [{ filters: { Password: ['x'] } }, 'Unknown filter: Password'],
      [{ pageNo: 0 }, 'pageNo must be at least 1'],
      [{ pageSize: 1000 }, 'pageSize must be at most 100'],
      [{ pageNo: 1.5 }, 'pageNo must be a whole number'],
      [{ search: ['a', 'b'] }, expect.any(String) as unknown as string],
    ];
    for (const [query, message] of cases) {
      const reply = await list('/level/level_earning_transaction', query);
      expect(reply.status, JSON.stringify(query)).toBe(400);
      expect(reply.body.Error).toEqual(message);
    }
  });
});

describe('scoping', () => {
  it("never shows another member's rows", async () => {
    const all = (await list('/level/level_earning_transaction', { pageSize: 100 })).body.Success;
    expect(all).toHaveLength(23);
    expect(all.some((r) => String(r.TransID).startsWith('OTHER'))).toBe(false);
    const deposits = (await list('/table/view_deposit_transaction', { pageSize: 100 })).body.Success;
    expect(deposits.map((r) => r.transaction_id)).not.toContain('DEPX');
    const theirs = await t.login('table_other');
    const theirRows = (await list('/level/level_earning_transaction', { pageSize: 100 }, theirs)).body
      .Success;
    expect(theirRows.map((r) => r.TransID).sort()).toEqual(['OTHER0', 'OTHER1', 'OTHER2', 'OTHER3']);
  });

  it('needs a token on every table endpoint', async () => {
    for (const name of procedureNames.filter(
      (n) => contract[n].input === contract['table.view_deposit_transaction'].input,
    )) {
      const reply = await t.post<{ Error: string }>(contract[name].path, { pageNo: 1, pageSize: 10 });
      expect(reply.status, name).toBe(401);
    }
  });

  it('answers the same over tRPC', async () => {
    const query = { pageNo: 2, pageSize: 10, search: ['LVL'] };
    const rest = await list('/level/level_earning_transaction', query);
    const viaTrpc = await t.trpc('level.level_earning_transaction', 'query', query, token);
    expect((viaTrpc.body as { result: { data: unknown } }).result.data).toEqual(rest.body);
  });
});

describe('earning history (from the ledger)', () => {
  it("shows every transfer that touches the caller's wallets, from the caller's side", async () => {
    const demo = await t.login('demo');
    const rows = (await list('/earning/view_all_earning_history', { pageSize: 100 }, demo)).body.Success;
    const p2p = rows.find((r) => r.Type === 'P2P Transfer')!;
    expect(p2p).toMatchObject({
      By: 'gonzalo_001',
      Transfer: 'Deposit → gonzalo_001 P2P',
      Wallet: 'Deposit',
      Status: 'Success',
    });
    expect(rows.find((r) => r.Type === 'Deposit')).toMatchObject({
      By: 'System',
      Transfer: 'Deposits Clearing → Deposit',
      Wallet: 'Deposit',
    });
    expect(
      rows
        .filter((r) => r.Type === 'Withdrawal Request')
        .map((r) => r.Status)
        .sort(),
    ).toEqual(['Pending', 'Success']);
    expect(rows.some((r) => r.Type === 'Withdrawal Paid' && r.Status === 'Success')).toBe(true);

    // The recipient sees the same transfer, credited to its P2P wallet.
    const received = (
      await list(
        '/earning/view_all_earning_history',
        { search: [String(p2p.TransID)] },
        await t.login('gonzalo_001'),
      )
    ).body.Success;
    expect(received).toEqual([{ ...p2p, By: 'demo', Transfer: 'demo Deposit → P2P', Wallet: 'P2P' }]);
  });

  it('filters by type and pages like the other tables', async () => {
    const demo = await t.login('demo');
    const deposits = (
      await list('/earning/view_all_earning_history', { filters: { Type: ['deposit'] } }, demo)
    ).body.Success;
    expect(deposits.length).toBeGreaterThan(0);
    expect(deposits.every((r) => r.Type === 'Deposit')).toBe(true);
    const total = (
      await t.post<{ Success: number }>(
        '/earning/total_pagination_earning_history',
        { pageNo: 1, pageSize: 10 },
        { token: demo },
      )
    ).body.Success;
    // 13 simulated weeks of income: many pages; the last one is partly or wholly full, the one after it empty.
    expect(total).toBeGreaterThan(10);
    const last = (await list('/earning/view_all_earning_history', { pageNo: total, pageSize: 10 }, demo)).body
      .Success;
    expect(last.length).toBeGreaterThan(0);
    expect(last.length).toBeLessThanOrEqual(10);
    expect(
      (await list('/earning/view_all_earning_history', { pageNo: total + 1, pageSize: 10 }, demo)).body
        .Success,
    ).toEqual([]);
  });

  it('finds rows by the Type the table shows, not only by its internal code', async () => {
    const demo = await t.login('demo');
    const read = async (query: Record<string, unknown>) =>
      (await list('/earning/view_all_earning_history', { pageSize: 100, ...query }, demo)).body.Success;
    const binary = await read({ filters: { Type: ['binary_income'] } });
    expect(binary.length).toBeGreaterThan(0);
    expect(await read({ search: ['Binary Income'] })).toEqual(binary);
    expect(await read({ search: ['binary income'] })).toEqual(binary);
    // A label that is not its code with spaces: "P2P Transfer" is the code p2p.
    const p2p = await read({ search: ['P2P Transfer'] });
    expect(p2p.length).toBeGreaterThan(0);
    expect(p2p.every((r) => r.Type === 'P2P Transfer')).toBe(true);
    // The page count reads the same search: one row a page, as many pages as the Type filter's.
    const count = async (query: Record<string, unknown>) =>
      (
        await t.post<{ Success: number }>(
          '/earning/total_pagination_earning_history',
          { pageNo: 1, pageSize: 1, ...query },
          { token: demo },
        )
      ).body.Success;
    expect(await count({ search: ['Binary Income'] })).toBe(
      await count({ filters: { Type: ['binary_income'] } }),
    );
  });

  it('a plain page (read through the newest rows of each part of the scope) equals the same page read through the full scope', async () => {
    const demo = await t.login('demo');
    // A start date long past changes no row but makes the engine take the general WHERE.
    for (const query of [
      { pageNo: 1, pageSize: 10 },
      { pageNo: 3, pageSize: 10 },
      { pageNo: 2, pageSize: 25 },
      { pageNo: 1, pageSize: 100 },
    ]) {
      const plain = (await list('/earning/view_all_earning_history', query, demo)).body.Success;
      const general = (
        await list('/earning/view_all_earning_history', { ...query, start_date: '2000-01-01' }, demo)
      ).body.Success;
      expect(plain.length, JSON.stringify(query)).toBe(query.pageSize);
      expect(plain, JSON.stringify(query)).toEqual(general);
    }
  });
});
