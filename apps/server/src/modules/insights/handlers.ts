/**
 * Figures the dashboard draws (charts and rank progress), extensions of this stand-in, not provider endpoints:
 * income per UTC day and type and leg volumes per UTC day (capability `daily_series`), and what
 * the rank run compares with the next rank's requirements (capability `rank_progress`). Each is
 * one key range of an index that is there already: earning_entries (member, time), migration
 * 0008; volume_entries (member, kind, time); binary_stats and members (sponsor).
 *
 * The series depend on the clock (the range ends today), so they are not among invoke's cached
 * reads: they keep their answers here, per member, range and day, until a write touches the member
 * (earning_entries, transfers and volume_entries all name their member).
 */
import { microsToAmount, type OutputOf } from '@md/shared';
import { prepared } from '../../core/prepared.ts';
import { createReadCache } from '../../core/read-cache.ts';
import type { AuthedCtx } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { binaryStatsOf, currentRankOf } from '../engine/stats.ts';

const DAY_MS = 86_400_000;

/** The ledger reasons of income and the field each adds to. */
const INCOME_FIELDS = {
  roi: 'ROI',
  direct_income: 'Direct',
  level_income: 'Level',
  binary_income: 'Binary',
  rank_reward: 'Rank',
} as const;
type IncomeField = (typeof INCOME_FIELDS)[keyof typeof INCOME_FIELDS];
type DailyEarning = OutputOf<'earning.view_daily_earnings'>['Success']['Days'][number];
type DailyVolume = OutputOf<'binary.view_daily_volume'>['Success']['Days'][number];

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last `days` UTC days, today included: the first instant and the two dates. */
function rangeOf(now: number, days: number) {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const from = today - (days - 1) * DAY_MS;
  return { from, until: today + DAY_MS, From: isoDay(from), To: isoDay(today) };
}

const series = createReadCache<unknown>(5_000);
/** The answer of `compute`, kept per member under `key` and today's date (tomorrow is another key). */
function kept<T>(ctx: AuthedCtx, key: string, compute: () => T): T {
  if (ctx.config.readCache === false) return compute();
  return series.get(ctx.sqlite, ctx.member.id, `${key}|${isoDay(ctx.clock.now())}`, compute) as T;
}

/** Income credited to the member's wallets per day and reason: the income rows of its earning history. */
export function dailyEarnings(
  ctx: Pick<AuthedCtx, 'sqlite'>,
  memberId: number,
  from: number,
  until: number,
): DailyEarning[] {
  const rows = prepared(
    ctx.sqlite,
    `select (e.created_at / ${DAY_MS}) as day, t.reason as reason, sum(t.amount) as micros
       from earning_entries e
         join transfers t on t.id = e.transfer_id
         join accounts ta on ta.id = t.to_account_id
       where e.member_id = @member and e.created_at >= @from and e.created_at < @until
         and ta.member_id = @member and t.reason in (${Object.keys(INCOME_FIELDS)
           .map((reason) => `'${reason}'`)
           .join(', ')})
       group by day, t.reason
       order by day`,
  ).all({ member: memberId, from, until }) as {
    day: number;
    reason: keyof typeof INCOME_FIELDS;
    micros: number;
  }[];
  const byDay = new Map<number, Record<IncomeField, number>>();
  for (const row of rows) {
    let micros = byDay.get(row.day);
    if (!micros) byDay.set(row.day, (micros = { ROI: 0, Direct: 0, Level: 0, Binary: 0, Rank: 0 }));
    micros[INCOME_FIELDS[row.reason]] += row.micros;
  }
  return [...byDay].map(([day, micros]) => ({
    Date: isoDay(day * DAY_MS),
    ROI: microsToAmount(micros.ROI),
    Direct: microsToAmount(micros.Direct),
    Level: microsToAmount(micros.Level),
    Binary: microsToAmount(micros.Binary),
    Rank: microsToAmount(micros.Rank),
  }));
}

/** Binary volume that reached each leg per day: the binary volume table's Volume summed by Side. */
export function dailyVolumes(
  ctx: Pick<AuthedCtx, 'sqlite'>,
  memberId: number,
  from: number,
  until: number,
): DailyVolume[] {
  const rows = prepared(
    ctx.sqlite,
    `select (created_at / ${DAY_MS}) as day, sum(case when side = '0' then volume else 0 end) as left,
        sum(case when side = '0' then 0 else volume end) as right
       from volume_entries
       where member_id = @member and kind = 'binary' and created_at >= @from and created_at < @until
       group by day
       order by day`,
  ).all({ member: memberId, from, until }) as { day: number; left: number; right: number }[];
  return rows.map((row) => ({
    Date: isoDay(row.day * DAY_MS),
    Left: microsToAmount(row.left),
    Right: microsToAmount(row.right),
  }));
}

/** Directs who have a direct on each side (the rank run's qualified leaders). */
export function qualifiedLeadersOf(ctx: Pick<AuthedCtx, 'sqlite'>, memberId: number): number {
  const row = prepared(
    ctx.sqlite,
    `select count(*) as leaders from members d
      where d.sponsor_id = ?
        and exists (select 1 from members c where c.sponsor_id = d.id and c.side = '0')
        and exists (select 1 from members c where c.sponsor_id = d.id and c.side = '1')`,
  ).get(memberId) as { leaders: number };
  return row.leaders;
}

export const insightHandlers: Handlers = {
  'earning.view_daily_earnings': (ctx, input) =>
    kept(ctx, `earnings|${input.days}`, () => {
      const range = rangeOf(ctx.clock.now(), input.days);
      return {
        Success: {
          From: range.From,
          To: range.To,
          Days: dailyEarnings(ctx, ctx.member.id, range.from, range.until),
        },
      };
    }),
  'binary.view_daily_volume': (ctx, input) =>
    kept(ctx, `volumes|${input.days}`, () => {
      const range = rangeOf(ctx.clock.now(), input.days);
      return {
        Success: {
          From: range.From,
          To: range.To,
          Days: dailyVolumes(ctx, ctx.member.id, range.from, range.until),
        },
      };
    }),
  // Not kept: the rank volumes live in binary_stats, whose writes drop no kept answer (core/read-cache.ts).
  'rank.view_rank_progress': (ctx) => {
    const stats = binaryStatsOf(ctx, ctx.member.id);
    return {
      Success: {
        Rank: stats?.rank ?? currentRankOf(ctx, ctx.member.id),
        Left_Volume: microsToAmount(stats?.rankLeft ?? 0),
        Right_Volume: microsToAmount(stats?.rankRight ?? 0),
        Qualified_Leaders: qualifiedLeadersOf(ctx, ctx.member.id),
      },
    };
  },
};
