/** Rank facts (spec §3 Rank item, §4 Rank): labels, the next rank, leaders and spillover. */
import type { OutputOf } from '@md/shared';
import { numberOf, recordOf } from '@/lib/guards.ts';

export type RankItem = OutputOf<'rank.view_all_ranks'>['Success'][number];
export type RankLabel = 'Current' | 'Past' | 'Next';

const indexOf = (ranks: readonly RankItem[], current: string) =>
  ranks.findIndex((rank) => rank.Rank === current);

/** Before the current rank: Past; the current: Current; after it (or all, when it is not listed): Next. */
export function rankLabel(ranks: readonly RankItem[], current: string, index: number): RankLabel {
  const at = indexOf(ranks, current);
  if (index === at) return 'Current';
  return at >= 0 && index < at ? 'Past' : 'Next';
}

/** The rank after the current one in server order (spec §4); undefined at the top. */
export const nextRank = (ranks: readonly RankItem[], current: string): RankItem | undefined =>
  ranks[indexOf(ranks, current) + 1];

/** The requirement map's first entry (spec §3), when the item has one. */
const firstRequirement = (rank: RankItem) =>
  recordOf(Object.values(recordOf(rank.Rank_Qualification_Requirement) ?? {})[0]);

/** Qualified leaders: Side_1 of the requirement map's first entry. */
export const leadersOf = (rank: RankItem): number => numberOf(firstRequirement(rank)?.Side_1) ?? 0;

/** Spillover when the item (or its first requirement) carries a number. */
export function spilloverOf(rank: RankItem): number {
  return numberOf((rank as Record<string, unknown>).Spillover ?? firstRequirement(rank)?.Spillover) ?? 0;
}
