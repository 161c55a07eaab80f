/**
 * The member's own business at a glance, extensions of this stand-in (not provider endpoints):
 * the team in numbers (capability `team_summary`), the next binary run with the legs' carry
 * (`binary_next_run`) and the ranks reached with their dates (`rank_history`). Each answers for
 * the token's member only and takes no name, so no other member can be asked about.
 *
 * Figures come from the tables the engine writes: members (binary parent and side, sponsor),
 * subscriptions (ACTIVE), binary_stats (carry after the last matching), rank_rewards (one row per
 * rank reached, written by the rank run) and the engine's own schedule (engine/schedule.ts).
 */
import { TEAM_DIRECTS_LISTED, microsToAmount, ukWeekAndMonthStart, type OutputOf } from '@md/shared';
import { isoTime } from '../../core/iso-time.ts';
import { prepared } from '../../core/prepared.ts';
import type { AuthedCtx } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { dueRuns } from '../engine/schedule.ts';
import { binaryStatsOf, currentRankOf } from '../engine/stats.ts';

type LegCounts = OutputOf<'team.view_team_summary'>['Success']['Left'];
const DAY_MS = 86_400_000;

/**
 * One leg's counts: the binary subtree under the member's child on `side`, walked through the
 * (parent_id, side) index. The walk is as long as the leg (a whole-network leg of the `scale`
 * scenario is 1,000,000 members): the answer is rate-limited per member like the tree reads.
 */
export function legCounts(
  ctx: Pick<AuthedCtx, 'sqlite'>,
  memberId: number,
  side: '0' | '1',
  week: number,
  month: number,
): LegCounts {
  const row = prepared(
    ctx.sqlite,
    `with recursive leg(id) as (
        select id from members where parent_id = @member and side = @side
        union all
        select m.id from members m join leg on m.parent_id = leg.id
      )
      select count(*) as members,
        coalesce(sum(exists (select 1 from subscriptions s where s.status = 'ACTIVE' and s.member_id = m.id)), 0) as active,
        coalesce(sum(m.created_at >= @week), 0) as week,
        coalesce(sum(m.created_at >= @month), 0) as month
      from leg join members m on m.id = leg.id`,
  ).get({ member: memberId, side, week, month }) as {
    members: number;
    active: number;
    week: number;
    month: number;
  };
  return {
    Members: row.members,
    Active: row.active,
    Inactive: row.members - row.active,
    New_This_Week: row.week,
    New_This_Month: row.month,
  };
}

function directsOf(ctx: Pick<AuthedCtx, 'sqlite'>, memberId: number) {
  const count = (
    prepared(ctx.sqlite, 'select count(*) as n from members where sponsor_id = ?').get(memberId) as {
      n: number;
    }
  ).n;
  const rows = prepared(
    ctx.sqlite,
    `select m.username, m.created_at as joined, coalesce(m.side, '0') as side,
        (select s.plan from subscriptions s where s.member_id = m.id order by s.status = 'ACTIVE' desc, s.created_at desc, s.id desc limit 1) as package,
        exists (select 1 from subscriptions s where s.status = 'ACTIVE' and s.member_id = m.id) as active
      from members m where m.sponsor_id = ? order by m.created_at desc, m.id desc limit ${TEAM_DIRECTS_LISTED}`,
  ).all(memberId) as {
    username: string;
    joined: number;
    side: '0' | '1';
    package: string | null;
    active: number;
  }[];
  return {
    Count: count,
    Rows: rows.map((r) => ({
      Username: r.username,
      Joined: isoTime(r.joined),
      Side: r.side,
      Package: r.package,
      Status: r.active ? ('ACTIVE' as const) : ('INACTIVE' as const),
    })),
  };
}

/** The next binary matching run after `now`, from the engine's schedule (11:00 Europe/London). */
export function nextBinaryRun(now: number): number {
  const run = dueRuns(now, now + 2 * DAY_MS).find((due) => due.job === 'binary');
  // The schedule runs binary every day: within two days there is always one.
  if (!run) throw new Error('no binary run within two days');
  return run.at;
}

export const teamHandlers: Handlers = {
  'team.view_team_summary': (ctx) => {
    const now = ctx.clock.now();
    // The UK calendar the daily runs follow; the web app counts its fallback in the same weeks.
    const { week, month } = ukWeekAndMonthStart(now);
    return {
      Success: {
        Week_From: isoTime(week),
        Month_From: isoTime(month),
        Left: legCounts(ctx, ctx.member.id, '0', week, month),
        Right: legCounts(ctx, ctx.member.id, '1', week, month),
        Directs: directsOf(ctx, ctx.member.id),
      },
    };
  },
  'binary.view_next_run': (ctx) => {
    const now = ctx.clock.now();
    const stats = binaryStatsOf(ctx, ctx.member.id);
    return {
      Success: {
        Now: isoTime(now),
        Next_Run: isoTime(nextBinaryRun(now)),
        Left_Carry: microsToAmount(stats?.leftCarry ?? 0),
        Right_Carry: microsToAmount(stats?.rightCarry ?? 0),
      },
    };
  },
  'rank.view_rank_history': (ctx) => {
    const rows = prepared(
      ctx.sqlite,
      'select rank, reward, trans_id as transId, created_at as at from rank_rewards where member_id = ? order by created_at, id',
    ).all(ctx.member.id) as {
      rank: string;
      reward: number;
      transId: string;
      at: number;
    }[];
    return {
      Success: {
        Rank: currentRankOf(ctx, ctx.member.id),
        Joined: isoTime(ctx.member.createdAt),
        History: rows.map((r) => ({
          Rank: r.rank,
          Reached_On: isoTime(r.at),
          Reward: microsToAmount(r.reward),
          TransID: r.transId,
        })),
      },
    };
  },
};
