/**
 * Scheduled jobs (daily ROI, binary matching at 11:00 UK, ranks): the engine's runs. Advancing
 * the QA clock calls this hook with the interval that passed; it answers what ran once the runs
 * are done (in the worker thread on a database file: engine/runner.ts).
 */
import type { Services } from '../../core/services.ts';
import { dailyRunsOf, runDueJobs as runEngineJobs, type JobRunReport } from '../engine/jobs.ts';

export type JobRun = JobRunReport;

export function runDueJobs(services: Services, from: number, to: number): Promise<JobRun[]> {
  const runs = dailyRunsOf(services);
  return runs ? runs.runDue(from, to) : new Promise((resolve) => resolve(runEngineJobs(services, from, to)));
}
