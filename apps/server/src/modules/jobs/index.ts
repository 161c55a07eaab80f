/**
 * Scheduled jobs (daily ROI, binary matching at 11:00 UK, ranks) come with the money issue.
 * Advancing the QA clock calls this hook with the interval that passed; it answers what ran.
 */
import type { Services } from '../../core/services.ts';

export interface JobRun {
  job: string;
  /** Business date (YYYY-MM-DD) the run is for. */
  date: string;
  summary?: string;
}

export function runDueJobs(_services: Services, _from: number, _to: number): JobRun[] {
  return [];
}
