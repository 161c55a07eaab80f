/**
 * Dashboard figures. Each figure comes from its own function so each figure can be read,
 * tested and changed alone: `binaryVolumes` and `subscriptionFigures` from the money tables, `currentRank`
 * from the ranks.
 */
import { microsToAmount } from '@md/shared';
import { prepared } from '../../core/prepared.ts';
import type { Services } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { binaryStatsOf, currentRankOf } from '../engine/stats.ts';

type Reader = Pick<Services, 'sqlite' | 'db'>;
const MAX_LEVEL = 5;

/** Direct referrals, whole sponsor downline, and the deepest level (≤ 5) holding a member: one query. */
export function sponsorTeamFigures(ctx: Reader, memberId: number) {
  const row = prepared<
    [{ root: number }],
    { directs: number | null; team: number | null; deepest: number | null }
  >(
    ctx.sqlite,
    `with recursive team(id, level) as (
         select id, 1 from members where sponsor_id = @root
         union all
         select m.id, team.level + 1 from members m join team on m.sponsor_id = team.id
       )
       select sum(level = 1) as directs, count(*) as team, max(case when level <= ${MAX_LEVEL} then level end) as deepest from team`,
  ).get({ root: memberId });
  return { directReferrals: row?.directs ?? 0, teamSize: row?.team ?? 0, deepestLevel: row?.deepest ?? 0 };
}

/**
 * Binary leg volumes in USDT: the lifetime binary volume of each leg as of the last daily
 * binary run (purchases since then are folded in at the next 11:00 run).
 */
export function binaryVolumes(ctx: Reader, memberId: number) {
  const stats = binaryStatsOf(ctx, memberId);
  return { left: microsToAmount(stats?.leftTotal ?? 0), right: microsToAmount(stats?.rightTotal ?? 0) };
}

/** Figures of the member's ACTIVE subscriptions, in USDT. */
export function subscriptionFigures(ctx: Reader, memberId: number) {
  const row = prepared<[number], { active: number; maxEarnings: number; totalEarnings: number }>(
    ctx.sqlite,
    `select count(*) as active, coalesce(sum(max_earnings), 0) as maxEarnings, coalesce(sum(total_earnings), 0) as totalEarnings
         from subscriptions where member_id = ? and status = 'ACTIVE'`,
  ).get(memberId)!;
  return {
    activeSubscriptions: row.active,
    maxEarnings: microsToAmount(row.maxEarnings),
    totalEarnings: microsToAmount(row.totalEarnings),
    remainingEarnings: microsToAmount(Math.max(0, row.maxEarnings - row.totalEarnings)),
  };
}

/** The rank the last rank evaluation gave the member (Starter before any). */
export function currentRank(ctx: Reader, memberId: number) {
  return currentRankOf(ctx, memberId);
}

export const analyticsHandlers: Handlers = {
  'user_analytics.view_user_analytics': (ctx) => {
    const team = sponsorTeamFigures(ctx, ctx.member.id);
    const volumes = binaryVolumes(ctx, ctx.member.id);
    const subscriptions = subscriptionFigures(ctx, ctx.member.id);
    return {
      Success: {
        Current_Level: team.deepestLevel,
        Current_Rank: currentRank(ctx, ctx.member.id),
        Binary_Left: volumes.left,
        Binary_Right: volumes.right,
        Active_Subscriptions: subscriptions.activeSubscriptions,
        Max_Earnings: subscriptions.maxEarnings,
        Total_Earnings: subscriptions.totalEarnings,
        Remaining_Earnings: subscriptions.remainingEarnings,
        Direct_Referrals: team.directReferrals,
        Team_Size: team.teamSize,
      },
    };
  },
};
