/**
 * Answers of reads kept per member until a write touches that member.
 *
 * Writes by this connection: TEMP triggers (they fire for this connection's writes only) on every
 * table a kept answer can depend on call a JS function registered on the connection with the
 * member ids the row names, synchronously, inside the write. A row with a `member_id` drops that
 * member's answers; a transfer drops the members of both accounts, and a row naming an account
 * (its monthly credits) the account's member; a member row drops that member, and a new username
 * (shown in other members' tables and profiles) drops everything, as does any write to a table
 * that names no member (over-invalidation is safe, a stale answer is not). The tables no kept answer reads are listed in UNREAD_TABLES.
 *
 * Commits by other connections: the daily-run worker bumps a shared counter after each commit
 * (watchCommitCounter; engine/runner.ts) and a get that sees it moved drops everything. Any other
 * process writing the same file is seen through `data_version`, checked at most every
 * `foreignCheckMs` (FOREIGN_CHECK_MS unless configured): such a writer (a second server, a
 * script) may be answered up to that long after its commit. A QA restore or reset drops
 * everything (rewriteAll, which also sets the triggers aside while it rewrites).
 *
 * So a hit costs no database call, and no JSON once its answer has been sent (core/answer-json.ts).
 * Inside a transaction nothing is cached (what is read there may be rolled back); a value whose
 * computation saw a write is not kept; promises are never kept.
 * Keys must carry everything else the value depends on (input, month).
 */
import type Database from 'better-sqlite3';
import { keepAnswerJson } from './answer-json.ts';
import { prepared, quoteIdentifier as quote } from './prepared.ts';
import { UseOrder, type Placed } from './use-order.ts';

/** How often, at most, `data_version` is read to see commits by other processes. */
export const FOREIGN_CHECK_MS = 100;

/**
 * Tables no kept answer reads (engine state, mail, throttles): their writes drop nothing.
 * (Sessions are read by the token check's cache, kept from `sessions` alone: a sign-in, a sign-out
 * or a last-seen write drops that member's session rows, not their other answers.)
 */
const UNREAD_TABLES = new Set([
  'clock_state',
  'mail_outbox',
  'meta',
  'otps',
  'throttles',
  'job_runs',
  'binary_stats',
]);

const TOUCH_MEMBER = 'md_read_cache_touch_member';
const TOUCH_ALL = 'md_read_cache_touch_all';

/** A member's kept answers, and when the member was last put at the back of the eviction order. */
interface Kept extends Placed {
  answers: Map<string, unknown>;
}

interface Store {
  /**
   * Each member's kept answers (`order.entries`), in eviction order: least recently read first, to
   * within half the store.
   */
  order: UseOrder<number, Kept>;
  size: number;
  /** The only tables its values are read from (createReadCache's `tables`); every table when undefined. */
  tables: ReadonlySet<string> | undefined;
}

interface Watch {
  stores: Set<Store>;
  /** Moves with every touch: a value computed while it moved is not kept. */
  writes: number;
  counters: { cells: Int32Array; index: number; seen: number }[];
  foreignCheckMs: number;
  checkedAt: number;
  dataVersion: number;
}

const watches = new WeakMap<Database.Database, Watch>();

/** The TEMP triggers of one table: what each insert, update and delete touches. */
function triggersOf(table: string, columns: Set<string>): string[] {
  const on = `main.${quote(table)}`;
  const name = (op: string) => quote(`md_read_cache_${table}_${op}`);
  const all = `select ${TOUCH_ALL}();`;
  // The member and the table written: a store kept from other tables only keeps its values.
  const TOUCH = (member: string) => `${TOUCH_MEMBER}(${member}, '${table.replaceAll("'", "''")}')`;
  let insert: string, update: string, remove: string;
  if (table === 'members') {
    insert = `select ${TOUCH('NEW.id')}, ${TOUCH('NEW.sponsor_id')}, ${TOUCH('NEW.parent_id')};`;
    update = `select ${TOUCH('OLD.id')}, ${TOUCH('NEW.id')}, ${TOUCH('OLD.sponsor_id')}, ${TOUCH('NEW.sponsor_id')};
      select ${TOUCH_ALL}() where OLD.username is not NEW.username or OLD.id is not NEW.id;`;
    remove = all;
  } else if (table === 'transfers') {
    const of = (row: string) =>
      `select ${TOUCH('member_id')} from main.accounts where id in (${row}.from_account_id, ${row}.to_account_id);
       select ${TOUCH(`${row}.member_id`)}, ${TOUCH(`${row}.counterparty_member_id`)};`;
    insert = of('NEW');
    update = `${of('OLD')} ${of('NEW')}`;
    remove = of('OLD');
  } else if (columns.has('account_id')) {
    // An account's rows (its monthly credits) drop the account's member.
    const of = (row: string) =>
      `select ${TOUCH('member_id')} from main.accounts where id = ${row}.account_id;`;
    insert = of('NEW');
    update = `${of('OLD')} ${of('NEW')}`;
    remove = of('OLD');
  } else if (columns.has('member_id')) {
    insert = `select ${TOUCH('NEW.member_id')};`;
    update = `select ${TOUCH('OLD.member_id')}; select ${TOUCH('NEW.member_id')} where NEW.member_id is not OLD.member_id;`;
    remove = `select ${TOUCH('OLD.member_id')};`;
  } else {
    insert = update = remove = all;
  }
  return [
    `create temp trigger if not exists ${name('insert')} after insert on ${on} begin ${insert} end`,
    `create temp trigger if not exists ${name('update')} after update on ${on} begin ${update} end`,
    `create temp trigger if not exists ${name('delete')} after delete on ${on} begin ${remove} end`,
  ];
}

function dropMember(watch: Watch, member: number, table: string) {
  watch.writes++;
  for (const store of watch.stores) {
    if (store.tables && !store.tables.has(table)) continue;
    const kept = store.order.entries.get(member);
    if (kept) {
      store.size -= kept.answers.size;
      store.order.entries.delete(member);
    }
  }
}

function dropAll(watch: Watch) {
  watch.writes++;
  for (const store of watch.stores) {
    store.order.entries.clear();
    store.size = 0;
  }
}

function installTriggers(sqlite: Database.Database): void {
  const tables = sqlite
    .prepare(
      "select name from main.sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'",
    )
    .pluck()
    .all() as string[];
  sqlite.transaction(() => {
    for (const table of tables) {
      if (UNREAD_TABLES.has(table)) continue;
      const columns = new Set(
        (sqlite.pragma(`main.table_info(${quote(table)})`) as { name: string }[]).map((c) => c.name),
      );
      for (const sql of triggersOf(table, columns)) sqlite.exec(sql);
    }
  })();
}

/** The connection's watch: registered functions and triggers installed on first use. */
function watchOf(sqlite: Database.Database): Watch {
  let watch = watches.get(sqlite);
  if (watch) return watch;
  const created: Watch = {
    stores: new Set(),
    writes: 0,
    counters: [],
    foreignCheckMs: FOREIGN_CHECK_MS,
    checkedAt: Date.now(),
    dataVersion: 0,
  };
  // directOnly: callable from top-level SQL and TEMP triggers only, never from the file's own schema.
  sqlite.function(
    TOUCH_MEMBER,
    { deterministic: false, directOnly: true },
    (member: unknown, table: unknown) => {
      const from = String(table);
      if (typeof member === 'number') dropMember(created, member, from);
      else if (typeof member === 'bigint') dropMember(created, Number(member), from);
      else if (member !== null) dropAll(created);
      return null;
    },
  );
  sqlite.function(TOUCH_ALL, { deterministic: false, directOnly: true }, () => {
    dropAll(created);
    return null;
  });
  installTriggers(sqlite);
  created.dataVersion = dataVersion(sqlite);
  watches.set(sqlite, (watch = created));
  return watch;
}

const dataVersion = (sqlite: Database.Database) =>
  prepared(sqlite, 'pragma data_version').pluck().get() as number;

/** Drops every kept answer of this connection (a restore or reset replaced the database, or something wrote around the triggers). */
export function dropAllReadCaches(sqlite: Database.Database): void {
  const watch = watches.get(sqlite);
  if (watch) dropAll(watch);
}

/**
 * Runs a rewrite of the whole database (a QA reset) with the TEMP triggers set aside, then drops
 * every kept answer: each row would otherwise call into JS, ~a third of a demo reset's time.
 */
export function rewriteAll<T>(sqlite: Database.Database, rewrite: () => T): T {
  const watch = watches.get(sqlite);
  if (!watch) return rewrite();
  const triggers = sqlite
    .prepare("select name from temp.sqlite_master where type = 'trigger' and name like 'md_read_cache_%'")
    .pluck()
    .all() as string[];
  for (const name of triggers) sqlite.exec(`drop trigger temp.${quote(name)}`);
  try {
    return rewrite();
  } finally {
    installTriggers(sqlite);
    dropAll(watch);
  }
}

/**
 * Another connection to the same file in this process (the daily-run worker) counts its commits
 * in `cells[index]` (Atomics.add after each commit): a get that sees the count moved drops
 * everything, with no database call.
 */
export function watchCommitCounter(sqlite: Database.Database, cells: Int32Array, index: number): void {
  const watch = watchOf(sqlite);
  watch.counters.push({ cells, index, seen: Atomics.load(cells, index) });
}

/** How often, at most, this connection reads `data_version` for other processes' commits (0: every get). */
export function setForeignCheckMs(sqlite: Database.Database, ms: number): void {
  watchOf(sqlite).foreignCheckMs = ms;
}

/** Drops everything when another connection committed: the worker's counters always, data_version now and then. */
function checkOthers(sqlite: Database.Database, watch: Watch) {
  for (const counter of watch.counters) {
    const now = Atomics.load(counter.cells, counter.index);
    if (now !== counter.seen) {
      counter.seen = now;
      dropAll(watch);
    }
  }
  const now = Date.now();
  if (now - watch.checkedAt >= watch.foreignCheckMs || now < watch.checkedAt) {
    watch.checkedAt = now;
    const version = dataVersion(sqlite);
    if (version !== watch.dataVersion) {
      watch.dataVersion = version;
      dropAll(watch);
    }
  }
}

/** Drops the least recently read members, but `member`, until the store is under `maxEntries`. */
function evictOthers(store: Store, member: number, maxEntries: number) {
  while (store.size >= maxEntries) {
    const evicted = store.order.evict(member);
    if (!evicted) return;
    store.size -= evicted[1].answers.size;
  }
}

export interface ReadCache<V> {
  /** The kept answer of `member` under `key`, or compute()'s (kept when it is safe to). */
  get(sqlite: Database.Database, member: number, key: string, compute: () => V): V;
}

/**
 * A cache of at most `maxEntries` answers per connection; past that the least recently read members'
 * answers go first. With `tables`, its values are read from those tables only: a write to a member's
 * rows elsewhere keeps them (the token check's member and session rows outlive the member's money moves).
 */
export function createReadCache<V>(
  maxEntries: number,
  options: { tables?: readonly string[] } = {},
): ReadCache<V> {
  const tables = options.tables && new Set(options.tables);
  const stores = new WeakMap<Database.Database, Store>();
  return {
    get(sqlite, member, key, compute) {
      if (sqlite.inTransaction) return compute();
      const watch = watchOf(sqlite);
      checkOthers(sqlite, watch);
      let store = stores.get(sqlite);
      if (!store) {
        stores.set(sqlite, (store = { order: new UseOrder(), size: 0, tables }));
        watch.stores.add(store);
      }
      const kept = store.order.entries.get(member);
      if (kept?.answers.has(key)) {
        store.order.used(member, kept);
        return kept.answers.get(key) as V;
      }
      const writes = watch.writes;
      const value = compute();
      // compute() may write (a read that settles what fell due): then the value may be older than the write.
      if (watch.writes !== writes || value instanceof Promise) return value;
      if (store.size >= maxEntries) {
        // Full: the members least recently read go first, then this member's own oldest answers.
        evictOthers(store, member, maxEntries);
        if (kept)
          for (const old of kept.answers.keys()) {
            if (store.size < maxEntries) break;
            kept.answers.delete(old);
            store.size--;
          }
      }
      if (kept) {
        store.order.used(member, kept);
        kept.answers.set(key, value);
      } else store.order.add(member, { answers: new Map([[key, value]]), at: 0 });
      store.size++;
      keepAnswerJson(value);
      return value;
    },
  };
}
