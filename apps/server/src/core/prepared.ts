/** Queries prepared once per database: building a query's SQL costs more than running it on the hot reads. */
import type Database from 'better-sqlite3';
import type { Db } from '@md/db';

/** What `build` makes of a database (Drizzle's, or a raw connection), made once for each. */
export function perDatabase<T, D extends object = Db>(build: (db: D) => T): (db: D) => T {
  const built = new WeakMap<D, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) built.set(db, (value = build(db)));
    return value;
  };
}

/**
 * Prepared statements cached per connection: the daily runs call these per member, the read caches
 * per get, the tables per page. A table's SQL varies with the filters used and how many values, so
 * a bound (emptied when reached) keeps odd filter lists from growing the cache.
 */
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
const STATEMENT_CACHE_SIZE = 500;
export function prepared<Parameters extends unknown[] | object = unknown[], Row = unknown>(
  sqlite: Database.Database,
  source: string,
): Database.Statement<Parameters, Row> {
  let bySource = statements.get(sqlite);
  if (!bySource) statements.set(sqlite, (bySource = new Map()));
  let statement = bySource.get(source);
  if (!statement) {
    if (bySource.size >= STATEMENT_CACHE_SIZE) bySource.clear();
    bySource.set(source, (statement = sqlite.prepare(source)));
  }
  return statement as unknown as Database.Statement<Parameters, Row>;
}

/**
 * A LIMIT clause with its number written in, never a bound parameter. SQLite (3.53, built with STAT4)
 * looks at a bound LIMIT's value when it plans, so every run of such a statement costs what preparing
 * it again does: measured on a 20,000-member database, a page of deposits 17 → 11 µs with the number
 * written in, a page of earning history 58 → 38 µs. The statements stay few: `prepared` keeps one per
 * text, and the numbers are page sizes. `count` is a whole number; anything else is a server bug.
 */
export function limitSql(count: number): string {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new Error(`A LIMIT must be a whole number, not ${count}`);
  return `limit ${count}`;
}

/** A table's or column's name as an SQL identifier, quoted (a `"` in it doubled). */
export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** A transaction function per connection that runs the work it is given: better-sqlite3 builds four wrappers for each `transaction(fn)`. */
const runners = new WeakMap<Database.Database, Database.Transaction<(work: () => unknown) => unknown>>();
/** The immediateTransaction each connection is inside, and whether work nested in it failed. */
const running = new WeakMap<Database.Database, { nestedFailed: boolean }>();

/** Why a transaction whose nested work failed, and was caught, is rolled back instead of committed. */
export const NESTED_FAILURE_CAUGHT =
  'Work nested in this transaction failed and its caller went on: the transaction is rolled back rather than committed in part.';

/**
 * Runs `work` in an IMMEDIATE transaction, through the connection's one transaction function.
 * Inside another immediateTransaction it runs as part of that one, without a savepoint: a savepoint
 * copies every page the work then changes into a statement journal, which SQLite writes to a temp
 * file past 64 KiB (a purchase's ~40 pages: a quarter of its CPU). What a savepoint gave, a failure
 * undone on its own, is kept safe another way: once nested work has thrown, the outer transaction
 * rolls back even if a caller caught the error, so nothing commits half a move. Inside a
 * transaction opened some other way (a plain `sqlite.transaction`), it is a savepoint as before.
 */
export function immediateTransaction<T>(sqlite: Database.Database, work: () => T): T {
  const outer = running.get(sqlite);
  if (outer) {
    try {
      return work();
    } catch (error) {
      outer.nestedFailed = true;
      throw error;
    }
  }
  let runner = runners.get(sqlite);
  if (!runner) runners.set(sqlite, (runner = sqlite.transaction((run: () => unknown) => run())));
  return runner.immediate(() => {
    const state = { nestedFailed: false };
    running.set(sqlite, state);
    try {
      const done = work();
      if (state.nestedFailed) throw new Error(NESTED_FAILURE_CAUGHT);
      return done;
    } finally {
      running.delete(sqlite);
    }
  }) as T;
}
