/**
 * When the daily runs fall due (DESIGN §5): ROI at 00:05 Europe/London on Monday–Friday,
 * binary matching at 11:00 Europe/London every day, rank evaluation right after it. Times are
 * London wall-clock times, so the instant moves by an hour across the daylight-saving changes.
 */
import { TZDate } from '@date-fns/tz';

export const ENGINE_ZONE = 'Europe/London';
export const JOBS = ['roi', 'binary', 'ranks'] as const;
export type JobName = (typeof JOBS)[number];

/** London wall-clock time of each job; ranks share binary's instant and run after it. */
const JOB_TIME: Record<JobName, { hour: number; minute: number; weekdaysOnly: boolean }> = {
  roi: { hour: 0, minute: 5, weekdaysOnly: true },
  binary: { hour: 11, minute: 0, weekdaysOnly: false },
  ranks: { hour: 11, minute: 0, weekdaysOnly: false },
};

export interface DueRun {
  job: JobName;
  /** Business date, YYYY-MM-DD (London). */
  date: string;
  /** The instant the run is due (epoch ms); its payouts are dated then. */
  at: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The instant `job` is due on the London calendar date `date` (YYYY-MM-DD). */
export function scheduledAt(job: JobName, date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const { hour, minute } = JOB_TIME[job];
  return new TZDate(y, m - 1, d, hour, minute, 0, 0, ENGINE_ZONE).getTime();
}

/** Every run due in (from, to], in time order (roi, binary, ranks on one instant in that order). */
export function dueRuns(from: number, to: number): DueRun[] {
  if (to <= from) return [];
  const start = new TZDate(from, ENGINE_ZONE);
  const end = new TZDate(to, ENGINE_ZONE);
  const runs: DueRun[] = [];
  // Walk London calendar dates with UTC date arithmetic (no DST in UTC), from the day of `from`.
  for (let day = Date.UTC(start.getFullYear(), start.getMonth(), start.getDate()); day <= Date.UTC(end.getFullYear(), end.getMonth(), end.getDate()); day += 86_400_000) {
    const calendar = new Date(day);
    const weekday = calendar.getUTCDay();
    const date = `${calendar.getUTCFullYear()}-${pad(calendar.getUTCMonth() + 1)}-${pad(calendar.getUTCDate())}`;
    for (const job of JOBS) {
      if (JOB_TIME[job].weekdaysOnly && (weekday === 0 || weekday === 6)) continue;
      const at = scheduledAt(job, date);
      if (at > from && at <= to) runs.push({ job, date, at });
    }
  }
  return runs.sort((a, b) => a.at - b.at || JOBS.indexOf(a.job) - JOBS.indexOf(b.job));
}
