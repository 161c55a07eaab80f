/**
 * Open a database file (or :memory:), tune it and apply the migrations in drizzle/.
 *
 * A file database is never created in place of one that was there: beside every file
 * it opens, openDatabase keeps a marker (`<file>.created`); a start that finds the marker, or the
 * file's `-wal`/`-shm`, but not the file itself refuses with MissingDatabaseError instead of
 * creating a new, empty database over what was lost. Replacing a database on purpose means
 * deleting the marker too (scripts/seed.ts does).
 */
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

/** Which file an open database is: a path later naming another inode (or none) is a lost database. */
export interface FileIdentity {
  path: string;
  dev: number;
  ino: number;
}

export interface OpenedDatabase {
  db: Db;
  sqlite: Database.Database;
  /** True when the file did not hold a migrated schema before (a new file, or an empty one). */
  created: boolean;
  /** True when the file was there before this open (always false for :memory:). */
  fileExisted: boolean;
  /** The database file and its WAL as opened (empty for :memory:). */
  files: FileIdentity[];
}

export interface OpenOptions {
  /** false: a missing file is an error (MissingDatabaseError) instead of a new database. */
  create?: boolean;
  /** ':memory:' only: start from this serialized database (a QA world's copy of a template) instead of an empty one. */
  image?: Buffer;
}

/** The marker kept beside a database file: while it exists, a missing file is not recreated. */
export const markerPathOf = (path: string) => `${resolve(path)}.created`;

/** A start over a database file that is gone: refused, with what to do, instead of a new database. */
export class MissingDatabaseError extends Error {
  override name = 'MissingDatabaseError';
}

/** Why a missing file must not be created anew (the traces of the database that was there), or undefined. */
export function missingDatabaseProblem(path: string): string | undefined {
  const file = resolve(path);
  const traces = [markerPathOf(file), `${file}-wal`, `${file}-shm`].filter((trace) => existsSync(trace));
  if (traces.length === 0) return undefined;
  return (
    `The database file ${file} is missing, but ${traces.map((t) => basename(t)).join(' and ')} beside it show that a database was there. ` +
    'The server will not create a new, empty database in its place. Restore the file from a backup (a -wal or -shm left here belongs ' +
    `to the lost file: move it away first, unless the backup was taken with it); or, to start a new database on purpose, delete ${traces.map((t) => basename(t)).join(' and ')}.`
  );
}

const identityOf = (path: string): FileIdentity | undefined => {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? { path, dev: stat.dev, ino: stat.ino } : undefined;
};

export function openDatabase(path: string, options: OpenOptions = {}): OpenedDatabase {
  const memory = path === ':memory:';
  const file = memory ? path : resolve(path);
  const fileExisted = !memory && existsSync(file);
  if (!memory && !fileExisted) {
    const problem = missingDatabaseProblem(file);
    if (problem) throw new MissingDatabaseError(problem);
    if (options.create === false)
      throw new MissingDatabaseError(
        `The database file ${file} does not exist (and this start may not create one).`,
      );
    mkdirSync(dirname(file), { recursive: true });
  }
  const sqlite = new Database(memory && options.image ? options.image : file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // The database file is read with read(), never mapped (SQLite's default here, made explicit): a
  // mapped file that cannot be written or is cut short turns a read into SIGBUS. The WAL index
  // (-shm) is always mapped; the server checks it is writable before writes (core/storage.ts).
  sqlite.pragma('mmap_size = 0');
  // WAL with synchronous=NORMAL survives a killed process but may lose the last commits on a power
  // loss or OS crash; FULL syncs the WAL at every commit, so an answered payment is on disk
  // (cost measured in docs/performance.md). :memory: has nothing to sync.
  sqlite.pragma(memory ? 'synchronous = NORMAL' : 'synchronous = FULL');
  const created = !sqlite.prepare("select 1 from sqlite_master where type='table' and name='members'").get();
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  const files: FileIdentity[] = [];
  if (!memory) {
    for (const each of [file, `${file}-wal`]) {
      const identity = identityOf(each);
      if (identity) files.push(identity);
    }
    writeMarker(file);
  }
  return { db, sqlite, created, fileExisted, files };
}

/** Best effort: a read-only directory keeps no marker (and the database opens all the same). */
function writeMarker(file: string) {
  const marker = markerPathOf(file);
  if (existsSync(marker)) return;
  try {
    writeFileSync(
      marker,
      `A database was created at ${basename(file)} (marker written ${new Date().toISOString()}).\n` +
        `While this file exists, the server refuses to start when ${basename(file)} is missing instead of creating a new, empty database.\n` +
        'To start a new database on purpose, delete this file too.\n',
    );
  } catch {
    // no marker: the -wal/-shm traces still guard a database lost while open
  }
}
