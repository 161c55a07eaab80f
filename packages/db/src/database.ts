/** Open a database file (or :memory:), tune it and apply the migrations in drizzle/. */
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

export interface OpenedDatabase {
  db: Db;
  sqlite: Database.Database;
  /** True when the file did not hold a migrated schema before (it needs seeding). */
  created: boolean;
}

export function openDatabase(path: string): OpenedDatabase {
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // WAL with synchronous=NORMAL survives a killed process but may lose the last commits on a power
  // loss or OS crash; FULL syncs the WAL at every commit, so an answered payment is on disk
  // (cost measured in the README). :memory: has nothing to sync.
  sqlite.pragma(path === ':memory:' ? 'synchronous = NORMAL' : 'synchronous = FULL');
  const created = !sqlite.prepare("select 1 from sqlite_master where type='table' and name='members'").get();
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return { db, sqlite, created };
}
