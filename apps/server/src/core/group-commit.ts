/**
 * Group commit. The request connection commits with `synchronous=NORMAL`: COMMIT writes the WAL
 * frames to the OS and returns, so the event loop never sits in an fsync. The rule that keeps
 * FULL's promise: **no answer leaves while a commit made before it is not on disk.** The answer
 * waits for one `fdatasync` of the `-wal`, run on libuv's thread pool and shared by every answer
 * waiting at that moment; meanwhile the thread answers other calls. An answer with no other call in
 * flight syncs on the thread instead (as PostgreSQL's commit_siblings does, the cheaper path when
 * nobody else could use the wait): the thread would only sleep until the pool's sync woke it, and
 * handing the sync over and back costs ~60 µs of CPU a write here (docs/performance.md).
 *
 * Why it holds: the WAL is appended in commit order, and one sync of the file covers every frame
 * written before it started. So an answered write is on disk, and so is everything it read (a read
 * that saw another member's commit is held until that commit is synced too: nothing an answer showed
 * can roll back on a power loss). A SIGKILL loses nothing either way (the OS keeps what was written).
 *
 * Commits are noticed by `total_changes()` (rows written on this connection, a counter SQLite keeps),
 * read when an answer is about to leave: no hook per statement, a few hundred nanoseconds per answer.
 */
import { fdatasync, fdatasyncSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { errorBody, logServerError, retryAfterOf } from './errors.ts';
import { STORAGE_MESSAGES, type StorageMonitor } from './storage.ts';
import { JSON_TYPE } from './answer-headers.ts';
import { keepFile, type KeptFile } from './kept-file.ts';

export interface GroupCommit {
  /**
   * Undefined when every commit so far is on disk (the common case for a read: no promise, no
   * wait), or was synced now, on the thread (`othersInFlight` false, and no sync running);
   * otherwise a promise that settles once they are, rejected if the sync failed.
   */
  synced(othersInFlight: boolean): Promise<void> | undefined;
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
export function walSyncer(): WalSync & { close: () => void } {
  let kept: KeptFile | undefined;
  const close = () => {
    kept?.close();
    kept = undefined;
  };
  const descriptor = (path: string) => {
    if (kept && !kept.inPlace()) close();
    kept ??= keepFile(path);
    return kept.fd;
  };
  return {
    close,
    sync(path) {
      let fd: number;
      try {
        fd = descriptor(path);
      } catch (error) {
        return Promise.reject(error as Error);
      }
      return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
    },
    syncNow: (path) => fdatasyncSync(descriptor(path)),
  };
}

/** The `-wal`'s sync, off the thread or on it. */
export interface WalSync {
  sync(path: string): Promise<void>;
  /** The same sync on the calling thread, throwing as `sync` rejects (without it, always off the thread). */
  syncNow?(path: string): void;
}

/** One sync of `path` through a descriptor opened and closed for it (tests). */
export function datasyncFile(path: string): Promise<void> {
  const once = walSyncer();
  return once.sync(path).finally(once.close);
}

/**
 * Group commit for a connection to a WAL database file. `injected` is the file sync (a test slows
 * it down or makes it fail), walSyncer's by default; a missing `-wal` (the storage
 * monitor reports a deleted file) counts as synced: there is nothing left to make durable through
 * this path.
 */
export function createGroupCommit(sqlite: Database.Database, injected?: WalSync): GroupCommit {
  const own = injected ? undefined : walSyncer();
  const { sync: syncWal, syncNow } = injected ?? own!;
  const walPath = `${sqlite.name}-wal`;
  const changes = sqlite.prepare('select total_changes()').pluck();
  const changed = () => changes.get() as number;
  // What was committed before this point was synced by FULL (openDatabase's setting until now).
  sqlite.pragma('synchronous = NORMAL');
  let syncedUpTo = changed();
  let syncs = 0;
  let running: { upTo: number; done: Promise<void> } | undefined;
  let queued: Promise<void> | undefined;

  const syncHere = (syncNow: (path: string) => void): Promise<void> | undefined => {
    const upTo = changed();
    syncs++;
    try {
      syncNow(walPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return Promise.reject(error as Error);
    }
    syncedUpTo = Math.max(syncedUpTo, upTo);
    return undefined;
  };

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
    synced(othersInFlight) {
      if (!sqlite.open) return undefined;
      const now = changed();
      if (now <= syncedUpTo) return undefined;
      if (!running && !othersInFlight && syncNow) return syncHere(syncNow);
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
  // Calls between their arrival and their answer's end (`close` comes once, sent or cut off).
  let inFlight = 0;
  const ended = () => {
    inFlight--;
  };
  fastify.addHook('onRequest', (_request, reply, done) => {
    inFlight++;
    reply.raw.once('close', ended);
    done();
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const pending = groupCommit.synced(inFlight > 1);
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
