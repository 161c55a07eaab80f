/** Ranks & Rewards (/dashboard/rankrewards, spec §2 "Rank System"): current, next and every rank. */
import { useEffect } from 'react';
import { Badge, Box, Card, Heading, List, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_RANK, MSG, formatMoney, formatNumber } from '@md/shared';
import { PageHeader } from '@/components/page-header.tsx';
import { NextRankProgress } from '@/components/progress/rank-progress.tsx';
import { StatCard } from '@/components/stat-card.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { listOf, recordOf, textOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { RankHistory } from './rank-history.tsx';
import { leadersOf, nextRank, rankLabel, spilloverOf, type RankItem, type RankLabel } from './rank-data.ts';

const LABEL_PALETTE: Record<RankLabel, string> = { Current: 'teal', Past: 'gray', Next: 'purple' };

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box display="flex" justifyContent="space-between" gap="3">
      <Text color="fg.muted">{label}</Text>
      <Text fontWeight="semibold">{value}</Text>
    </Box>
  );
}

function RankCard({ rank, label }: { rank: RankItem; label: RankLabel }) {
  const spillover = spilloverOf(rank);
  return (
    <Card.Root
      size="sm"
      variant="outline"
      data-testid={`rank-${rank.Rank}`}
      borderColor={label === 'Current' ? 'teal.solid' : undefined}
      borderWidth={label === 'Current' ? '2px' : '1px'}
    >
      <Card.Header display="flex" flexDirection="row" justifyContent="space-between" alignItems="center">
        <Heading as="h3" size="md">
          {rank.Rank}
        </Heading>
        <Badge colorPalette={LABEL_PALETTE[label]} variant={label === 'Current' ? 'solid' : 'subtle'}>
          {label}
        </Badge>
      </Card.Header>
      <Card.Body>
        <Stack gap="1" fontSize="sm">
          <Figure label="Reward" value={formatMoney(rank.Reward)} />
          <Figure label="Left volume" value={formatMoney(rank.Left_Volune)} />
          <Figure label="Right volume" value={formatMoney(rank.Right_Volume)} />
          <Figure label="Qualified leaders" value={formatNumber(leadersOf(rank))} />
          {spillover > 0 && <Figure label="Spillover" value={formatMoney(spillover)} />}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function HowToAdvance() {
  return (
    <Card.Root variant="subtle">
      <Card.Body>
        <Heading as="h2" size="md" mb="2">
          How to advance
        </Heading>
        <List.Root gap="1" ps="5">
          <List.Item>
            Build balanced team volume on both legs: each rank needs its left and right volume.
          </List.Item>
          <List.Item>
            Higher ranks also need qualified leaders: direct referrals who have their own 1:1 (one left, one
            right) direct referrals.
          </List.Item>
          <List.Item>
            Each rank pays its reward once, into the Rank wallet, when you qualify for it.
          </List.Item>
        </List.Root>
      </Card.Body>
    </Card.Root>
  );
}

export default function RankRewardsPage() {
  const trpc = useTRPC();
  const signedIn = Boolean(useAuth().user?.username);
  const ranksQuery = useQuery({
    ...trpc['rank.view_all_ranks'].queryOptions({}),
    enabled: signedIn,
    retry: false,
  });
  const currentQuery = useQuery({
    ...trpc['rank.current_rank'].queryOptions({}),
    enabled: signedIn,
    retry: false,
  });

  // Spec §8: failures are toasted (the server's words, else the fallback); the current rank falls back to Starter.
  const { error: ranksError } = ranksQuery;
  const { error: currentError } = currentQuery;
  // Toasts leave the render cycle first (the toaster flushes synchronously; two in one commit got lost).
  useEffect(() => {
    if (ranksError) queueMicrotask(() => notify.error(errorMessage(ranksError, MSG.failedLoadRanks)));
  }, [ranksError]);
  useEffect(() => {
    if (currentError)
      queueMicrotask(() => notify.error(errorMessage(currentError, MSG.failedLoadCurrentRank)));
  }, [currentError]);

  if (!signedIn) return <Text>{MSG.loginToViewRanks}</Text>;

  // Only named ranks are listed; a missing or odd current rank reads as Starter.
  const ranks = listOf<RankItem>(recordOf(ranksQuery.data)?.Success).filter(
    (rank) => typeof rank.Rank === 'string' && rank.Rank !== '',
  );
  const current = textOf(recordOf(recordOf(currentQuery.data)?.Success)?.Rank) || DEFAULT_RANK;
  const next = nextRank(ranks, current);
  const loading = ranksQuery.isPending || currentQuery.isPending;

  return (
    <Stack gap="6">
      <PageHeader heading="Rank System" description="Ranks, their requirements and one-time rewards" />
      {loading ? (
        <Spinner aria-label="Loading ranks" />
      ) : (
        <>
          <SimpleGrid columns={2} gap="4">
            <StatCard label="Current Rank" value={current} />
            <StatCard
              label="Next Rank"
              value={next ? next.Rank : 'Top rank reached'}
              help={
                next
                  ? `Reward ${formatMoney(next.Reward)} · ${formatMoney(next.Left_Volune)} left / ${formatMoney(next.Right_Volume)} right`
                  : undefined
              }
            />
          </SimpleGrid>
          {/* The member's figures against the next rank's requirements. */}
          <NextRankProgress />
          <RankHistory />
          <Box as="section" aria-label="All ranks">
            <Heading as="h2" size="lg" mb="3">
              All ranks
            </Heading>
            {ranks.length === 0 ? (
              <Text color="fg.muted">{ranksQuery.isError ? MSG.failedLoadRanks : 'No ranks available'}</Text>
            ) : (
              <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="4">
                {ranks.map((rank, index) => (
                  <RankCard key={rank.Rank} rank={rank} label={rankLabel(ranks, current, index)} />
                ))}
              </SimpleGrid>
            )}
          </Box>
          <HowToAdvance />
        </>
      )}
    </Stack>
  );
}
