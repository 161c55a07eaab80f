/**
 * The daily runs: each paid exactly once, none ever skipped (DESIGN §5–6). This file decides what
 * runs and in what order and works a run chunk by chunk; the chunks' work is runs.ts (pay) and
 * fold.ts (binary volumes); runner.ts runs all of it in a worker thread with its own connection.
 *
 * Exactly once:
 * - a run is claimed by inserting its job_runs row (UNIQUE (job, business_date)): a retry, a
 *   second server on the same file, or a second advance of the clock over the same day finds the
 *   row and does not pay again;
 * - a run is then a sequence of chunks, each one IMMEDIATE transaction that reads the run's row
 *   (phase, cursor), does the next slice after the cursor and moves the cursor in the same
 *   commit. A process killed anywhere leaves every chunk either wholly done (cursor past it) or
 *   not at all, and whoever resumes the run goes on from the cursor; two processes working one
 *   run take turns instead of doing a slice twice. A binary run has three phases, 'stage',
 *   'fold' (fold.ts says why each is safe to resume) and 'pay'; ROI and ranks only 'pay';
 * - inside a pay chunk the cap is written per member while the ledger credits and notifications
 *   are queued and written together just before the cursor moves, in the same transaction.
 *
 * Nothing skipped (pendingRuns): the runs to do are found from job_runs itself, not from a time
 * remembered by a process. Scanning back from the date of the latest claim to the last date on
 * which every job that applies was claimed, every run of every later date due by now that has no
 * row is run, in order (due instant, then roi, binary, ranks), after the unfinished ones are
 * finished (in claim order). Claims are made only in that order, so once a date is complete every
 * run before it was claimed; a crash anywhere, even during a resume, leaves a run either claimed
 * (resumed) or not claimed and due (run). A job's dates before its first run on record are not
 * owed (the database or the job is newer), a job never run is owed from the latest claim on, and
 * a database with no run on record owes nothing before the interval it is asked about. This runs on start, on every timer tick (each minute, and a
 * run that outlasts the next one's due time is followed by it there) and on every clock move.
 *
 * Chunk sizes: each chunk's transaction holds the database's write lock, so every request that
 * writes meanwhile waits for it (reads do not: WAL). Sizes adapt to keep a chunk near
 * engineHooks.chunkMs.
 */
import type Database from 'better-sqlite3';
import type { WriteTurns } from '../../core/services.ts';
import { moneyTransaction } from '../ledger/ledger.ts';
import { newPayouts, prepared, writePayouts, type EngineCtx } from './income.ts';
import { computeFold, stageChunk, writeFoldChunk, type Fold } from './fold.ts';
import { chunkWork, summaryText, type Progress } from './runs.ts';
import {
  addDays,
  compareRuns,
  dueRuns,
  JOBS,
  jobsOn,
  londonDate,
  scheduledAt,
  type DueRun,
  type JobName,
} from './schedule.ts';
import { backfillBinaryStats } from './stats.ts';

export interface JobRunReport {
  job: string;
  /** Business date (YYYY-MM-DD) the run is for. */
  date: string;
  summary?: string;
}

export type RunPhase = 'stage' | 'fold' | 'pay';

/**
 * Seams: the first chunk size of a pay phase (the fold writes twice as many members, the stage
 * spans 25 times as many ids), the time a chunk should take (sizes adapt towards it; undefined
 * keeps them fixed: in process, where no other connection waits for the lock, and in tests),
 * a hook inside each chunk's transaction once its writes are done, just before the cursor moves
 * (a crash test kills the process there, the chunk uncommitted), a hook after each chunk commits
 * (tests stop or crash there), and one between chunks (the worker yields to the request thread
 * and checks for a stop there). The worker (worker.ts) starts smaller and adapts.
 */
export const engineHooks: {
  chunkSize: number;
  chunkMs: number | undefined;
  insideChunk?: (job: JobName, date: string, phase: RunPhase) => void;
  afterChunk?: (job: JobName, date: string, cursor: number, phase: RunPhase) => void;
  betweenChunks?: () => void;
  /** True just before a chunk's transaction begins, false once it has ended (committed or not). */
  holdingLock?: (held: boolean) => void;
} = { chunkSize: 2_000, chunkMs: undefined };

interface RunRow {
  id: number;
  job: JobName;
  date: string;
  status: 'running' | 'done';
  phase: RunPhase;
  cursor: number;
  startedAt: number;
  summary: string | null;
}

const readProgress = (summary: string | null): Progress =>
  summary?.startsWith('{') ? (JSON.parse(summary) as Progress) : { payouts: 0, paid: 0, members: 0 };

const runRow = (ctx: EngineCtx, job: JobName, date: string) =>
  prepared(
    ctx.sqlite,
    'select id, job, business_date as date, status, phase, cursor, started_at as startedAt, summary from job_runs where job = ? and business_date = ?',
  ).get(job, date) as RunRow | undefined;

/** Claims the run; answers false when it is already claimed (done, or running elsewhere / unfinished). */
function claim(ctx: EngineCtx, job: JobName, date: string): boolean {
  return moneyTransaction(ctx, () => {
    const inserted = prepared(
      ctx.sqlite,
      "insert into job_runs (job, business_date, status, phase, cursor, started_at, summary) values (?, ?, 'running', ?, 0, ?, ?) on conflict(job, business_date) do nothing",
    ).run(
      job,
      date,
      job === 'binary' ? 'stage' : 'pay',
      ctx.clock.now(),
      JSON.stringify({ payouts: 0, paid: 0, members: 0 }),
    );
    return inserted.changes > 0;
  });
}

/** Chunk sizes by job and phase, adapted to engineHooks.chunkMs; restarted when chunkSize changes. */
const limits = new Map<string, { base: number; limit: number }>();
const PHASE_SCALE: Record<RunPhase, number> = { stage: 25, fold: 2, pay: 1 };
const MAX_LIMIT = 1_000_000;

function chunkLimit(job: JobName, phase: RunPhase): number {
  const key = `${job}/${phase}`;
  const base = engineHooks.chunkSize * PHASE_SCALE[phase];
  const known = limits.get(key);
  if (known?.base === base && engineHooks.chunkMs !== undefined) return known.limit;
  limits.set(key, { base, limit: base });
  return base;
}

/** After a chunk of `limit` took `ms`: the next one of that job and phase aims at chunkMs (at most doubling or halving). */
function adaptLimit(job: JobName, phase: RunPhase, limit: number, ms: number): void {
  const target = engineHooks.chunkMs;
  const known = limits.get(`${job}/${phase}`);
  if (target === undefined || !known) return;
  const ratio = Math.min(2, Math.max(0.5, target / Math.max(ms, 0.1)));
  known.limit = Math.min(MAX_LIMIT, Math.max(1, Math.round(limit * ratio)));
}

/** The fold of the binary run in phase 'fold' on this connection, computed once per run (fold.ts). */
const folds = new WeakMap<EngineCtx['sqlite'], { key: string; fold: Fold }>();
const foldKey = (run: RunRow) => `${run.id}/${run.date}/${run.startedAt}`;
function foldOf(ctx: EngineCtx, run: RunRow): Fold {
  const cached = folds.get(ctx.sqlite);
  if (cached?.key === foldKey(run)) return cached.fold;
  const fold = computeFold(ctx, run.id);
  folds.set(ctx.sqlite, { key: foldKey(run), fold });
  return fold;
}

/** One chunk in its own transaction; answers false when the run has nothing left (or is gone). */
function runChunk(ctx: EngineCtx, job: JobName, date: string, at: number): boolean {
  const seen = runRow(ctx, job, date);
  if (!seen || seen.status === 'done') return false;
  // The fold is computed before the chunk's transaction: reading the tree takes seconds at
  // 1,000,000 members, and no lock is needed for it.
  const fold = seen.phase === 'fold' ? foldOf(ctx, seen) : undefined;
  if (seen.phase !== 'fold') folds.delete(ctx.sqlite);
  const limit = chunkLimit(job, seen.phase);
  const started = performance.now();
  engineHooks.holdingLock?.(true);
  let outcome: 'more' | 'over' | 'again';
  try {
    outcome = chunkTransaction(ctx, job, date, at, seen, fold, limit);
  } finally {
    engineHooks.holdingLock?.(false);
  }
  if (outcome === 'again') return true;
  adaptLimit(job, seen.phase, limit, performance.now() - started);
  if (outcome === 'over') {
    folds.delete(ctx.sqlite);
    return false;
  }
  if (engineHooks.afterChunk) {
    const after = runRow(ctx, job, date)!;
    engineHooks.afterChunk(job, date, after.cursor, after.phase);
  }
  return true;
}

/** A chunk's work in its own transaction: what the run does next ('again' when it moved meanwhile). */
function chunkTransaction(
  ctx: EngineCtx,
  job: JobName,
  date: string,
  at: number,
  seen: RunRow,
  fold: Fold | undefined,
  limit: number,
): 'more' | 'over' | 'again' {
  return moneyTransaction(ctx, (): 'more' | 'over' | 'again' => {
    const run = runRow(ctx, job, date);
    if (!run || run.status === 'done') return 'over';
    // Moved since it was looked at (another process took a turn, the database was restored): look again.
    if (run.phase !== seen.phase || run.id !== seen.id || run.startedAt !== seen.startedAt) return 'again';
    const move = (phase: RunPhase, cursor: number, summary = run.summary) => {
      engineHooks.insideChunk?.(job, date, run.phase);
      prepared(ctx.sqlite, 'update job_runs set phase = ?, cursor = ?, summary = ? where id = ?').run(
        phase,
        cursor,
        summary,
        run.id,
      );
    };
    if (run.phase === 'stage') {
      const next = stageChunk(ctx, run.id, run.cursor, limit);
      if (next === undefined) move('fold', 0);
      else move('stage', next);
      return 'more';
    }
    if (run.phase === 'fold') {
      const last = writeFoldChunk(ctx, fold!, run.cursor, limit, date, at);
      if (last === undefined) move('pay', 0);
      else move('fold', last);
      return 'more';
    }
    const progress = readProgress(run.summary);
    // A member appears once in a chunk, so what a chunk reads of its members up front (their
    // subscriptions) is still theirs when their turn comes. Credits and notifications are
    // queued and written together before the cursor moves.
    const payouts = newPayouts();
    const last = chunkWork[job](ctx, run.cursor, date, at, limit, progress, payouts);
    if (last === undefined) {
      prepared(
        ctx.sqlite,
        "update job_runs set status = 'done', finished_at = ?, summary = ? where id = ?",
      ).run(ctx.clock.now(), summaryText(job, progress), run.id);
      return 'over';
    }
    writePayouts(ctx, payouts);
    move('pay', last, JSON.stringify(progress));
    return 'more';
  });
}

/** Works a claimed run to its end; answers its report. */
function finish(ctx: EngineCtx, job: JobName, date: string): JobRunReport {
  const at = scheduledAt(job, date);
  while (runChunk(ctx, job, date, at)) engineHooks.betweenChunks?.();
  return { job, date, summary: runRow(ctx, job, date)?.summary ?? '' };
}

/** Finishes every run left unfinished (by a killed process, or one working beside this one), in claim order. */
export function resumeUnfinishedRuns(ctx: EngineCtx): JobRunReport[] {
  return withRunCache(ctx, () => {
    const running = prepared(
      ctx.sqlite,
      "select job, business_date as date from job_runs where status = 'running' order by id",
    ).all() as { job: JobName; date: string }[];
    return running.map(({ job, date }) => finish(ctx, job, date));
  });
}

const isJob = (job: string): job is JobName => (JOBS as readonly string[]).includes(job);
const runOf = (job: JobName, date: string): DueRun => ({ job, date, at: scheduledAt(job, date) });

/**
 * Every run owed by `to` that has no job_runs row, in order: the runs due in (from, to], and every
 * run of the dates after the last complete one (see the opening comment).
 */
export function pendingRuns(ctx: EngineCtx, from: number, to: number): DueRun[] {
  const claimed = (
    prepared(ctx.sqlite, 'select job, business_date as date from job_runs order by id').all() as {
      job: string;
      date: string;
    }[]
  ).filter((r): r is { job: JobName; date: string } => isJob(r.job));
  const has = new Set(claimed.map((r) => `${r.job}/${r.date}`));
  const owed = new Map<string, DueRun>();
  const owe = (run: DueRun) => {
    const key = `${run.job}/${run.date}`;
    if (!has.has(key)) owed.set(key, run);
  };
  for (const run of dueRuns(from, to)) owe(run);
  if (claimed.length > 0) {
    // Each job's first run on record, and the first of all.
    const firstOf = new Map<JobName, DueRun>();
    let first = runOf(claimed[0]!.job, claimed[0]!.date);
    for (const { job, date } of claimed) {
      const run = runOf(job, date);
      const known = firstOf.get(job);
      if (!known || compareRuns(run, known) < 0) firstOf.set(job, run);
      if (compareRuns(run, first) < 0) first = run;
    }
    // A job with no run on record is owed from the latest claim on (a new database's first day, a job added later).
    const latest = runOf(claimed.at(-1)!.job, claimed.at(-1)!.date);
    const complete = (date: string) =>
      jobsOn(date).every(
        (job) => compareRuns(runOf(job, date), firstOf.get(job) ?? latest) < 0 || has.has(`${job}/${date}`),
      );
    // Back from the latest claim's date to the last complete date; owed from the day after it.
    let start = first.date;
    for (let date = latest.date; date >= first.date; date = addDays(date, -1)) {
      if (complete(date)) {
        start = addDays(date, 1);
        break;
      }
    }
    const last = londonDate(to);
    for (let date = start; date <= last; date = addDays(date, 1)) {
      for (const job of jobsOn(date)) {
        const run = runOf(job, date);
        if (run.at <= to && compareRuns(run, first) >= 0) owe(run);
      }
    }
  }
  return [...owed.values()].sort(compareRuns);
}

/**
 * Finishes the unfinished runs, then runs every run owed by `to` (pendingRuns), each at most
 * once, in order; answers the runs this call worked on. What is owed by `to` can only shrink
 * while this works (others may claim, nobody unclaims), so it is looked up once; time moving on
 * meanwhile is the next call's (the timer asks every minute).
 * Synchronous: the worker thread calls it, and so do the seed and tests on their own connection.
 */
export function runDueJobs(ctx: EngineCtx, from: number, to: number): JobRunReport[] {
  return withRunCache(ctx, () => {
    const ran = resumeUnfinishedRuns(ctx);
    const owed = pendingRuns(ctx, from, to);
    if (owed.some((r) => r.job === 'binary')) backfillBinaryStats(ctx);
    for (const { job, date } of owed) {
      if (claim(ctx, job, date)) ran.push(finish(ctx, job, date));
      // Claimed by another process since it was looked for: take turns with it before going on.
      else ran.push(...resumeUnfinishedRuns(ctx));
      // The run's row is gone: the database was replaced under it (QA reset or snapshot restore). What is owed there is the next call's.
      if (runRow(ctx, job, date)?.status !== 'done') break;
    }
    return ran;
  });
}

/** SQLite page cache while runs work, KiB. */
export const RUN_CACHE_KIB = 65_536;
/**
 * Runs `work` with the connection's page cache raised to RUN_CACHE_KIB (never lowered), then
 * puts the setting back. A run walks whole tables (binary_stats, subscriptions, accounts) and
 * its chunks re-read pages the fold or the chunk before wrote; the default 2 MB keeps few of
 * them. Memory only: durability settings are untouched.
 */
function withRunCache<T>(ctx: EngineCtx, work: () => T): T {
  const previous = ctx.sqlite.pragma('cache_size', { simple: true }) as number;
  const pageSize = ctx.sqlite.pragma('page_size', { simple: true }) as number;
  // A positive cache_size counts pages, a negative one KiB.
  const previousKib = previous < 0 ? -previous : (previous * pageSize) / 1024;
  if (previousKib >= RUN_CACHE_KIB) return work();
  ctx.sqlite.pragma(`cache_size = -${RUN_CACHE_KIB}`);
  try {
    return work();
  } finally {
    ctx.sqlite.pragma(`cache_size = ${previous}`);
  }
}

/** What executes the runs of an app's database (runner.ts): a worker thread on a file, in process on ':memory:'. */
export interface DailyRuns {
  /** True when the runs execute in a worker thread (a database file). */
  readonly inWorker: boolean;
  /** Finishes the unfinished runs and runs every run owed by `to` (runDueJobs); answers the runs this request worked on. Answered in order. */
  runDue(from: number, to: number): Promise<JobRunReport[]>;
  /** Finishes the unfinished runs only. */
  resume(): Promise<JobRunReport[]>;
  /** Settles when every request made so far has been answered. */
  idle(): Promise<void>;
  /** Stops after the chunk in progress (what is left resumes at the next start) and ends the thread. */
  close(): Promise<void>;
  /** In a worker: the request thread's turns at the write lock (Services.writeTurns). */
  readonly writeTurns?: WriteTurns;
}

/** Raised for requests cut short by DailyRuns.close(). */
export class RunsStoppedError extends Error {
  override name = 'RunsStoppedError';
}

const executors = new WeakMap<Database.Database, DailyRuns>();
export const registerDailyRuns = (ctx: Pick<EngineCtx, 'sqlite'>, runs: DailyRuns) =>
  executors.set(ctx.sqlite, runs);
/** The executor of an app's connection (buildApp makes it); undefined for a bare connection (seed, scripts). */
export const dailyRunsOf = (ctx: Pick<EngineCtx, 'sqlite'>): DailyRuns | undefined =>
  executors.get(ctx.sqlite);

/**
 * Real-time scheduling for `npm start`: at start and then once a minute, asks for every run owed
 * by now, through the app's executor (pendingRuns finds what is missing from job_runs, however
 * long the server was stopped). A tick while the previous one still works is skipped. Runs
 * already done are skipped by their job_runs key, so the QA clock and this timer never pay a
 * day twice. `caughtUp` settles when the first tick has ended: what was owed at start is paid
 * (or its failure reported).
 */
export function startJobTimer(
  ctx: EngineCtx,
  onError: (error: unknown) => void,
  everyMs = 60_000,
): { stop: () => void; caughtUp: Promise<void> } {
  const { clock } = ctx;
  const runDue = (from: number, to: number) =>
    dailyRunsOf(ctx)?.runDue(from, to) ??
    new Promise<JobRunReport[]>((resolve) => resolve(runDueJobs(ctx, from, to)));
  let from = clock.now();
  let working = false;
  const tick = async () => {
    if (working) return;
    working = true;
    const now = clock.now();
    await runDue(Math.min(from, now), now)
      .then(
        () => (from = now),
        (error: unknown) => {
          if (!(error instanceof RunsStoppedError)) onError(error);
        },
      )
      .finally(() => (working = false));
  };
  const caughtUp = tick();
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer), caughtUp };
}
