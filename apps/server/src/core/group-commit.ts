/**
 * Group commit. The request connection commits with `synchronous=NORMAL`: COMMIT writes the WAL
 * frames to the OS and returns, so the event loop never sits in an fsync. The rule that keeps
 * FULL's promise: **no answer leaves while a commit made before it is not on disk.** The answer
 * waits for one `fdatasync` of the `-wal`, run on libuv's thread pool and shared by every answer
 * waiting at that moment; meanwhile the thread answers other calls.
 *
 * Why it holds: the WAL is appended in commit order, and one sync of the file covers every frame
 * written before it started. So an answered write is on disk, and so is everything it read (a read
 * that saw another member's commit is held until that commit is synced too: nothing an answer showed
 * can roll back on a power loss). A SIGKILL loses nothing either way (the OS keeps what was written).
 *
 * Commits are noticed by `total_changes()` (rows written on this connection, a counter SQLite keeps),
 * read when an answer is about to leave: no hook per statement, a few hundred nanoseconds per answer.
 */
import { fdatasync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { errorBody, logServerError, retryAfterOf } from './errors.ts';
import { STORAGE_MESSAGES, type StorageMonitor } from './storage.ts';
import { JSON_TYPE } from './answer-headers.ts';
import { keepFile, type KeptFile } from './kept-file.ts';

export interface GroupCommit {
  /**
   * Undefined when every commit so far is on disk (the common case for a read: no promise, no
   * wait); otherwise a promise that settles once they are, rejected if the sync failed.
   */
  synced(): Promise<void> | undefined;
  /** Syncs run so far (the tests count how many answers shared one). */
  readonly syncs: number;
  /** Lets go of the `-wal`'s descriptor (the app closes). */
  close(): void;
}

/**
 * Syncs the file at `path` to disk (data, not metadata: the WAL's size is fixed by its frames),
 * through a descriptor kept open between syncs (opening one per sync cost more CPU than the sync).
 * The descriptor is opened again when the path names another file than it has (the `-wal` deleted
 * and made anew), which the descriptor's name tells without a stat (core/kept-file.ts: a stat here
 * made every sync write the file's inode too); a missing `-wal` rejects with ENOENT.
 */
export function walSyncer(): { sync: (path: string) => Promise<void>; close: () => void } {
  let kept: KeptFile | undefined;
  const close = () => {
    kept?.close();
    kept = undefined;
  };
  return {
    close,
    sync(path) {
      let fd: number;
      try {
        if (kept && !kept.inPlace()) close();
        kept ??= keepFile(path);
        fd = kept.fd;
      } catch (error) {
        return Promise.reject(error as Error);
      }
      return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
    },
  };
}

/** One sync of `path` through a descriptor opened and closed for it (tests). */
export function datasyncFile(path: string): Promise<void> {
  const once = walSyncer();
  return once.sync(path).finally(once.close);
}

/**
 * Group commit for a connection to a WAL database file. `sync` is the file sync (a test slows it
 * down or makes it fail); a missing `-wal` (the storage monitor reports a deleted file) counts as
 * synced: there is nothing left to make durable through this path.
 */
export function createGroupCommit(
  sqlite: Database.Database,
  sync?: (walPath: string) => Promise<void>,
): GroupCommit {
  const own = sync ? undefined : walSyncer();
  const syncWal = sync ?? own!.sync;
  const walPath = `${sqlite.name}-wal`;
  const changes = sqlite.prepare('select total_changes()').pluck();
  const changed = () => changes.get() as number;
  // What was committed before this point was synced by FULL (openDatabase's setting until now).
  sqlite.pragma('synchronous = NORMAL');
  let syncedUpTo = changed();
  let syncs = 0;
  let running: { upTo: number; done: Promise<void> } | undefined;
  let queued: Promise<void> | undefined;

  const start = (): Promise<void> => {
    const upTo = changed();
    syncs++;
    const done = syncWal(walPath)
      .catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      })
      .then(() => {
        syncedUpTo = Math.max(syncedUpTo, upTo);
      })
      .finally(() => {
        if (running?.done === done) running = undefined;
      });
    running = { upTo, done };
    return done;
  };

  return {
    get syncs() {
      return syncs;
    },
    close: () => own?.close(),
    synced() {
      if (!sqlite.open) return undefined;
      const now = changed();
      if (now <= syncedUpTo) return undefined;
      if (!running) return start();
      if (running.upTo >= now) return running.done;
      // The sync in progress started before this commit: the next one, shared by all who come now.
      queued ??= running.done
        .catch(() => undefined)
        .then(() => {
          queued = undefined;
          return sqlite.open && changed() > syncedUpTo ? start() : undefined;
        });
      return queued;
    },
  };
}

/**
 * Every answer of the app waits for `groupCommit` (a callback hook: no promise when nothing waits).
 * A sync that fails leaves the commit's durability unknown: the answer becomes the storage 503, so
 * nobody is told "done" for what a power loss could take back.
 */
export function holdAnswersUntilSynced(
  fastify: FastifyInstance,
  groupCommit: GroupCommit,
  storage: StorageMonitor | undefined,
): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const pending = groupCommit.synced();
    if (!pending) return done(null, payload);
    pending.then(
      () => done(null, payload),
      (error: NodeJS.ErrnoException) => {
        storage?.noteFault({ kind: 'io', code: error.code ?? 'EIO' });
        logServerError(request, error, 'The write-ahead log could not be synced to disk: answered 503');
        reply.code(503).header('content-type', JSON_TYPE).header('retry-after', retryAfterOf(503)!);
        done(null, JSON.stringify(errorBody(503, STORAGE_MESSAGES.cannotSave)));
      },
    );
  });
}
