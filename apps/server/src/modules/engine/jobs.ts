/**
 * The daily runs, each paid exactly once (DESIGN §5):
 * - a run is claimed by inserting its job_runs row (UNIQUE (job, business_date)) in an
 *   IMMEDIATE transaction: a retry, a second server on the same file, or a second advance of
 *   the clock over the same day finds the row and does not pay again;
 * - payouts are written in chunks of members; each chunk's transaction reads the cursor, pays
 *   the next members after it and advances the cursor, so a process killed midway resumes
 *   after the last committed chunk (resumeUnfinishedRuns at start, and before any new run)
 *   and two processes working one run take turns instead of paying a member twice;
 * - inside a chunk, the cap is written per member while the ledger credits and notifications
 *   are queued and written together just before the cursor moves, in the same transaction.
 */
import { moneyTransaction } from '../ledger/ledger.ts';
import { newPayouts, prepared, writePayouts, type EngineCtx } from './income.ts';
import { foldVolumes } from './fold.ts';
import { chunkWork, summaryText, type Progress } from './runs.ts';
import { dueRuns, scheduledAt, type JobName } from './schedule.ts';
import { backfillBinaryStats } from './stats.ts';

export interface JobRunReport {
  job: string;
  /** Business date (YYYY-MM-DD) the run is for. */
  date: string;
  summary?: string;
}

/** Test seams: chunk size, and a hook called after each chunk commits (a test throws there to simulate a crash). */
export const engineHooks: { chunkSize: number; afterChunk?: (job: JobName, date: string, cursor: number) => void } = { chunkSize: 2_000 };

interface RunRow {
  id: number;
  job: JobName;
  date: string;
  status: 'running' | 'done';
  cursor: number;
  summary: string | null;
}

const readProgress = (summary: string | null): Progress => (summary?.startsWith('{') ? (JSON.parse(summary) as Progress) : { payouts: 0, paid: 0, members: 0 });

const runRow = (ctx: EngineCtx, job: JobName, date: string) =>
  prepared(ctx.sqlite, 'select id, job, business_date as date, status, cursor, summary from job_runs where job = ? and business_date = ?').get(job, date) as
    | RunRow
    | undefined;

/** Claims the run; answers false when it is already claimed (done, or running elsewhere / unfinished). */
function claim(ctx: EngineCtx, job: JobName, date: string, at: number): boolean {
  return moneyTransaction(ctx, () => {
    const inserted = prepared(
      ctx.sqlite,
      "insert into job_runs (job, business_date, status, cursor, started_at, summary) values (?, ?, 'running', 0, ?, ?) on conflict(job, business_date) do nothing",
    ).run(job, date, ctx.clock.now(), JSON.stringify({ payouts: 0, paid: 0, members: 0 }));
    if (inserted.changes === 0) return false;
    if (job === 'binary') foldVolumes(ctx, date, at);
    return true;
  });
}

/** One chunk in its own transaction; answers false when the run has nothing left. */
function runChunk(ctx: EngineCtx, job: JobName, date: string, at: number): boolean {
  const more = moneyTransaction(ctx, () => {
    const run = runRow(ctx, job, date)!;
    if (run.status === 'done') return false;
    const progress = readProgress(run.summary);
    // A member appears once in a chunk, so what a chunk reads of its members up front (their
    // subscriptions) is still theirs when their turn comes. Credits and notifications are
    // queued and written together before the cursor moves.
    const payouts = newPayouts();
    const last = chunkWork[job](ctx, run.cursor, date, at, engineHooks.chunkSize, progress, payouts);
    if (last === undefined) {
      prepared(ctx.sqlite, "update job_runs set status = 'done', finished_at = ?, summary = ? where id = ?").run(
        ctx.clock.now(),
        summaryText(job, progress),
        run.id,
      );
      return false;
    }
    writePayouts(ctx, payouts);
    prepared(ctx.sqlite, 'update job_runs set cursor = ?, summary = ? where id = ?').run(last, JSON.stringify(progress), run.id);
    return true;
  });
  if (more) engineHooks.afterChunk?.(job, date, runRow(ctx, job, date)!.cursor);
  return more;
}

/** Works a claimed run to its end; answers its report. */
function finish(ctx: EngineCtx, job: JobName, date: string): JobRunReport {
  const at = scheduledAt(job, date);
  while (runChunk(ctx, job, date, at));
  return { job, date, summary: runRow(ctx, job, date)!.summary ?? '' };
}

/** Finishes every run a previous process left unfinished, oldest first. Call at start. */
export function resumeUnfinishedRuns(ctx: EngineCtx): JobRunReport[] {
  return withRunCache(ctx, () => {
    const running = prepared(ctx.sqlite, "select job, business_date as date from job_runs where status = 'running' order by id").all() as { job: JobName; date: string }[];
    return running.map(({ job, date }) => finish(ctx, job, date));
  });
}

/** Runs every run due in (from, to], in order, each at most once; answers those this call worked on. */
export function runDueJobs(ctx: EngineCtx, from: number, to: number): JobRunReport[] {
  return withRunCache(ctx, () => {
    const ran = resumeUnfinishedRuns(ctx);
    const due = dueRuns(from, to);
    if (due.some((r) => r.job === 'binary')) backfillBinaryStats(ctx);
    for (const { job, date, at } of due) {
      if (!claim(ctx, job, date, at)) continue;
      ran.push(finish(ctx, job, date));
    }
    return ran;
  });
}

/** SQLite page cache while runs work, KiB. */
const RUN_CACHE_KIB = 65_536;
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

/** Where a process starting up should catch up from: the last run's due instant, or now for a new database. */
export function catchUpFrom(ctx: EngineCtx): number {
  const last = prepared(ctx.sqlite, 'select job, business_date as date from job_runs order by business_date desc, id desc limit 1').get() as
    | { job: JobName; date: string }
    | undefined;
  return last ? scheduledAt(last.job, last.date) : ctx.clock.now();
}

/**
 * Real-time scheduling for `npm start`: once a minute, run what fell due since the last look
 * (catching up from the last recorded run after a stop). Runs already done are skipped by
 * their job_runs key, so the QA clock and this timer never pay a day twice.
 */
export function startJobTimer(ctx: EngineCtx, onError: (error: unknown) => void, everyMs = 60_000): () => void {
  let from = catchUpFrom(ctx);
  const tick = () => {
    try {
      const now = ctx.clock.now();
      if (now > from) {
        runDueJobs(ctx, from, now);
        from = now;
      }
    } catch (error) {
      onError(error);
    }
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
