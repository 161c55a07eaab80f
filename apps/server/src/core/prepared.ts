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
