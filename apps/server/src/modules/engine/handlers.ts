/** Rank endpoints (spec §3 Rank item, §4 Rank): the plan's ranks in order, and the caller's current rank. */
import type { Handlers } from '../../transport/handlers.ts';
import { currentRankOf } from './stats.ts';

export const rankHandlers: Handlers = {
  // Rank_Qualification_Requirement: one entry, 'Qualified_Leaders', whose Side_1 is the number of
  // qualified leaders (directs with their own 1:1 directs) the rank needs; no spillover requirement.
  'rank.view_all_ranks': (ctx) => ({
    Success: ctx.plan.ranks.map((r) => ({
      Rank: r.name,
      Reward: r.reward,
      Left_Volune: r.leftVolume,
      Right_Volume: r.rightVolume,
      Rank_Qualification_Requirement: { Qualified_Leaders: { Side_1: r.qualifiedLeaders } },
    })),
  }),
  'rank.current_rank': (ctx) => ({ Success: { Rank: currentRankOf(ctx, ctx.member.id) } }),
};
