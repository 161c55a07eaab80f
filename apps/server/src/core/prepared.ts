/** Drizzle queries prepared once per database: building a query's SQL costs more than running it on the hot reads. */
import type { Db } from '@md/db';

export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) built.set(db, (value = build(db)));
    return value;
  };
}
