/**
 * Scheduled jobs (daily ROI, binary matching at 11:00 UK, ranks): the engine's runs. Advancing
 * the QA clock calls this hook with the interval that passed; it answers what ran.
 */
import type { Services } from '../../core/services.ts';
import { runDueJobs as runEngineJobs, type JobRunReport } from '../engine/jobs.ts';

export type JobRun = JobRunReport;

export function runDueJobs(services: Services, from: number, to: number): JobRun[] {
  return runEngineJobs(services, from, to);
}
