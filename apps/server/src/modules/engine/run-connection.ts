/**
 * The daily runs' own connection to a database file, as the worker thread (worker.ts) opens it,
 * and as scripts/bench/engine-daily.ts measures the runs. It has none of the request
 * connection's read-cache triggers (core/read-cache.ts: a call into JS for every row written);
 * the request thread learns of its commits through the shared commit counter instead.
 */
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { schema, type Db } from '@md/db';
import type { Clock } from '../../core/clock.ts';
import type { EngineCtx } from './income.ts';
import { RUN_CACHE_KIB } from './jobs.ts';

/** The runs' own wait for the lock: requests hold it for milliseconds, a QA reset for seconds. */
const BUSY_TIMEOUT_MS = 60_000;

export function openRunConnection(
  databasePath: string,
  clock: Clock,
  plan: EngineCtx['plan'],
): EngineCtx & { sqlite: Database.Database } {
  const sqlite = new Database(databasePath, { fileMustExist: true });
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('foreign_keys = ON');
  // Chunks commit without waiting for the disk (NORMAL; the request connection syncs every commit,
  // packages/db database.ts): a commit that syncs holds the write lock for the sync too, and a
  // slow sync (the disk busy with a checkpoint) held every writing request up to 400 ms at
  // 1,000,000 members. A power loss can undo the last chunks, always together with the cursor
  // that records them (one transaction), so they are simply done again. Each request's runs are
  // made durable before it is answered (the worker's checkpoint), and any request's commit syncs
  // the worker's chunks written before it as well (one WAL).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`cache_size = -${RUN_CACHE_KIB}`);
  return { sqlite, db: drizzle(sqlite, { schema }) as Db, clock, plan };
}
