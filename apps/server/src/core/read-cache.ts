/**
 * Answers of reads kept until the database changes. `total_changes()` moves with every row this
 * connection writes and `data_version` with every commit by another connection on the same file,
 * so any write anywhere empties a cache: what it answers is always what a fresh read would.
 * Inside a transaction nothing is cached (what is read there may be rolled back).
 * Keys must carry everything else the value depends on (member, input, month).
 */
import type Database from 'better-sqlite3';
import { prepared } from '../modules/ledger/sql.ts';

const VERSION_SQL = "select (select data_version from pragma_data_version) || '/' || total_changes()";

export interface ReadCache<V> {
  get(sqlite: Database.Database, key: string, compute: () => V): V;
}

export function createReadCache<V>(maxEntries: number): ReadCache<V> {
  const caches = new WeakMap<Database.Database, { version: string; values: Map<string, V> }>();
  return {
    get(sqlite, key, compute) {
      if (sqlite.inTransaction) return compute();
      const version = prepared(sqlite, VERSION_SQL).pluck().get() as string;
      let cache = caches.get(sqlite);
      if (!cache || cache.version !== version || cache.values.size >= maxEntries) caches.set(sqlite, (cache = { version, values: new Map() }));
      if (cache.values.has(key)) return cache.values.get(key)!;
      const value = compute();
      // compute() may write (a read that settles what fell due): then the version moved and the
      // value belongs to the new one.
      const after = prepared(sqlite, VERSION_SQL).pluck().get() as string;
      // A promise is never kept: it may yet fail.
      if (after === version && !(value instanceof Promise)) cache.values.set(key, value);
      return value;
    },
  };
}
