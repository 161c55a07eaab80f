/**
 * Earning history from earning_entries and page counts from table_rows (migration 0008)
 * answer exactly what the queries before them answered. The earning history query before them
 * (a 3-way UNION over transfers) and count(*) over each table are kept here as the reference; every
 * member of `demo`, and a member with hundreds of rows of every kind, is compared page by page, per
 * filter, search and date range, after withdrawals are approved and rejected, after daily runs,
 * after a snapshot restore, and on a database of the previous main after it migrates.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountToMicros, REWARD_WALLETS } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { manualClock, type Clock } from '../src/core/clock.ts';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import type { AuthedCtx, Services } from '../src/core/services.ts';
import { insertMember } from '../src/modules/auth/members.ts';
import { openDeposit, payDeposit } from '../src/modules/deposits/deposits.ts';
import { runDueJobs } from '../src/modules/engine/jobs.ts';
import { walletBalance } from '../src/modules/ledger/ledger.ts';
import { buyPackage } from '../src/modules/packages/packages.ts';
import { tableHandlers } from '../src/modules/tables/handlers.ts';
import { earningSource } from '../src/modules/tables/sources.ts';
import { sendP2p } from '../src/modules/transfers/p2p.ts';
import { swapWallets } from '../src/modules/wallets/wallets.ts';
import { decideWithdrawal, requestWithdrawal } from '../src/modules/withdrawals/withdrawals.ts';
import { createTestApp, undoMigrationsAfter, type TestApp } from './helpers.ts';
import { fromTemplate } from './templates.ts';

const DAY = 86_400_000;
const ADDRESS = '0x5290ab21dc3e8f4a6c1b7d9e0f2a3b4c5d6e9ee7';

/* ───────────── The reference: earning history and page counts as they were before migration 0008 ───────────── */

const REFERENCE_FROM = `transfers t
    join accounts fa on fa.id = t.from_account_id
    join accounts ta on ta.id = t.to_account_id
    left join members fm on fm.id = fa.member_id
    left join members tm on tm.id = ta.member_id
    left join members cp on cp.id = t.counterparty_member_id
    left join withdrawals w on w.trans_id = t.trans_id`;
const REFERENCE_SCOPE = `t.id in (
      select id from transfers where from_account_id in (select id from accounts where member_id = @member)
      union select id from transfers where to_account_id in (select id from accounts where member_id = @member)
      union select id from transfers where member_id = @member)`;
const REFERENCE_SEARCH = ['t.trans_id', 't.reason', 'cp.username', 'fa.wallet', 'ta.wallet'];
const REFERENCE_FILTERS: Record<string, string> = { Type: 't.reason', Wallet: 'ta.wallet' };

interface Query {
  pageNo: number;
  pageSize: number;
  search?: string[];
  start_date?: string;
  end_date?: string;
  filters?: Record<string, string[]>;
}

/** The previous engine's WHERE for the earning history. */
function referenceWhere(member: number, query: Query) {
  const clauses = [REFERENCE_SCOPE];
  const params: Record<string, unknown> = { member };
  const text = query.search?.[0]?.trim();
  if (text) {
    params.search = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    clauses.push(`(${REFERENCE_SEARCH.map((column) => `${column} like @search escape '\\'`).join(' or ')})`);
  }
  if (query.start_date) {
    params.start = Date.parse(`${query.start_date}T00:00:00Z`);
    clauses.push('t.created_at >= @start');
  }
  if (query.end_date) {
    params.end = Date.parse(`${query.end_date}T00:00:00Z`) + DAY;
    clauses.push('t.created_at < @end');
  }
  let n = 0;
  for (const [column, values] of Object.entries(query.filters ?? {})) {
    if (values.length === 0) continue;
    const names = values.map((value) => {
      params[`f${n}`] = value;
      return `@f${n++}`;
    });
    clauses.push(`${REFERENCE_FILTERS[column]} in (${names.join(', ')})`);
  }
  return { where: clauses.join(' and '), params };
}

function referencePage(sqlite: Database.Database, member: number, query: Query) {
  const { where, params } = referenceWhere(member, query);
  const rows = sqlite
    .prepare(
      // The page's own columns (in their order, for its toRow) over the old scope: the rows are what differ.
      `select ${earningSource.columns.select} from ${REFERENCE_FROM} where ${where} order by t.created_at desc, t.id desc limit @limit offset @offset`,
    )
    .raw(true)
    .all({ ...params, limit: query.pageSize, offset: (query.pageNo - 1) * query.pageSize }) as unknown[][];
  return { Success: rows.map((row) => earningSource.toRow(row)) };
}

function referencePages(sqlite: Database.Database, member: number, query: Query) {
  const { where, params } = referenceWhere(member, query);
  const { total } = sqlite
    .prepare(`select count(*) as total from ${REFERENCE_FROM} where ${where}`)
    .get(params) as { total: number };
  return { Success: Math.max(1, Math.ceil(total / query.pageSize)), Rows: total };
}

/** The page counts of the other six tables as they were: count(*) over the member's rows. */
const REFERENCE_COUNTS: Record<string, string> = {
  deposits: 'select count(*) as n from deposits where member_id = @member',
  subscriptions: 'select count(*) as n from subscriptions where member_id = @member',
  level_earning: 'select count(*) as n from level_incomes where member_id = @member',
  binary_volumes: "select count(*) as n from volume_entries where member_id = @member and kind = 'binary'",
  rank_volumes: "select count(*) as n from volume_entries where member_id = @member and kind = 'rank'",
  rank_rewards: 'select count(*) as n from rank_rewards where member_id = @member',
  earning: `select count(*) as n from ${REFERENCE_FROM.split('\n')[0]} where ${REFERENCE_SCOPE}`,
};
/** The tables whose counts table_rows keeps (migration 0008). */
const KEPT = new Set(['deposits', 'subscriptions', 'level_earning', 'rank_rewards', 'earning']);
const COUNT_HANDLERS: Record<string, string> = {
  deposits: 'table.total_pagination_deposit_transaction',
  subscriptions: 'subscription.total_pagination_subscription_transaction',
  level_earning: 'level.total_pagination_level_earning',
  binary_volumes: 'binary.total_pagination_binary_transaction',
  rank_volumes: 'rank.total_pagination_rank_qualification',
  rank_rewards: 'rank.total_pagination_rank_transaction',
  earning: 'earning.total_pagination_earning_history',
};

/* ───────────────────────────── The comparison ───────────────────────────── */

const ctxOf = (services: Services, id: number) => ({ ...services, member: { id } }) as unknown as AuthedCtx;
const call = (services: Services, member: number, name: string, query: Query) =>
  JSON.stringify(
    ((tableHandlers as Record<string, unknown>)[name] as (ctx: AuthedCtx, input: Query) => unknown)(
      ctxOf(services, member),
      query,
    ),
  );

/**
 * Every query this compares for one member: the whole history as one page (nothing missing,
 * nothing twice, in the same order), the first, second and last pages of 10 and the one after, each Type and Wallet among the member's rows (and one that matches nothing), searches,
 * date ranges and their mix. Answers how many queries were compared.
 */
function compareMember(services: Services, member: number): number {
  const sqlite = services.sqlite;
  const all = referencePage(sqlite, member, { pageNo: 1, pageSize: 100_000 }).Success;
  const raw = sqlite
    .prepare(
      `select distinct t.reason, ta.wallet, t.trans_id, cp.username from ${REFERENCE_FROM} where ${REFERENCE_SCOPE}`,
    )
    .all({ member }) as {
    reason: string;
    wallet: string;
    trans_id: string;
    username: string | null;
  }[];
  const queries: Query[] = [];
  const lastPage = Math.max(1, Math.ceil(all.length / 10));
  for (const page of new Set([1, 2, lastPage, lastPage + 1])) queries.push({ pageNo: page, pageSize: 10 });
  queries.push({ pageNo: 1, pageSize: 100_000 }, { pageNo: 2, pageSize: 7 });
  const reasons = [...new Set(raw.map((r) => r.reason))];
  const wallets = [...new Set(raw.map((r) => r.wallet))];
  for (const reason of [...reasons, 'no_such_reason'])
    queries.push({ pageNo: 1, pageSize: 10, filters: { Type: [reason] } });
  for (const wallet of wallets) queries.push({ pageNo: 1, pageSize: 10, filters: { Wallet: [wallet] } });
  queries.push({
    pageNo: 1,
    pageSize: 10,
    filters: { Type: reasons.slice(0, 2), Wallet: wallets.slice(0, 2) },
  });
  queries.push({ pageNo: 2, pageSize: 5, filters: { Type: [], Wallet: wallets } });
  const someTransId = raw[Math.floor(raw.length / 2)]?.trans_id ?? 'none';
  const someUser = raw.find((r) => r.username)?.username ?? 'nobody';
  for (const text of [someTransId, someUser, 'swap', 'Deposit', 'roi', 'withdrawal', '%', '_', '  ', 'zzz'])
    queries.push({ pageNo: 1, pageSize: 10, search: [text] });
  queries.push(
    { pageNo: 2, pageSize: 3, search: [someUser] },
    { pageNo: 2, pageSize: 3, search: ['Deposit'] },
  );
  if (all.length > 0) {
    const day = (row: Record<string, unknown>) => String(row.DateTime).slice(0, 10);
    const newest = day(all[0]!);
    const middle = day(all[Math.floor(all.length / 2)]!);
    queries.push(
      { pageNo: 1, pageSize: 10, start_date: middle },
      { pageNo: 1, pageSize: 10, end_date: middle },
      { pageNo: 1, pageSize: 10, start_date: middle, end_date: newest },
      {
        pageNo: 1,
        pageSize: 10,
        start_date: middle,
        end_date: newest,
        filters: { Type: reasons.slice(0, 1) },
        search: ['T'],
      },
    );
  }
  for (const query of queries) {
    const label = `member ${member} ${JSON.stringify(query)}`;
    const page = JSON.parse(call(services, member, 'earning.view_all_earning_history', query)) as {
      Success: unknown[];
      Next_Cursor: string | null;
    };
    expect(JSON.stringify({ Success: page.Success }), label).toBe(
      JSON.stringify(referencePage(sqlite, member, query)),
    );
    const counted = referencePages(sqlite, member, query);
    // A cursor to go on with exactly when rows are left after this page.
    expect(page.Next_Cursor === null, label).toBe(query.pageNo * query.pageSize >= counted.Rows);
    expect(call(services, member, 'earning.total_pagination_earning_history', query), label).toBe(
      JSON.stringify(counted),
    );
  }
  return queries.length;
}

/** Every member's maintained counts equal count(*) for every table, and the page counts follow them. */
function compareCounts(services: Services) {
  const sqlite = services.sqlite;
  const members = (sqlite.prepare('select id from members order by id').all() as { id: number }[]).map(
    (m) => m.id,
  );
  for (const member of members) {
    for (const [source, sql] of Object.entries(REFERENCE_COUNTS)) {
      const { n } = sqlite.prepare(sql).get({ member }) as { n: number };
      const kept = sqlite
        .prepare('select total from table_rows where member_id = ? and source = ?')
        .get(member, source) as { total: number } | undefined;
      // The volumes are counted over their index, not kept (the daily run writes them in bulk).
      if (KEPT.has(source)) expect(kept?.total ?? 0, `${source} of member ${member}`).toBe(n);
      else expect(kept, `${source} of member ${member}`).toBeUndefined();
      for (const pageSize of [1, 10, 7])
        expect(
          JSON.parse(call(services, member, COUNT_HANDLERS[source]!, { pageNo: 1, pageSize })).Success,
          `${source} pages of member ${member}`,
        ).toBe(Math.max(1, Math.ceil(n / pageSize)));
    }
  }
  // No count of a member that is not there; the payouts' mark never outlives their transaction.
  const stray = sqlite
    .prepare('select count(*) as n from table_rows where member_id not in (select id from members)')
    .get() as { n: number };
  expect(stray.n).toBe(0);
  expect(sqlite.prepare("select count(*) as n from meta where key = 'earning_entries_batch'").get()).toEqual({
    n: 0,
  });
}

function compareAll(services: Services) {
  const members = (
    services.sqlite.prepare('select id from members order by id').all() as { id: number }[]
  ).map((m) => m.id);
  let queries = 0;
  for (const member of members) queries += compareMember(services, member);
  compareCounts(services);
  return { members: members.length, queries };
}

/**
 * Money of every kind for a new member under `demo` (and a direct of its own): paid deposits and
 * purchases, swaps, P2P both ways, withdrawals approved, rejected and left pending; then two
 * days of daily runs for everybody. Times stay before `now` so the runs pay what came before.
 */
function busyMember(services: Services, clock: Clock, name: string, rounds: number) {
  const demo = (
    services.sqlite.prepare("select id from members where username = 'demo'").get() as { id: number }
  ).id;
  const join = (username: string, sponsorId: number) =>
    insertMember(services, {
      username,
      name: username,
      email: `${username}@example.com`,
      country: 'United Kingdom',
      passwordHash: DEMO_PASSWORD_HASH,
      sponsorId,
      side: '1',
      createdAt: clock.now() - 30 * DAY,
    }).id;
  const busy = join(name, demo);
  const direct = join(`${name}_direct`, busy);
  const start = clock.now() - 20 * DAY;
  const decided: string[] = [];
  for (let k = 0; k < rounds; k++) {
    const at = start + k * 60_000;
    const deposit = openDeposit(services, busy, amountToMicros(400), 'USDT.BEP20', at);
    payDeposit(services, deposit.transId, undefined, at + 1_000);
    buyPackage(services, busy, 'Starter', at + 2_000);
    sendP2p(services, busy, `${name}_direct`, amountToMicros(10), at + 3_000);
    if (k % 2 === 0) {
      const other = openDeposit(services, direct, amountToMicros(500), 'USDT.BEP20', at + 4_000);
      payDeposit(services, other.transId, undefined, at + 5_000);
      buyPackage(services, direct, 'Silver', at + 6_000); // direct and level income for busy
    }
    for (const wallet of REWARD_WALLETS) {
      const balance = walletBalance(services, busy, wallet);
      if (balance > 0) swapWallets(services, busy, wallet, 'Withdrawal', balance, at + 7_000);
    }
    const amount = amountToMicros(20 + (k % 7));
    if (walletBalance(services, busy, 'Withdrawal') >= amount) {
      const withdrawal = requestWithdrawal(services, busy, amount, ADDRESS, at + 8_000);
      if (k % 3 !== 2) decided.push(withdrawal.transId);
    }
  }
  expect(decided.length).toBeGreaterThan(rounds / 3);
  // Some approved, some rejected, a third left PENDING: each shows in Status.
  decided.forEach((transId, k) =>
    decideWithdrawal(services, transId, k % 2 ? 'approve' : 'reject', clock.now() - DAY),
  );
  const from = clock.now();
  clock.set(from + 2 * DAY);
  runDueJobs(services, from, from + 2 * DAY);
  return busy;
}

// Each test compares every member's history both ways (tens of thousands of queries, ~10 s alone): a
// generous limit, as the re-seeding tests have, for runs beside the browser tests (no timing is asserted).
describe('earning history and page counts (in memory)', { timeout: 120_000 }, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'demo' });
  });
  afterAll(() => t.close());

  it('answer what the previous queries answered for every member of demo', () => {
    const { members, queries } = compareAll(t.services);
    expect(members).toBeGreaterThan(100);
    expect(queries).toBeGreaterThan(members * 20);
  });

  it("stay equal after demo's pending withdrawals are decided and a busy member adds hundreds of rows", () => {
    const pending = t.services.sqlite
      .prepare("select trans_id from withdrawals where status = 'PENDING' order by id")
      .all() as { trans_id: string }[];
    expect(pending.length).toBeGreaterThan(1);
    // Before the decision the history shows Pending; after it, Rejected (or Success once approved).
    const demo = (
      t.services.sqlite.prepare("select id from members where username = 'demo'").get() as { id: number }
    ).id;
    const statusOf = (transId: string) =>
      (
        JSON.parse(
          call(t.services, demo, 'earning.view_all_earning_history', {
            pageNo: 1,
            pageSize: 10,
            search: [transId],
          }),
        ).Success as { Type: string; Status: string }[]
      ).find((row) => row.Type === 'Withdrawal Request')?.Status;
    const mine = pending.filter((p) => statusOf(p.trans_id) === 'Pending');
    expect(mine.length).toBeGreaterThan(0);
    pending.forEach((p, k) => decideWithdrawal(t.services, p.trans_id, k % 2 ? 'approve' : 'reject'));
    for (const p of mine) expect(statusOf(p.trans_id)).toBe(pending.indexOf(p) % 2 ? 'Success' : 'Rejected');

    const busy = busyMember(t.services, t.clock, 'busy_earner', 120);
    const rows = JSON.parse(
      call(t.services, busy, 'earning.total_pagination_earning_history', { pageNo: 1, pageSize: 1 }),
    ).Success as number;
    expect(rows).toBeGreaterThan(700);
    compareAll(t.services);
  });

  it('stay equal after a snapshot restore (the copy carries the entries and counts, with the triggers off)', async () => {
    expect((await t.post('/__qa/snapshots', { name: 'entries' })).status).toBe(201);
    busyMember(t.services, t.clock, 'after_snapshot', 10);
    expect((await t.post('/__qa/snapshots/entries/restore')).status).toBe(200);
    expect(
      t.services.sqlite.prepare("select count(*) as n from members where username = 'after_snapshot'").get(),
    ).toEqual({ n: 0 });
    compareAll(t.services);
  });
});

describe('a database of the previous main', () => {
  // Seeds the demo, strips and migrates it: a generous limit, as the other re-seeding tests have (no timing is asserted).
  it('migrates to the same earning history and page counts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-earning-entries-'));
    try {
      const path = join(dir, 'old.sqlite');
      const clock = manualClock();
      const built = await buildApp(await fromTemplate({ databasePath: path, seed: 'demo', clock }));
      busyMember(built.services, clock, 'old_busy', 30);
      await built.fastify.close();

      // What the previous main left: the same rows without migration 0008's tables, triggers and record
      // (and without the later migrations').
      const old = new Database(path);
      undoMigrationsAfter(old, '0008_earning_entries');
      const hash = old
        .prepare('select hash from __drizzle_migrations order by created_at desc limit 1')
        .get() as { hash: string };
      for (const { name } of old
        .prepare(
          "select name from sqlite_master where type = 'trigger' and (sql like '%earning_entries%' or sql like '%table_rows%')",
        )
        .all() as { name: string }[])
        old.exec(`drop trigger if exists "${name}"`);
      old.exec('drop table earning_entries; drop table table_rows');
      old.prepare('delete from __drizzle_migrations where hash = ?').run(hash.hash);
      expect(old.prepare("select count(*) as n from sqlite_master where type = 'trigger'").get()).toEqual({
        n: 1,
      }); // 0005's, which stays
      old.close();

      const app = await buildApp({ databasePath: path, seed: 'demo', clock });
      try {
        expect(app.seeded).toBeNull();
        const { members } = compareAll(app.services);
        expect(members).toBeGreaterThan(100);
        // And it keeps them from then on.
        busyMember(app.services, clock, 'new_busy', 5);
        compareAll(app.services);
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
