/**
 * Progress toward the next rank: left volume, right volume and qualified leaders against
 * the next rank's requirement (spec §3 Rank item), on Ranks & Rewards and the home.
 * Figures: with the server's `rank_progress` capability, what the rank run compares (lifetime rank
 * volume per leg, qualified leaders); without it (the provider), the legs' totals of the newest
 * Rank Volume row, and the leaders requirement alone (the provider serves no count of them).
 */
import { Card, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_RANK, contract, formatMoney, formatNumber } from '@md/shared';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { listOf, numberOf, recordOf, textOf } from '@/lib/guards.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { ProgressMeter } from './progress-meter.tsx';

/** Qualified leaders a rank item asks: Side_1 of its requirement map's first entry (spec §3). */
export const leadersRequiredBy = (rank: Record<string, unknown>): number =>
  numberOf(recordOf(Object.values(recordOf(rank.Rank_Qualification_Requirement) ?? {})[0])?.Side_1) ?? 0;

export interface RankFigures {
  left: number;
  right: number;
  /** Undefined when the server does not say (the provider). */
  leaders: number | undefined;
}

/** The member's figures the rank run compares with a rank's requirements. */
export function useRankFigures(enabled = true): { figures: RankFigures | undefined; isPending: boolean } {
  const trpc = useTRPC();
  const served = hasCapability(useConfig(), 'rank_progress');
  const progress = useQuery({ ...trpc['rank.view_rank_progress'].queryOptions({}), enabled: enabled && served, retry: false });
  const volume = useQuery({
    ...trpc['rank.view_rank_qualification'].queryOptions({ pageNo: 1, pageSize: 1, path: contract['rank.view_rank_qualification'].path }),
    enabled: enabled && !served,
    retry: false,
  });
  if (served) {
    const success = recordOf(recordOf(progress.data)?.Success);
    return {
      isPending: progress.isPending,
      figures: success
        ? { left: numberOf(success.Left_Volume) ?? 0, right: numberOf(success.Right_Volume) ?? 0, leaders: numberOf(success.Qualified_Leaders) }
        : undefined,
    };
  }
  if (volume.isError) return { isPending: false, figures: undefined };
  // The table's newest row carries the legs' lifetime totals; no row yet is no volume yet.
  const newest = listOf(recordOf(volume.data)?.Success)[0];
  return {
    isPending: volume.isPending,
    figures: volume.data ? { left: numberOf(newest?.Left_Total) ?? 0, right: numberOf(newest?.Right_Total) ?? 0, leaders: undefined } : undefined,
  };
}

/** Options of a read the page makes too: this component joins it without fetching it again. */
const JOINED = { retry: false, retryOnMount: false, refetchOnMount: false } as const;

/** The next rank after `current` in server order; undefined at the top or when `current` is not listed. */
function nextRankOf(ranks: readonly Record<string, unknown>[], current: string) {
  const at = ranks.findIndex((rank) => textOf(rank.Rank) === current);
  return at >= 0 ? ranks[at + 1] : ranks.find((rank) => textOf(rank.Rank) !== DEFAULT_RANK);
}

/** A card of three meters toward the next rank; nothing to show at the top rank. */
export function NextRankProgress({ headingLevel = 'h2' }: { headingLevel?: 'h2' | 'h3' }) {
  const trpc = useTRPC();
  // The page's own reads: joined, never fetched again on mounting (a failed one stays failed until the page retries).
  const ranksQuery = useQuery({ ...trpc['rank.view_all_ranks'].queryOptions({}), ...JOINED });
  const currentQuery = useQuery({ ...trpc['rank.current_rank'].queryOptions({}), ...JOINED });
  const { figures, isPending } = useRankFigures();
  const ranks = listOf(recordOf(ranksQuery.data)?.Success).filter((rank) => textOf(rank.Rank) !== '');
  const current = textOf(recordOf(recordOf(currentQuery.data)?.Success)?.Rank) || DEFAULT_RANK;
  const next = ranks.length > 0 ? nextRankOf(ranks, current) : undefined;
  const loading = ranksQuery.isPending || currentQuery.isPending || isPending;
  // Failures are the pages' to report (spec §8); the meters only stay away.
  if (!loading && (!next || !figures)) {
    return ranks.length > 0 && !next && !ranksQuery.isError ? (
      <Text color="fg.muted" data-testid="next-rank-top">
        You hold the top rank.
      </Text>
    ) : null;
  }
  const leadersNeeded = next ? leadersRequiredBy(next) : 0;
  return (
    <Card.Root variant="outline" as="section" aria-label="Progress to the next rank" data-testid="next-rank-progress">
      <Card.Body gap="4">
        <Heading as={headingLevel} size="md">
          {next ? `Progress to ${textOf(next.Rank)}` : 'Progress to the next rank'}
        </Heading>
        {loading || !next || !figures ? (
          <Stack gap="4" aria-busy>
            <Skeleton height="8" />
            <Skeleton height="8" />
            <Skeleton height="8" />
          </Stack>
        ) : (
          <Stack gap="4">
            <ProgressMeter label="Left volume" value={figures.left} max={numberOf(next.Left_Volune) ?? 0} format={formatMoney} />
            <ProgressMeter label="Right volume" value={figures.right} max={numberOf(next.Right_Volume) ?? 0} format={formatMoney} />
            {figures.leaders !== undefined ? (
              <ProgressMeter label="Qualified leaders" value={figures.leaders} max={leadersNeeded} format={formatNumber} colorPalette="purple" />
            ) : (
              <Text fontSize="sm" color="fg.muted" data-testid="next-rank-leaders">
                Qualified leaders needed: {formatNumber(leadersNeeded)} (directs with their own left and right direct referrals).
              </Text>
            )}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
