/**
 * Rows that carry their text (migration 0020): every deposit, level earning and rank reward row's
 * `row_json` is what JSON.stringify writes for the row as its page shaped it before (the shapes are
 * kept here as the reference), for the demo's rows and the scale scenario's (its seed and its daily
 * runs), for rows added and changed by the app's own writes, for edge amounts, times and text, and on
 * a database of the previous main after it migrates; the pages answer exactly those rows, over REST
 * and tRPC.
 */
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { truncate2 } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import { insertMember } from '../src/modules/auth/members.ts';
import { seedScenario } from '../src/seed/index.ts';
import { createTestApp, previousMainDemo, tableContents, type TestApp } from './helpers.ts';

type Raw = Record<string, unknown>;
const iso = (ms: unknown) => new Date(Number(ms)).toISOString();
const amount = (micros: unknown) => Number(micros) / 1_000_000;

/** Each table's rows as the pages shaped them before their text was stored, newest first per member. */
const REFERENCE = {
  deposits: {
    select: 'select d.*, d.row_json as text from deposits d',
    shape: (r: Raw) => ({
      id: String(r.id),
      amount: truncate2(amount(r.amount)).toFixed(2),
      date: iso(r.created_at),
      status: String(r.status),
      transaction_id: String(r.trans_id),
    }),
  },
  level_incomes: {
    select:
      'select li.*, fm.username as from_user, li.row_json as text from level_incomes li left join members fm on fm.id = li.from_member_id',
    shape: (r: Raw) => ({
      DateTime: iso(r.created_at),
      TransID: String(r.trans_id),
      Transaction_ID: String(r.subscription_trans_id),
      Subs_Amount: amount(r.subs_amount),
      From: r.from_user === null ? '' : String(r.from_user),
      Level: Number(r.level),
      Percentage: Number(r.percentage) / 100,
      Expected_Amount: amount(r.expected_amount),
      Received_Amount: amount(r.received_amount),
    }),
  },
  rank_rewards: {
    select: 'select rr.*, rr.row_json as text from rank_rewards rr',
    shape: (r: Raw) => ({
      DateTime: iso(r.created_at),
      Transaction_ID: String(r.trans_id),
      Current_Rank: String(r.rank),
      Reward: amount(r.reward),
      Status: Boolean(r.status),
    }),
  },
} as const;
type Table = keyof typeof REFERENCE;
const TABLES = Object.keys(REFERENCE) as Table[];

/** The rows of `table` whose text is not their reference JSON, with both; and how many rows were read. */
function mismatches(db: Database.Database, table: Table) {
  const rows = db.prepare(REFERENCE[table].select).all() as Raw[];
  const wrong = rows
    .map((row) => ({ id: row.id, text: row.text, want: JSON.stringify(REFERENCE[table].shape(row)) }))
    .filter((row) => row.text !== row.want);
  return { rows: rows.length, wrong };
}

const DAY = 86_400_000;
// 2000-02-29, the last day of 2099, the last ms of 9999, an hour's last ms, 1970's first ms.
const TIMES = [951_782_400_000, 4_102_358_400_000, 253_402_300_799_999, 1_764_550_799_999, 1];
// Whole units, one micro-unit, a cent, what rounds near a unit, amounts beyond a billion.
const AMOUNTS = [
  1, 9_999, 10_000, 999_999, 1_000_000, 1_500_000, 123_456_789, 100_000_000_001, 9_007_199_254,
];

let t: TestApp;
let member: number;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  // A sponsor's name with what JSON must escape, shown as a level earning's From.
  member = insertMember(t.services, {
    username: 'quote"back\\slash',
    name: 'Edge',
    email: 'edge@example.com',
    country: 'United Kingdom',
    passwordHash: DEMO_PASSWORD_HASH,
    sponsorId: 1,
    side: '1',
    createdAt: 1_000,
  }).id;
});
afterAll(() => t?.close());

describe('the text a row carries', () => {
  it("is its reference JSON on every row of the demo's database", () => {
    for (const table of TABLES) {
      const { rows, wrong } = mismatches(t.services.sqlite, table);
      expect({ table, wrong }).toEqual({ table, wrong: [] });
      expect(rows, table).toBeGreaterThan(5);
    }
  });

  it('is written for edge amounts, times and names, and again when a deposit changes status', () => {
    const db = t.services.sqlite;
    const deposit = db.prepare(
      `insert into deposits (trans_id, member_id, amount, currency, address, status, created_at, expires_at)
       values (?, ?, ?, 'USDT', ?, 'PENDING', ?, ?)`,
    );
    const level = db.prepare(
      `insert into level_incomes (trans_id, member_id, from_member_id, subscription_trans_id, level, percentage, subs_amount, expected_amount, received_amount, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const reward = db.prepare(
      'insert into rank_rewards (trans_id, member_id, rank, reward, status, created_at) values (?, ?, ?, ?, ?, ?)',
    );
    AMOUNTS.forEach((micros, i) => {
      const at = TIMES[i % TIMES.length]!;
      deposit.run(`EDGE${i}`, member, micros, `0xedge${i}`, at, at + DAY);
      level.run(
        `EDGEL${i}`,
        member,
        i % 2 ? member : 999_999,
        `EDGEP${i}`,
        (i % 5) + 1,
        [1, 33, 100, 250, 1000][i % 5],
        micros,
        micros,
        i === 0 ? 0 : micros,
        at,
      );
      reward.run(`EDGER${i}`, member, `Rank "${i}" \\ é\n`, i === 1 ? 0 : micros, i % 2, at);
    });
    db.prepare(
      "update deposits set status = 'EXPIRED' where trans_id like 'EDGE%' and amount < 1000000",
    ).run();
    db.prepare("update deposits set status = 'PAID' where trans_id = 'EDGE5'").run();
    for (const table of TABLES)
      expect({ table, wrong: mismatches(db, table).wrong }).toEqual({ table, wrong: [] });
    expect(db.prepare("select row_json from deposits where trans_id = 'EDGE5'").pluck().get()).toContain(
      '"status":"PAID"',
    );
  });

  it("is what a page answers, newest first, over REST and tRPC, with the next page's cursor", async () => {
    const token = await t.login('demo');
    const demo = t.services.sqlite.prepare("select id from members where username = 'demo'").pluck().get();
    const pages: [string, string, Table, string][] = [
      ['/table/view_deposit_transaction', 'table.view_deposit_transaction', 'deposits', 'd'],
      ['/level/level_earning_transaction', 'level.level_earning_transaction', 'level_incomes', 'li'],
      ['/rank/view_rank_transaction', 'rank.view_rank_transaction', 'rank_rewards', 'rr'],
    ];
    for (const [path, procedure, table, alias] of pages) {
      const rows = (
        t.services.sqlite
          .prepare(
            `${REFERENCE[table].select} where ${alias}.member_id = ? order by ${alias}.created_at desc, ${alias}.id desc`,
          )
          .all(demo) as Raw[]
      ).map((row) => REFERENCE[table].shape(row));
      expect(rows.length, table).toBeGreaterThan(2);
      const rest = await t.post<{ Success: unknown[]; Next_Cursor: string | null }>(
        path,
        { pageNo: 1, pageSize: 2 },
        { token },
      );
      expect(rest.status).toBe(200);
      expect(rest.body.Success).toEqual(rows.slice(0, 2));
      const next = await t.post<{ Success: unknown[] }>(
        path,
        { cursor: rest.body.Next_Cursor, pageSize: 2 },
        { token },
      );
      expect(next.body.Success).toEqual(rows.slice(2, 4));
      const last = await t.post<{ Success: unknown[]; Next_Cursor: string | null }>(
        path,
        { pageNo: 1, pageSize: 100 },
        { token },
      );
      expect(last.body).toEqual({
        Success: rows.slice(0, 100),
        Next_Cursor: rows.length > 100 ? expect.any(String) : null,
      });
      const trpc = await t.fastify.inject({
        method: 'GET',
        url: `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ pageNo: 1, pageSize: 2 }))}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(trpc.json()).toEqual({ result: { data: rest.body } });
    }
  });
});

describe('the scale scenario', () => {
  it('writes every row its text: the seed in bulk, then the daily runs of its last days', async () => {
    const scaled = await createTestApp({ seed: 'empty' });
    try {
      seedScenario(scaled.services, 'scale', { members: 1_500, historyDays: 3 });
      for (const table of TABLES) {
        const { rows, wrong } = mismatches(scaled.services.sqlite, table);
        expect({ table, wrong: wrong.slice(0, 3) }).toEqual({ table, wrong: [] });
        expect(rows, table).toBeGreaterThan(5);
      }
    } finally {
      await scaled.close();
    }
  });
});

describe('a database of the previous main', () => {
  it('gets every row its text, and keeps every row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-row-text-'));
    try {
      const path = join(dir, 'old.sqlite');
      const { clock, before, columns } = await previousMainDemo(
        path,
        '0019_purchase_income_notices_from_ledger',
        (old) => {
          for (const table of TABLES)
            expect(old.prepare('select name from pragma_table_info(?)').pluck().all(table)).not.toContain(
              'row_json',
            );
        },
      );
      const app = await buildApp({ databasePath: path, seed: 'empty', clock });
      try {
        expect(tableContents(app.services.sqlite, columns)).toEqual(before);
        for (const table of TABLES) {
          const { rows, wrong } = mismatches(app.services.sqlite, table);
          expect({ table, wrong }).toEqual({ table, wrong: [] });
          expect(rows).toBe(before[table]!.rows);
        }
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
