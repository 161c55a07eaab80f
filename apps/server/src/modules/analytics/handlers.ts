/**
 * Dashboard figures. Each figure comes from its own function so the money issue only fills in
 * `binaryVolumes` and `subscriptionFigures` (and the ranks issue `currentRank`).
 */
import type { Services } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { hasActiveSubscription } from '../profile/subscriptions.ts';

type Reader = Pick<Services, 'sqlite' | 'db'>;
const MAX_LEVEL = 5;

/** Direct referrals, whole sponsor downline, and the deepest level (≤ 5) holding a member: one query. */
export function sponsorTeamFigures(ctx: Reader, memberId: number) {
  const row = ctx.sqlite
    .prepare<[{ root: number }], { directs: number | null; team: number | null; deepest: number | null }>(
      `with recursive team(id, level) as (
         select id, 1 from members where sponsor_id = @root
         union all
         select m.id, team.level + 1 from members m join team on m.sponsor_id = team.id
       )
       select sum(level = 1) as directs, count(*) as team, max(case when level <= ${MAX_LEVEL} then level end) as deepest from team`,
    )
    .get({ root: memberId });
  return { directReferrals: row?.directs ?? 0, teamSize: row?.team ?? 0, deepestLevel: row?.deepest ?? 0 };
}

/** Binary leg volumes in USDT. No purchases exist yet: 0 until the money issue records volume. */
export function binaryVolumes(_ctx: Reader, _memberId: number) {
  return { left: 0, right: 0 };
}

/** Subscription figures in USDT. 0 until the money issue adds subscriptions. */
export function subscriptionFigures(ctx: Reader, memberId: number) {
  return { activeSubscriptions: hasActiveSubscription(ctx, memberId) ? 1 : 0, maxEarnings: 0, totalEarnings: 0 };
}

/** Starter until ranks are evaluated. */
export function currentRank(_ctx: Reader, _memberId: number) {
  return 'Starter';
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
        Remaining_Earnings: Math.max(0, subscriptions.maxEarnings - subscriptions.totalEarnings),
        Direct_Referrals: team.directReferrals,
        Team_Size: team.teamSize,
      },
    };
  },
};
