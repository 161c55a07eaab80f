/**
 * Liveness and readiness for operators: GET /healthz answers while the process does;
 * GET /readyz says whether this server can do its work, with the reasons:
 * - file: the database file (and its -wal, -shm) at the path is still the one opened, and writable;
 * - database: a write can start (BEGIN IMMEDIATE and a small insert, rolled back: a full
 *   database, a read-only file or connection fails here);
 * - disk: the database's file system has room (below MIN_FREE_BYTES a commit may fail);
 * - lastFault: no write failed on storage in the last RECENT_FAULT_MS;
 * - runs: the daily runs are not failing (a signal from whoever runs them, see runSignal) and no
 *   run has been left 'running' in job_runs for longer than RUN_STALLED_MS.
 * No secret in the answers: codes, file names (not paths) and the last run's job and date.
 */
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Services } from './services.ts';
import { FAULT_DESCRIPTIONS, storageFaultOf } from './storage.ts';

export const MIN_FREE_BYTES = 16 * 1024 * 1024;
export const RECENT_FAULT_MS = 30_000;
export const RUN_STALLED_MS = 60 * 60_000;
/** How long a failed daily run keeps readiness down: the timer retries every minute, so a run that keeps failing keeps it down. */
export const RUN_FAILURE_MS = 3 * 60_000;

export interface Check {
  ok: boolean;
  detail: string;
}

export interface Readiness {
  ready: boolean;
  /** What is wrong, one sentence each (empty when ready). */
  reasons: string[];
  checks: { file: Check; database: Check; disk: Check; lastFault: Check; runs: Check };
}

export interface ReadinessSignals {
  /** Why the daily runs are failing (the engine's runner says), or nothing when they are not. */
  runsFailing?: string | false | null | undefined;
}

/** The last run's state, from job_runs (id order: the last claimed). */
function runsCheck(services: Services, signals: ReadinessSignals, now: number): Check {
  if (signals.runsFailing) return { ok: false, detail: `daily runs failing: ${signals.runsFailing}` };
  const last = services.sqlite
    .prepare(
      'select job, business_date as date, status, started_at as startedAt from job_runs order by id desc limit 1',
    )
    .get() as { job: string; date: string; status: string; startedAt: number } | undefined;
  if (!last) return { ok: true, detail: 'no daily run yet' };
  const stalled = last.status === 'running' && now - last.startedAt > RUN_STALLED_MS;
  return {
    ok: !stalled,
    detail: `last run: ${last.job} for ${last.date}, ${last.status}${stalled ? ` since ${new Date(last.startedAt).toISOString()} (stalled)` : ''}`,
  };
}

/** A write can start and allocate: rolled back, so nothing is kept. */
function probeWrite(services: Services): Check {
  const { sqlite } = services;
  const timeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
  // A write in progress elsewhere holds the lock: do not wait for it (it proves little either way).
  sqlite.pragma('busy_timeout = 100');
  try {
    sqlite.exec('begin immediate');
    // 8 KiB needs new pages unless free ones exist: a database at its size limit fails here.
    sqlite.prepare("insert into meta (key, value) values ('readyz probe', zeroblob(8192))").run();
    return { ok: true, detail: 'writable' };
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY')) return { ok: true, detail: 'busy: another connection is writing' };
    const fault = storageFaultOf(error);
    return {
      ok: false,
      detail: fault
        ? `cannot write: ${FAULT_DESCRIPTIONS[fault.kind]} (${fault.code})`
        : `cannot write: ${code || (error as Error).message}`,
    };
  } finally {
    if (sqlite.inTransaction) sqlite.exec('rollback');
    sqlite.pragma(`busy_timeout = ${timeout}`);
  }
}

function diskCheck(services: Services): Check {
  if (services.sqlite.memory) return { ok: true, detail: 'in memory' };
  try {
    const fs = statfsSync(dirname(services.sqlite.name));
    const free = fs.bavail * fs.bsize;
    const mb = (free / 1024 / 1024).toFixed(1);
    return free < MIN_FREE_BYTES
      ? { ok: false, detail: `disk nearly full: ${mb} MB free` }
      : { ok: true, detail: `${mb} MB free` };
  } catch (error) {
    return {
      ok: false,
      detail: `cannot read the disk's free space (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
}

export function readiness(services: Services, signals: ReadinessSignals = {}): Readiness {
  const now = Date.now();
  const problem = services.storage?.check() ?? null;
  const file: Check = problem
    ? { ok: false, detail: problem.reason }
    : { ok: true, detail: services.sqlite.memory ? 'in memory' : 'the file opened, writable' };
  // While the WAL index cannot be written, touching the database could kill the process.
  const untouchable = problem?.blocksReads === true;
  const database = untouchable
    ? { ok: false, detail: 'not probed: the database files cannot be written' }
    : probeWrite(services);
  const fault = services.storage?.lastFault();
  const lastFault: Check =
    fault && now - fault.at < RECENT_FAULT_MS
      ? {
          ok: false,
          detail: `a write failed ${Math.round((now - fault.at) / 1000)} s ago: ${FAULT_DESCRIPTIONS[fault.kind]} (${fault.code})`,
        }
      : {
          ok: true,
          detail: fault ? `last storage fault ${new Date(fault.at).toISOString()} (${fault.code})` : 'none',
        };
  const runs = untouchable
    ? {
        ok: !signals.runsFailing,
        detail: signals.runsFailing ? `daily runs failing: ${signals.runsFailing}` : 'not read',
      }
    : runsCheck(services, signals, services.clock.now());
  const checks = { file, database, disk: diskCheck(services), lastFault, runs };
  const reasons = Object.entries(checks)
    .filter(([, check]) => !check.ok)
    .map(([name, check]) => `${name}: ${check.detail}`);
  return { ready: reasons.length === 0, reasons, checks };
}

/**
 * The daily runs' health as a signal for readiness: the runner reports each failure and each
 * success; failing means the last report was a failure within RUN_FAILURE_MS.
 */
export function runSignal(now: () => number = Date.now) {
  let failure: { at: number; message: string } | null = null;
  return {
    failed(error: unknown) {
      // What failed, not the error's text (readiness is public): the log has the whole error.
      const fault = storageFaultOf(error);
      const code = (error as { code?: unknown }).code;
      failure = {
        at: now(),
        message: fault
          ? `${FAULT_DESCRIPTIONS[fault.kind]} (${fault.code})`
          : `${error instanceof Error ? error.name : 'error'}${typeof code === 'string' ? ` ${code}` : ''} (see the log)`,
      };
    },
    succeeded() {
      failure = null;
    },
    failing(): string | undefined {
      return failure && now() - failure.at < RUN_FAILURE_MS ? failure.message : undefined;
    },
  };
}
