/**
 * Progress toward the next rank: left volume, right volume and qualified leaders against
 * the next rank's requirement (spec §3 Rank item), on Ranks & Rewards and the home.
 * Figures: with the server's `rank_progress` capability, what the rank run compares (lifetime rank
 * volume per leg, qualified leaders); without it (the provider), the legs' totals of the newest
 * Rank Volume row, and the leaders requirement alone (the provider serves no count of them).
 */
import { Card, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_RANK, contract } from '@md/shared';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { listOf, numberOf, recordOf, textOf } from '@/lib/guards.ts';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
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
  const progress = useQuery({
    ...trpc['rank.view_rank_progress'].queryOptions({}),
    enabled: enabled && served,
    retry: false,
  });
  const volume = useQuery({
    ...trpc['rank.view_rank_qualification'].queryOptions({
      pageNo: 1,
      pageSize: 1,
      path: contract['rank.view_rank_qualification'].path,
    }),
    enabled: enabled && !served,
    retry: false,
  });
  if (served) {
    const success = recordOf(recordOf(progress.data)?.Success);
    return {
      isPending: progress.isPending,
      figures: success
        ? {
            left: numberOf(success.Left_Volume) ?? 0,
            right: numberOf(success.Right_Volume) ?? 0,
            leaders: numberOf(success.Qualified_Leaders),
          }
        : undefined,
    };
  }
  if (volume.isError) return { isPending: false, figures: undefined };
  // The table's newest row carries the legs' lifetime totals; no row yet is no volume yet.
  const newest = listOf(recordOf(volume.data)?.Success)[0];
  return {
    isPending: volume.isPending,
    figures: volume.data
      ? {
          left: numberOf(newest?.Left_Total) ?? 0,
          right: numberOf(newest?.Right_Total) ?? 0,
          leaders: undefined,
        }
      : undefined,
  };
}

/** Options of a read the page makes too: this component joins it without fetching it again. */
const JOINED = { retry: false, retryOnMount: false, refetchOnMount: false } as const;

/** The ranks after `current` in server order (all but the default rank when `current` is not listed). */
function ranksAfter(ranks: readonly Record<string, unknown>[], current: string) {
  const at = ranks.findIndex((rank) => textOf(rank.Rank) === current);
  return at >= 0 ? ranks.slice(at + 1) : ranks.filter((rank) => textOf(rank.Rank) !== DEFAULT_RANK);
}

/**
 * Whether the figures meet a rank's requirements as the rank run compares them (DESIGN §6): both
 * legs' volume and the qualified leaders. Leaders the server does not count (the provider) meet
 * only a requirement of none.
 */
export function meetsRank(figures: RankFigures, rank: Record<string, unknown>): boolean {
  const leaders = leadersRequiredBy(rank);
  return (
    figures.left >= (numberOf(rank.Left_Volune) ?? 0) &&
    figures.right >= (numberOf(rank.Right_Volume) ?? 0) &&
    (leaders === 0 || (figures.leaders !== undefined && figures.leaders >= leaders))
  );
}

/**
 * Where the member stands after `current`: the ranks the figures already meet (the rank run
 * promotes to the highest such rank and pays each reward, at its next run) and the first rank they
 * do not meet, the one to make progress toward (undefined: every rank is met or held).
 */
export function rankStanding(
  ranks: readonly Record<string, unknown>[],
  current: string,
  figures: RankFigures | undefined,
) {
  const after = ranksAfter(ranks, current);
  if (!figures) return { reached: [], next: after[0] };
  const reached: Record<string, unknown>[] = [];
  for (const rank of after) {
    if (!meetsRank(figures, rank)) return { reached, next: rank };
    reached.push(rank);
  }
  return { reached, next: undefined };
}

/** A card of three meters toward the next rank; nothing to show at the top rank. */
export function NextRankProgress({ headingLevel = 'h2' }: { headingLevel?: 'h2' | 'h3' }) {
  const t = useT();
  const f = useFormat();
  const trpc = useTRPC();
  // The page's own reads: joined, never fetched again on mounting (a failed one stays failed until the page retries).
  const ranksQuery = useQuery({ ...trpc['rank.view_all_ranks'].queryOptions({}), ...JOINED });
  const currentQuery = useQuery({ ...trpc['rank.current_rank'].queryOptions({}), ...JOINED });
  const { figures, isPending } = useRankFigures();
  const ranks = listOf(recordOf(ranksQuery.data)?.Success).filter((rank) => textOf(rank.Rank) !== '');
  const current = textOf(recordOf(recordOf(currentQuery.data)?.Success)?.Rank) || DEFAULT_RANK;
  const { reached, next } =
    ranks.length > 0 ? rankStanding(ranks, current, figures) : { reached: [], next: undefined };
  const loading = ranksQuery.isPending || currentQuery.isPending || isPending;
  // Ranks the figures already meet are awarded by the next rank run: said, not drawn as full bars.
  const awaiting = reached.length > 0 ? textOf(reached[reached.length - 1]!.Rank) : undefined;
  const awaitingNote = awaiting && (
    <Text fontSize="sm" color="fg.muted" data-testid="next-rank-awaiting">
      {t('earnings.progress.awaiting', { rank: awaiting })}
    </Text>
  );
  // Failures are the pages' to report (spec §8); the meters only stay away.
  if (!loading && (!next || !figures)) {
    if (ranks.length === 0 || next || ranksQuery.isError) return null;
    return awaiting ? (
      awaitingNote
    ) : (
      <Text color="fg.muted" data-testid="next-rank-top">
        {t('earnings.progress.topRank')}
      </Text>
    );
  }
  const leadersNeeded = next ? leadersRequiredBy(next) : 0;
  return (
    <Card.Root
      variant="outline"
      as="section"
      aria-label={t('earnings.progress.toNextRank')}
      data-testid="next-rank-progress"
    >
      <Card.Body gap="4">
        <Heading as={headingLevel} size="md">
          {next
            ? t('earnings.progress.toRank', { rank: textOf(next.Rank) })
            : t('earnings.progress.toNextRank')}
        </Heading>
        {loading || !next || !figures ? (
          <Stack gap="4" aria-busy>
            <Skeleton height="8" />
            <Skeleton height="8" />
            <Skeleton height="8" />
          </Stack>
        ) : (
          <Stack gap="4">
            {awaitingNote}
            <ProgressMeter
              label={t('earnings.leftVolume')}
              value={figures.left}
              max={numberOf(next.Left_Volune) ?? 0}
              format={f.money}
            />
            <ProgressMeter
              label={t('earnings.rightVolume')}
              value={figures.right}
              max={numberOf(next.Right_Volume) ?? 0}
              format={f.money}
            />
            {/* A rank that asks no leaders gets no meter: "64 of 0" drawn as a full bar measures nothing. */}
            {leadersNeeded === 0 ? (
              <Text fontSize="sm" color="fg.muted" data-testid="next-rank-leaders">
                {t('earnings.progress.noLeadersNeeded', { rank: textOf(next.Rank) })}
              </Text>
            ) : figures.leaders !== undefined ? (
              <ProgressMeter
                label={t('earnings.qualifiedLeaders')}
                value={figures.leaders}
                max={leadersNeeded}
                format={f.number}
                colorPalette="purple"
              />
            ) : (
              <Text fontSize="sm" color="fg.muted" data-testid="next-rank-leaders">
                {t('earnings.progress.leadersNeeded', { count: f.number(leadersNeeded) })}
              </Text>
            )}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
