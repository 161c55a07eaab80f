/** Queries prepared once per database: building a query's SQL costs more than running it on the hot reads. */
import type Database from 'better-sqlite3';
import type { Db } from '@md/db';

export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) built.set(db, (value = build(db)));
    return value;
  };
}

/** Prepared statements cached per connection: the daily runs call these per member, the read caches per get. */
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
export function prepared(sqlite: Database.Database, source: string): Database.Statement {
  let bySource = statements.get(sqlite);
  if (!bySource) statements.set(sqlite, (bySource = new Map()));
  let statement = bySource.get(source);
  if (!statement) bySource.set(source, (statement = sqlite.prepare(source)));
  return statement;
}

/** A transaction function per connection that runs the work it is given: better-sqlite3 builds four wrappers for each `transaction(fn)`. */
const runners = new WeakMap<Database.Database, Database.Transaction<(work: () => unknown) => unknown>>();
/** Runs `work` in an IMMEDIATE transaction (a savepoint inside one), through the connection's one transaction function. */
export function immediateTransaction<T>(sqlite: Database.Database, work: () => T): T {
  let runner = runners.get(sqlite);
  if (!runner) runners.set(sqlite, (runner = sqlite.transaction((run: () => unknown) => run())));
  return runner.immediate(work) as T;
}
