/**
 * Storage faults, loud and answered. The rule:
 * - a SQLite error that says the storage failed (disk full, read-only, I/O error, file gone or
 *   damaged) is logged with its cause and answered 503 with a plain message, never a 500; every
 *   money move is one transaction, so a failed write changed nothing;
 * - the files opened are watched (a check every second, and before every write call): the path
 *   naming another file, or none (deleted, replaced), is logged once, loudly, and every write is
 *   refused from then on (PRAGMA query_only, so the daily runs and QA calls are refused by SQLite
 *   itself) until a restart; a file that cannot be written (chmod, chattr +i, a read-only mount)
 *   refuses writes until it can be again;
 * - the WAL index (-shm) is a shared memory map: a write through it to a file that can no longer
 *   be written kills the process with SIGBUS (reads write to it too). While it cannot be written,
 *   every call that would touch the database is refused, reads included.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { basename } from 'node:path';
import type Database from 'better-sqlite3';
import type { FastifyBaseLogger } from 'fastify';
import type { FileIdentity } from '@md/db';
import { AppError, logServerError } from './errors.ts';
import { keepFile, type KeptFile } from './kept-file.ts';

export const STORAGE_MESSAGES = {
  cannotSave: 'The server cannot save changes right now. Please try again later.',
  cannotRead: 'The server cannot read its data right now. Please try again later.',
  busy: 'The server is busy. Please try again in a moment.',
} as const;

export type StorageFaultKind = 'full' | 'read-only' | 'io' | 'corrupt' | 'unavailable' | 'busy';

/** What an operator reads in the log and in /readyz. */
export const FAULT_DESCRIPTIONS: Record<StorageFaultKind, string> = {
  full: 'the disk or the database is full',
  'read-only': 'the database cannot be written (read-only)',
  io: 'a disk I/O error',
  corrupt: 'the database file is damaged or is not a database',
  unavailable: 'the database file cannot be opened',
  busy: 'another connection held the write lock for longer than this one waits (busy_timeout)',
};

export interface StorageFault {
  kind: StorageFaultKind;
  /** SQLite's extended code, e.g. SQLITE_IOERR_FSYNC. */
  code: string;
}

const KIND_OF_CODE: [RegExp, StorageFaultKind][] = [
  [/^SQLITE_FULL$/, 'full'],
  [/^SQLITE_READONLY/, 'read-only'],
  [/^SQLITE_IOERR/, 'io'],
  [/^SQLITE_(CORRUPT|NOTADB)/, 'corrupt'],
  [/^SQLITE_CANTOPEN/, 'unavailable'],
  // Transient: the call is refused (503, try again), the server is not unready for it.
  [/^SQLITE_(BUSY|LOCKED)/, 'busy'],
  // What fileProblem finds (storageRefusal and the daily runs' worker name them so).
  [/^FILE_(GONE|REPLACED)$/, 'unavailable'],
  [/^FILE_UNWRITABLE$/, 'read-only'],
];
/** Codes where a read failed: the member is told the data cannot be read rather than saved. */
const READ_CODES = /^SQLITE_(IOERR_(READ|SHORT_READ)|CORRUPT|NOTADB|CANTOPEN)/;

/** The storage fault behind an error (SQLite's own, or one wrapped as a cause by Drizzle), if any. */
export function storageFaultOf(error: unknown): StorageFault | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof StorageError) return current.fault;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      const kind = KIND_OF_CODE.find(([pattern]) => pattern.test(code))?.[1];
      if (kind) return { kind, code };
    }
    current = current.cause;
  }
  return undefined;
}

/** A 503 for a storage fault: the transports answer it like any AppError. */
export class StorageError extends AppError {
  constructor(
    public readonly fault: StorageFault,
    message: string = fault.kind === 'busy'
      ? STORAGE_MESSAGES.busy
      : READ_CODES.test(fault.code)
        ? STORAGE_MESSAGES.cannotRead
        : STORAGE_MESSAGES.cannotSave,
    /** Set when the monitor refused the call before it ran: the problem it knows of. */
    public readonly refusal?: string,
  ) {
    super(503, message);
    this.name = 'StorageError';
  }
}

/** The 503 to answer for an error, when it is a storage fault. */
export function toStorageError(error: unknown): StorageError | undefined {
  if (error instanceof StorageError) return error;
  const fault = storageFaultOf(error);
  return fault ? new StorageError(fault) : undefined;
}

/**
 * The 503 for an error when it is a storage fault, logged with its cause (and remembered for
 * /readyz when SQLite raised it); undefined for any other error.
 */
export function reportStorageFault(
  monitor: StorageMonitor | undefined,
  request: Parameters<typeof logServerError>[0],
  error: unknown,
  fields: Record<string, unknown> = {},
): StorageError | undefined {
  const answer = toStorageError(error);
  if (!answer) return undefined;
  if (answer.refusal)
    logServerError(request, error, `Refused (503): ${answer.refusal}`, { storage: answer.fault, ...fields });
  else {
    if (answer.fault.kind !== 'busy') monitor?.noteFault(answer.fault);
    logServerError(
      request,
      error,
      `Storage fault, answered 503: ${FAULT_DESCRIPTIONS[answer.fault.kind]} (${answer.fault.code})`,
      { storage: answer.fault, ...fields },
    );
  }
  return answer;
}

/** A problem with the files themselves, found by the monitor's checks. */
export interface StorageProblem {
  kind: 'gone' | 'replaced' | 'unwritable';
  /** The file's name (no directory: /readyz shows it). */
  file: string;
  reason: string;
  /** Reads are refused too (the WAL index cannot be written: touching it could kill the process). */
  blocksReads: boolean;
  /** Lasts until a restart (the file opened is not the one at the path any more). */
  sticky: boolean;
  /** Epoch ms when it was found. */
  since: number;
}

export interface StorageMonitor {
  /** Checks the files now (a few stat/access calls) and answers the problem, if any. */
  check(): StorageProblem | null;
  /** The problem found by the last check, without checking. */
  problem(): StorageProblem | null;
  /** Before a call: a write checks the files first and is refused (503) on any problem; a read only while reads are blocked. */
  guard(write: boolean): void;
  /** A storage fault a call or a run met: remembered for /readyz (the caller logs it). */
  noteFault(fault: StorageFault): void;
  /** The last fault met and when (epoch ms). */
  lastFault(): (StorageFault & { at: number }) | null;
  close(): void;
}

export const STORAGE_CHECK_INTERVAL_MS = 1_000;

const PERMISSION_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);

/** Why `file` cannot be written, or undefined (a missing file is the identity check's business). */
function unwritable(file: string): string | undefined {
  try {
    accessSync(file, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    return PERMISSION_CODES.has(code) ? code : undefined;
  }
}

/**
 * What is wrong with the files of an open database, as they were opened (`watched`: path, device
 * and inode): one gone or replaced (for good), or one that cannot be written. A few stat/access
 * calls, no database access: safe while touching the database is not. A file with a descriptor
 * kept on it (the -wal: core/kept-file.ts) is asked through that, not stat'ed while it is in place.
 * Exported for the daily runs' worker, to check its own files between chunks.
 */
export function fileProblem(
  watched: readonly (FileIdentity & { kept?: KeptFile })[],
): Omit<StorageProblem, 'since'> | null {
  for (const identity of watched) {
    if (identity.kept?.inPlace()) continue;
    const name = basename(identity.path);
    const stat = statSync(identity.path, { throwIfNoEntry: false });
    if (!stat)
      return {
        kind: 'gone',
        file: name,
        sticky: true,
        blocksReads: false,
        reason: `${name} was deleted while the server had it open: what is written now would be lost`,
      };
    if (stat.ino !== identity.ino || stat.dev !== identity.dev)
      return {
        kind: 'replaced',
        file: name,
        sticky: true,
        blocksReads: false,
        reason: `${name} was replaced by another file while the server had it open`,
      };
  }
  let found: Omit<StorageProblem, 'since'> | null = null;
  for (const identity of watched) {
    const why = unwritable(identity.path);
    if (!why) continue;
    const name = basename(identity.path);
    // Immutable (EPERM) or on a read-only mount (EROFS), the -shm's pages fault on the next
    // write through the map; a chmod (EACCES) leaves the map writable. That one wins.
    const fatal = identity.path.endsWith('-shm') && why !== 'EACCES';
    if (!found || fatal)
      found = {
        kind: 'unwritable',
        file: name,
        sticky: false,
        blocksReads: fatal,
        reason: `${name} cannot be written (${why})${fatal ? ': reads are refused too' : ''}`,
      };
  }
  return found;
}

/** A descriptor on `file` if the path still names the file as it was opened; otherwise the stat tells. */
function keptAsOpened(file: FileIdentity): KeptFile | undefined {
  try {
    const kept = keepFile(file.path);
    if (kept.ino === file.ino) return kept;
    kept.close();
  } catch {
    // Gone already: the first check reports it.
  }
  return undefined;
}

/** The files of a database file to watch: the file, its -wal and -shm as they are now. */
export function filesOf(path: string): FileIdentity[] {
  const files: FileIdentity[] = [];
  for (const each of [path, `${path}-wal`, `${path}-shm`]) {
    const stat = statSync(each, { throwIfNoEntry: false });
    if (stat) files.push({ path: each, dev: stat.dev, ino: stat.ino });
  }
  return files;
}

/** The 503 refusing work while the monitor knows of a problem with the files (it checks them first), or undefined. */
export function storageRefusal(monitor: StorageMonitor | undefined, write = true): StorageError | undefined {
  const problem = write ? monitor?.check() : monitor?.problem();
  if (!problem || (!write && !problem.blocksReads)) return undefined;
  const fault: StorageFault = {
    kind: problem.kind === 'unwritable' ? 'read-only' : 'unavailable',
    code: `FILE_${problem.kind.toUpperCase()}`,
  };
  return new StorageError(
    fault,
    write ? STORAGE_MESSAGES.cannotSave : STORAGE_MESSAGES.cannotRead,
    problem.reason,
  );
}

/**
 * Watches the files of an open database: `files` as openDatabase found them (the database, its
 * -wal); the -shm is taken as it is now. Nothing to watch for :memory:.
 */
export function createStorageMonitor(
  sqlite: Database.Database,
  files: readonly FileIdentity[],
  log: FastifyBaseLogger,
  intervalMs = STORAGE_CHECK_INTERVAL_MS,
): StorageMonitor {
  // The -wal is synced at every write: its identity is asked of a descriptor kept on it, as it was opened.
  const watched = files.map((file): FileIdentity & { kept?: KeptFile } => ({
    ...file,
    kept: file.path.endsWith('-wal') ? keptAsOpened(file) : undefined,
  }));
  const main = watched[0];
  if (main) {
    const shm = statSync(`${main.path}-shm`, { throwIfNoEntry: false });
    if (shm) watched.push({ path: `${main.path}-shm`, dev: shm.dev, ino: shm.ino });
  }
  let current: StorageProblem | null = null;
  let last: (StorageFault & { at: number }) | null = null;

  const setQueryOnly = (on: boolean) => {
    if (sqlite.open) sqlite.pragma(`query_only = ${on ? 'ON' : 'OFF'}`);
  };

  const check = (): StorageProblem | null => {
    if (watched.length === 0 || current?.sticky) return current;
    const found = fileProblem(watched);
    if (
      found &&
      (found.kind !== current?.kind ||
        found.file !== current.file ||
        found.blocksReads !== current.blocksReads)
    ) {
      current = { ...found, since: Date.now() };
      setQueryOnly(true);
      log.error(
        { storage: { problem: current.kind, file: current.file, readsRefused: current.blocksReads } },
        `STORAGE FAULT: ${current.reason}. Writes are refused${current.blocksReads ? ', and reads,' : ''} ${current.sticky ? 'until the server restarts (restore the file before that)' : 'until it can be written again'}.`,
      );
    } else if (!found && current) {
      log.warn(
        { storage: { problem: null, was: current.kind, file: current.file } },
        `Storage writable again (${current.file}): writes are accepted.`,
      );
      current = null;
      setQueryOnly(false);
    }
    return current;
  };

  const timer = watched.length > 0 ? setInterval(check, intervalMs) : undefined;
  timer?.unref();

  const monitor: StorageMonitor = {
    check,
    problem: () => current,
    guard(write) {
      const refusal = storageRefusal(monitor, write);
      if (refusal) throw refusal;
    },
    noteFault(fault) {
      last = { ...fault, at: Date.now() };
    },
    lastFault: () => last,
    close() {
      if (timer) clearInterval(timer);
      for (const { kept } of watched) kept?.close();
    },
  };
  return monitor;
}
