/**
 * Scheduled jobs (daily ROI, binary matching at 11:00 UK, ranks): the engine's runs, as a move
 * of the QA clock asks for them. They execute in the worker thread on a database file
 * (engine/runner.ts), in process on ':memory:'.
 *
 * Rule: a clock move is stored as done only as far as its runs are. The clock steps from one
 * due instant to the next, stored at each only once every run due by then is done, so a kill at
 * any point leaves it at a step with nothing owed before it (a run cut midway resumes from its
 * cursor when the world opens again), never at the target with days unpaid. A cancelled move
 * stops after the step in progress, the clock there; one whose database is replaced meanwhile (a
 * QA reset or restore) stops too, the clock as that left it.
 */
import { prepared } from '../../core/prepared.ts';
import type { Services } from '../../core/services.ts';
import { dailyRunsOf, pendingRuns, runDueJobs as runEngineJobs, type JobRunReport } from '../engine/jobs.ts';
import { hasUnfinishedRuns } from '../engine/runner.ts';

export type JobRun = JobRunReport;

export function runDueJobs(services: Services, from: number, to: number): Promise<JobRun[]> {
  const runs = dailyRunsOf(services);
  return runs ? runs.runDue(from, to) : new Promise((resolve) => resolve(runEngineJobs(services, from, to)));
}

const seededAt = (services: Services) =>
  (
    prepared(services.sqlite, "select value from meta where key = 'seeded_at'").get() as
      { value: string } | undefined
  )?.value;
const isDone = (services: Services, run: JobRun) =>
  (
    prepared(services.sqlite, 'select status from job_runs where job = ? and business_date = ?').get(
      run.job,
      run.date,
    ) as { status: string } | undefined
  )?.status === 'done';

/** What moving the clock from now to `target` owes: the runs, and the instants the clock steps through. */
export interface ClockMove {
  from: number;
  target: number;
  /** Runs owed by `target` (plus one for runs a killed process left unfinished). */
  owed: number;
  steps: number[];
}

export function planClockMove(services: Services, target: number): ClockMove {
  const from = services.clock.now();
  if (target <= from) return { from, target, owed: 0, steps: [] };
  const owed = pendingRuns(services, from, target);
  const steps = [...new Set(owed.map((run) => Math.max(run.at, from)))].sort((a, b) => a - b);
  const unfinished = hasUnfinishedRuns(services);
  if (unfinished && steps.length === 0) steps.push(from);
  return { from, target, owed: owed.length + (unfinished ? 1 : 0), steps };
}

/** Moves the clock as `move` plans it (see the opening comment); answers the clock and what ran. */
export async function moveClock(
  services: Services,
  move: ClockMove,
  control: { signal?: AbortSignal; progress?: (runs: { done: number; total: number }) => void } = {},
): Promise<{ now: string; ran: JobRun[] }> {
  const { clock } = services;
  const ran: JobRun[] = [];
  const seeded = seededAt(services);
  for (const step of move.steps) {
    // A turn of the event loop between steps: in process (':memory:') each step runs on this
    // thread, and other requests (a cancel among them) go between two.
    await new Promise((next) => setImmediate(next));
    if (control.signal?.aborted) break;
    const reports = await runDueJobs(services, move.from, step);
    ran.push(...reports);
    // A run it worked on has no done row, or the database was seeded again: the database was
    // replaced meanwhile (a QA reset or restore). The move ends there, the clock as that left it.
    if (seededAt(services) !== seeded || reports.some((run) => !isDone(services, run)))
      return { now: new Date(clock.now()).toISOString(), ran };
    if (step > clock.now()) clock.set(step);
    control.progress?.({ done: Math.min(ran.length, move.owed), total: move.owed });
  }
  // The real clock ran on while the runs worked: never back from where the last step left it.
  if (!control.signal?.aborted)
    clock.set(move.steps.length ? Math.max(move.target, clock.now()) : move.target);
  return { now: new Date(clock.now()).toISOString(), ran };
}
