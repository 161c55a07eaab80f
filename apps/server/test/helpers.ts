/** Test harness: a fresh in-memory app per file (a seeded one copied from its template), driven over HTTP with fastify.inject. */
import { solveChallenge } from 'altcha-lib';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { InjectOptions } from 'fastify';
import { MIGRATIONS_DIR } from '@md/db';
import {
  createQaClient,
  type QaFetch,
  type WorldCalls,
  type WorldInfo,
  type WorldOptions,
  type WorldSource,
} from '@md/qa-client';
import { buildApp, type App, type BuildOptions } from '../src/app.ts';
import { manualClock, type Clock } from '../src/core/clock.ts';
import {
  CREDIT_NOTICES,
  memberNotices,
  roiCreditNoticeTextSql,
  type Notice,
} from '../src/modules/notifications/notices.ts';
import { fromTemplate } from './templates.ts';

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export async function createTestApp(options: BuildOptions & { seed: 'demo' | 'empty' }) {
  const clock: Clock = options.clock ?? manualClock();
  const app = await buildApp(
    await fromTemplate({ databasePath: ':memory:', examplesFile: inject('examplesFile'), ...options, clock }),
  );
  const { fastify } = app;
  let ipCounter = 0;

  async function post<T = Record<string, unknown>>(
    url: string,
    payload?: unknown,
    opts: { token?: string; ip?: string; raw?: string } = {},
  ): Promise<Reply<T>> {
    const response = await fastify.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
      payload: opts.raw ?? JSON.stringify(payload ?? {}),
      remoteAddress: opts.ip ?? '127.0.0.1',
    });
    return { status: response.statusCode, body: response.json() as T };
  }

  async function get<T = unknown>(url: string): Promise<Reply<T>> {
    const response = await fastify.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json() as T };
  }

  /** tRPC call: GET for queries, POST for mutations; answers the HTTP status and the JSON. */
  async function trpc(
    name: string,
    kind: 'query' | 'mutation',
    input: unknown,
    token?: string,
  ): Promise<Reply> {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const response =
      kind === 'query'
        ? await fastify.inject({
            method: 'GET',
            url: `/trpc/${name}?input=${encodeURIComponent(JSON.stringify(input))}`,
            headers,
          })
        : await fastify.inject({
            method: 'POST',
            url: `/trpc/${name}`,
            headers: { ...headers, 'content-type': 'application/json' },
            payload: JSON.stringify(input),
          });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  }

  async function login(username: string, password = 'Demo@1234', totp?: string): Promise<string> {
    // A fresh address per sign-in keeps the login rate limit out of tests that are not about it.
    const reply = await post<{ JWT?: string; Error?: string }>(
      '/user/login',
      { username, password, totp },
      { ip: `10.0.0.${++ipCounter % 250}` },
    );
    if (!reply.body.JWT) throw new Error(`login ${username} failed: ${reply.status} ${reply.body.Error}`);
    return reply.body.JWT;
  }

  interface MailItem {
    to: string;
    subject: string;
    text: string;
    otp: string | null;
    sentAt: string;
  }
  async function mailbox(to: string): Promise<MailItem[]> {
    return (await get<MailItem[]>(`/__qa/mailbox?to=${encodeURIComponent(to)}`)).body;
  }
  async function latestOtp(to: string): Promise<string> {
    const otp = (await mailbox(to)).find((m) => m.otp)?.otp;
    if (!otp) throw new Error(`no OTP mailed to ${to}`);
    return otp;
  }

  const count = (table: string) =>
    (app.services.sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;

  return {
    app,
    fastify,
    services: app.services,
    clock,
    post,
    get,
    trpc,
    login,
    mailbox,
    latestOtp,
    count,
    close: () => fastify.close(),
  };
}

/** A wrong code that differs from `code` (for wrong-try tests). */
export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** Solves an ALTCHA challenge the way the browser widget does and answers the payload it submits. */
export async function solveCaptcha(get: TestApp['get']): Promise<string> {
  const { body } = await get<{
    algorithm: string;
    challenge: string;
    salt: string;
    signature: string;
    maxnumber: number;
  }>('/captcha/challenge');
  const solution = await solveChallenge(body.challenge, body.salt, body.algorithm, body.maxnumber).promise;
  if (!solution) throw new Error('captcha not solved');
  const payload = {
    algorithm: body.algorithm,
    challenge: body.challenge,
    number: solution.number,
    salt: body.salt,
    signature: body.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** The ledger's invariants through QA: balanced, no negative member wallet, every wallet equals its transfers. */
export async function expectLedgerSound(t: TestApp) {
  const { expect } = await import('vitest');
  const check = await t.get<{ balanced: boolean; negativeWallets: unknown[]; mismatchedWallets: unknown[] }>(
    '/__qa/ledger/check',
  );
  expect(check.status).toBe(200);
  expect(check.body).toMatchObject({ balanced: true, negativeWallets: [], mismatchedWallets: [] });
}

/** Every balance and running total plus the row counts of the money tables: a refused operation must leave it equal. */
export function moneySnapshot(t: TestApp) {
  const balances = t.services.sqlite
    .prepare('select id, balance, debits_posted, credits_posted from accounts order by id')
    .all();
  const months = t.services.sqlite.prepare('select * from account_months order by account_id, month').all();
  const counts = ['transfers', 'subscriptions', 'withdrawals', 'deposits'].map((table) => t.count(table));
  const statuses = t.services.sqlite
    .prepare(
      'select group_concat(status) as s from (select status from deposits union all select status from withdrawals)',
    )
    .get();
  return JSON.stringify({ balances, months, counts, statuses });
}

export const memberIdOf = (t: TestApp, username: string) =>
  (t.services.sqlite.prepare('select id from members where username = ?').get(username) as { id: number }).id;

/** SQL that takes away what each migration added, for the migrations whose additions a test may take away. */
/** A purchase's direct and level income credits (`t`, into `a`) and their notices, in SQL (notices.ts). */
const purchaseKinds = CREDIT_NOTICES.filter((kind) => kind.reason !== 'roi');
const purchaseIncome = {
  credits: `(${purchaseKinds.map((kind) => `(${kind.credit} and a.wallet = '${kind.wallet}')`).join(' or ')})`,
  type: `case t.reason ${purchaseKinds.map((kind) => `when '${kind.reason}' then '${kind.type}'`).join(' ')} end`,
  text: `case t.reason ${purchaseKinds.map((kind) => `when '${kind.reason}' then ${kind.text('t.amount', 't.trans_id', 't.counterparty_member_id')}`).join(' ')} end`,
};

const UNDO: Record<string, string> = {
  '0009_running_totals':
    'drop table account_months; alter table accounts drop column debits_posted; alter table accounts drop column credits_posted; drop index deposits_open',
  '0010_sessions': 'drop table sessions',
  '0011_notification_preferences': 'drop table notification_preferences',
  '0012_withdrawal_tx_hash': 'alter table withdrawals drop column tx_hash',
  // Rows it rewrote stay rewritten: run again, it finds none left to rewrite.
  '0013_volume_rows_per_leg': '',
  '0014_transfers_member_time_dropped':
    'create index transfers_member_time on transfers (member_id, created_at)',
  '0015_idempotency_keys': 'drop table idempotency_keys',
  '0016_withdrawal_reject_reason': 'alter table withdrawals drop column reject_reason',
  '0017_web_push':
    'drop table push_outbox; drop table push_subscriptions; alter table notification_preferences drop column phone',
  // The previous main stored every ROI payout's notice: written back from the credits, in their order.
  '0018_roi_notices_from_ledger': `insert into notifications (member_id, type, message, trans_id, created_at)
    select a.member_id, 'ROI_Income', ${roiCreditNoticeTextSql('t.amount', 't.trans_id')}, t.trans_id, t.created_at
      from transfers t join accounts a on a.id = t.to_account_id
     where t.reason = 'roi' and not exists (select 1 from notices_withheld w where w.member_id = a.member_id and w.trans_id = t.trans_id)
     order by t.id;
    drop table notices_withheld`,
  // The previous main stored a purchase's direct and level income notices: written back from the credits.
  '0019_purchase_income_notices_from_ledger': `insert into notifications (member_id, type, message, trans_id, created_at)
    select a.member_id, ${purchaseIncome.type}, ${purchaseIncome.text}, t.trans_id, t.created_at
      from transfers t join accounts a on a.id = t.to_account_id
     where ${purchaseIncome.credits} and not exists (select 1 from notices_withheld w where w.member_id = a.member_id and w.trans_id = t.trans_id)
     order by t.id;
    delete from notices_withheld where exists (select 1 from transfers t join accounts a on a.id = t.to_account_id
     where t.trans_id = notices_withheld.trans_id and a.member_id = notices_withheld.member_id and ${purchaseIncome.credits})`,
  '0020_row_text': `drop trigger deposits_row_json; drop trigger deposits_row_json_update; drop trigger level_incomes_row_json;
    drop trigger rank_rewards_row_json; alter table deposits drop column row_json;
    alter table level_incomes drop column row_json; alter table rank_rewards drop column row_json`,
};

const tableNames = (db: Database.Database) =>
  db
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name <> '__drizzle_migrations' order by name",
    )
    .pluck()
    .all() as string[];

/** Each table's columns, in order: what tableContents should read of a database a later migration gave columns. */
export function tableColumns(db: Database.Database): Record<string, string[]> {
  return Object.fromEntries(
    tableNames(db).map((table) => [
      table,
      db.prepare(`select name from pragma_table_info(?)`).pluck().all(table) as string[],
    ]),
  );
}

/**
 * Every member's notices as their list shows them. Before migration 0018 they are the stored rows;
 * since, an ROI payout's notice is read from its credit (notices.ts), and since 0019 a purchase's
 * direct and level income's too, so the table alone no longer says what a member sees.
 */
function noticeLists(db: Database.Database): [member: number, notices: unknown[]][] {
  const fromCredits = db.prepare("select 1 from sqlite_master where name = 'notices_withheld'").get();
  const members = (
    db
      .prepare('select distinct member_id from notifications union select id from members')
      .pluck()
      .all() as number[]
  ).sort((a, b) => a - b);
  if (!fromCredits) return members.map((member) => [member, storedNotices(db, member)]);
  // Between 0018 and 0019 only the ROI notices came from credits: the purchases' are read as stored,
  // their credits withheld for this reading only (rolled back).
  const lists = () =>
    members.map((member): [number, unknown[]] => [member, memberNotices({ sqlite: db }, member, 1e9)]);
  if (applied(db, '0019_purchase_income_notices_from_ledger')) return lists();
  db.exec('savepoint notice_lists');
  try {
    db.exec(`insert or ignore into notices_withheld (member_id, trans_id)
      select a.member_id, t.trans_id from transfers t join accounts a on a.id = t.to_account_id
       where a.member_id is not null and ${purchaseIncome.credits}`);
    return lists();
  } finally {
    db.exec('rollback to notice_lists; release notice_lists');
  }
}

/** A member's stored notices, newest first: their whole list before migration 0018. */
export const storedNotices = (db: Database.Database, member: number): Notice[] =>
  db
    .prepare(
      'select type, message, trans_id as transId, created_at as createdAt from notifications where member_id = ? order by created_at desc, id desc',
    )
    .all(member) as Notice[];

/** Whether the database has had migration `tag` (its record in __drizzle_migrations). */
function applied(db: Database.Database, tag: string): boolean {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const when = journal.entries.find((entry) => entry.tag === tag)?.when;
  if (when === undefined) throw new Error(`no migration ${tag}`);
  return db.prepare('select 1 from __drizzle_migrations where created_at >= ?').get(when) !== undefined;
}

/**
 * Each table's row count and a digest of its rows in rowid order (every column, or only `columns`
 * of the tables named there: an upgrade that adds columns compares what the old database had).
 * `notifications` stands for every member's list of notices (noticeLists), so an upgrade test
 * compares what members see across migrations 0018 and 0019; its notices_withheld is left out.
 */
export function tableContents(
  db: Database.Database,
  columns?: Record<string, readonly string[]>,
): Record<string, { rows: number; digest: string }> {
  const digestOf = (rows: unknown[]) => createHash('sha256').update(JSON.stringify(rows)).digest('hex');
  return Object.fromEntries(
    tableNames(db)
      .filter((table) => table !== 'notices_withheld')
      .map((table) => {
        if (table === 'notifications') {
          const lists = noticeLists(db);
          const rows = lists.reduce((n, [, list]) => n + list.length, 0);
          return [table, { rows, digest: digestOf(lists) }];
        }
        const only = columns?.[table];
        const list = only ? only.map((c) => `"${c}"`).join(', ') : '*';
        const rows = db.prepare(`select ${list} from "${table}"`).raw().all();
        return [table, { rows: rows.length, digest: digestOf(rows) }];
      }),
  );
}

/**
 * Makes a database the current code built read as one an earlier main left with every migration up
 * to `tag` applied: the later migrations' tables, columns and indexes taken away and their records
 * deleted, so opening it runs them again. For upgrade tests that seed with today's code.
 */
export function undoMigrationsAfter(db: Database.Database, tag: string): void {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  if (cut < 0) throw new Error(`no migration ${tag}`);
  for (const entry of journal.entries.slice(cut + 1).reverse()) {
    const undo = UNDO[entry.tag];
    if (undo === undefined) throw new Error(`no undo for migration ${entry.tag}: add it to UNDO`);
    if (undo) db.exec(undo);
  }
  db.prepare('delete from __drizzle_migrations where created_at > ?').run(journal.entries[cut]!.when);
}

/**
 * A demo database at `path` as the main that shipped migration `tag` left it (later migrations
 * undone, as undoMigrationsAfter does), and its contents then: an upgrade test's starting point.
 * `check` looks at the old file before it is closed.
 */
export async function previousMainDemo(
  path: string,
  tag: string,
  check?: (old: Database.Database) => void,
): Promise<{
  clock: Clock;
  before: ReturnType<typeof tableContents>;
  /** The old database's columns per table, for tableContents after the upgrade. */
  columns: ReturnType<typeof tableColumns>;
}> {
  const clock = manualClock();
  const built = await buildApp(await fromTemplate({ databasePath: path, seed: 'demo', clock }));
  await built.fastify.close();
  const old = new Database(path);
  try {
    undoMigrationsAfter(old, tag);
    check?.(old);
    return { clock, before: tableContents(old), columns: tableColumns(old) };
  } finally {
    old.close();
  }
}

/**
 * A copy of drizzle/ with every migration before `tag` (what an earlier main shipped), in `dir`;
 * answers its folder, how many migrations it holds and how many there are in all. For upgrade tests.
 */
export function migrationsBefore(tag: string, dir: string): { folder: string; before: number; all: number } {
  const folder = join(dir, 'drizzle');
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const all = journal.entries.length;
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  if (cut < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries)
    copyFileSync(join(MIGRATIONS_DIR, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  return { folder, before: cut, all };
}

/** A world as POST /__qa/worlds answers it. */
export type CreatedWorld = WorldInfo;

/** Statuses whose answer has no body, which a Response refuses to carry one for. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * fetch over fastify.inject, for the QA client (@md/qa-client): its calls reach the app in this
 * process, as the harness's own do, with no port to open, and each from the address `from` gives.
 */
export function injectFetch(fastify: App['fastify'], from: () => string = () => '127.0.0.1'): QaFetch {
  return async (request) => {
    const { pathname, search } = new URL(request.url);
    const payload = Buffer.from(await request.arrayBuffer());
    const reply = await fastify.inject({
      method: request.method as InjectOptions['method'],
      url: pathname + search,
      headers: Object.fromEntries(request.headers),
      ...(payload.length > 0 ? { payload } : {}),
      remoteAddress: from(),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(reply.headers))
      for (const one of [value ?? []].flat()) headers.append(name, String(one));
    return new Response(NO_BODY.has(reply.statusCode) ? null : new Uint8Array(reply.rawPayload), {
      status: reply.statusCode,
      headers,
    });
  };
}

/** Calls into one world (or the default one without `world`) over the inject transport. */
export function worldCaller(fastify: App['fastify']) {
  let ip = 0;
  // A fresh address per call keeps the per-client world cap out of tests that are not about it.
  const nextAddress = () => `10.1.0.${++ip % 250}`;
  const qa = createQaClient({ baseUrl: 'http://localhost', fetch: injectFetch(fastify, nextAddress) });
  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    opts: {
      world?: string;
      body?: unknown;
      token?: string;
      cookie?: string;
      ip?: string;
      headers?: Record<string, string>;
    } = {},
  ) => {
    const response = await fastify.inject({
      method,
      url,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.world ? { 'x-qa-world': opts.world } : {}),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
        ...opts.headers,
      },
      ...(opts.body !== undefined ? { payload: JSON.stringify(opts.body) } : {}),
      remoteAddress: opts.ip ?? nextAddress(),
    });
    const text = response.body;
    return {
      status: response.statusCode,
      headers: response.headers,
      body: (text ? JSON.parse(text) : null) as T,
    };
  };
  const login = async (world: string | undefined, username = 'demo') => {
    const reply = await call<{ JWT?: string; Error?: string }>('POST', '/user/login', {
      world,
      body: { username, password: 'Demo@1234' },
    });
    if (!reply.body.JWT) throw new Error(`login failed in ${world}: ${reply.status} ${reply.body.Error}`);
    return reply.body.JWT;
  };
  /** A new world (a declared state's build awaited), as the server answered it. */
  const create = async ({ name, clientMode, ttlMinutes, ...source }: WorldSource & WorldOptions) =>
    (await qa.createWorld(source, { name, clientMode, ttlMinutes })).info;
  /** The QA client's calls in `world`, or in the default world without it. */
  const qaIn = (world?: string): WorldCalls => (world ? qa.world(world) : qa.defaultWorld);
  return { call, login, create, qa, qaIn };
}

/** mulberry32: a seeded random in [0, 1) (kill tests draw their kill points with it, replayable by seed). */
export function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let r = Math.imul(s ^ (s >>> 15), 1 | s);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4_294_967_296;
  };
}
