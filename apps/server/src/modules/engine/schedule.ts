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

/** scheduledAt's answers: a zoned date costs ~40 µs, and the catch-up asks for every run on record (jobs.ts). */
const dueInstants = new Map<string, number>();

/** The instant `job` is due on the London calendar date `date` (YYYY-MM-DD). */
export function scheduledAt(job: JobName, date: string): number {
  const key = `${job}/${date}`;
  let at = dueInstants.get(key);
  if (at === undefined) {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    const { hour, minute } = JOB_TIME[job];
    at = new TZDate(y, m - 1, d, hour, minute, 0, 0, ENGINE_ZONE).getTime();
    if (dueInstants.size >= 100_000) dueInstants.clear();
    dueInstants.set(key, at);
  }
  return at;
}

/** Jobs that run on the London calendar date `date` (YYYY-MM-DD), in their order on that date. */
export function jobsOn(date: string): JobName[] {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return JOBS.filter((job) => !(JOB_TIME[job].weekdaysOnly && (weekday === 0 || weekday === 6)));
}

/** The calendar date `days` after `date` (YYYY-MM-DD; negative goes back). */
export function addDays(date: string, days: number): string {
  const day = new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000);
  return `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`;
}

/** The London calendar date of an instant. */
export function londonDate(instant: number): string {
  const london = new TZDate(instant, ENGINE_ZONE);
  return `${london.getFullYear()}-${pad(london.getMonth() + 1)}-${pad(london.getDate())}`;
}

/** The order runs happen in: by due instant, then roi, binary, ranks (ranks share binary's instant). */
export const compareRuns = (a: Pick<DueRun, 'job' | 'at'>, b: Pick<DueRun, 'job' | 'at'>) =>
  a.at - b.at || JOBS.indexOf(a.job) - JOBS.indexOf(b.job);

/** Every run due in (from, to], in time order (roi, binary, ranks on one instant in that order). */
export function dueRuns(from: number, to: number): DueRun[] {
  if (to <= from) return [];
  const start = new TZDate(from, ENGINE_ZONE);
  const end = new TZDate(to, ENGINE_ZONE);
  const runs: DueRun[] = [];
  // Walk London calendar dates with UTC date arithmetic (no DST in UTC), from the day of `from`.
  for (
    let day = Date.UTC(start.getFullYear(), start.getMonth(), start.getDate());
    day <= Date.UTC(end.getFullYear(), end.getMonth(), end.getDate());
    day += 86_400_000
  ) {
    const calendar = new Date(day);
    const weekday = calendar.getUTCDay();
    const date = `${calendar.getUTCFullYear()}-${pad(calendar.getUTCMonth() + 1)}-${pad(calendar.getUTCDate())}`;
    for (const job of JOBS) {
      if (JOB_TIME[job].weekdaysOnly && (weekday === 0 || weekday === 6)) continue;
      const at = scheduledAt(job, date);
      if (at > from && at <= to) runs.push({ job, date, at });
    }
  }
  return runs.sort(compareRuns);
}
