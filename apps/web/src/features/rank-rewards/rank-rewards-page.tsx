/** Ranks & Rewards (/dashboard/rankrewards, spec §2 "Rank System"): current, next and every rank. */
import { useEffect } from 'react';
import { Badge, Box, Card, Heading, List, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_RANK, MSG } from '@md/shared';
import { PageHeader } from '@/components/page-header.tsx';
import { NextRankProgress } from '@/components/progress/rank-progress.tsx';
import { StatCard } from '@/components/stat-card.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import { listOf, recordOf, textOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { RankHistory } from './rank-history.tsx';
import { leadersOf, nextRank, rankLabel, spilloverOf, type RankItem, type RankLabel } from './rank-data.ts';

const LABEL_PALETTE: Record<RankLabel, string> = { Current: 'teal', Past: 'gray', Next: 'purple' };
const LABEL_KEYS: Record<RankLabel, MessageId> = {
  Current: 'earnings.rank.label.current',
  Past: 'earnings.rank.label.past',
  Next: 'earnings.rank.label.next',
};

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box display="flex" justifyContent="space-between" gap="3">
      <Text color="fg.muted">{label}</Text>
      <Text fontWeight="semibold">{value}</Text>
    </Box>
  );
}

function RankCard({ rank, label }: { rank: RankItem; label: RankLabel }) {
  const t = useT();
  const f = useFormat();
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
          {t(LABEL_KEYS[label])}
        </Badge>
      </Card.Header>
      <Card.Body>
        <Stack gap="1" fontSize="sm">
          <Figure label={t('earnings.rank.reward')} value={f.money(rank.Reward)} />
          <Figure label={t('earnings.leftVolume')} value={f.money(rank.Left_Volune)} />
          <Figure label={t('earnings.rightVolume')} value={f.money(rank.Right_Volume)} />
          <Figure label={t('earnings.qualifiedLeaders')} value={f.number(leadersOf(rank))} />
          {spillover > 0 && <Figure label={t('earnings.rank.spillover')} value={f.money(spillover)} />}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function HowToAdvance() {
  const t = useT();
  return (
    <Card.Root variant="subtle">
      <Card.Body>
        <Heading as="h2" size="md" mb="2">
          {t('earnings.rank.howToAdvance')}
        </Heading>
        <List.Root gap="1" ps="5">
          <List.Item>{t('earnings.rank.adviceVolume')}</List.Item>
          <List.Item>{t('earnings.rank.adviceLeaders')}</List.Item>
          <List.Item>{t('earnings.rank.adviceReward')}</List.Item>
        </List.Root>
      </Card.Body>
    </Card.Root>
  );
}

export default function RankRewardsPage() {
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
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
    if (ranksError)
      queueMicrotask(() => notify.error(messageText(errorMessage(ranksError, MSG.failedLoadRanks))));
  }, [ranksError, messageText]);
  useEffect(() => {
    if (currentError)
      queueMicrotask(() => notify.error(messageText(errorMessage(currentError, MSG.failedLoadCurrentRank))));
  }, [currentError, messageText]);

  if (!signedIn) return <Text>{messageText(MSG.loginToViewRanks)}</Text>;

  // Only named ranks are listed; a missing or odd current rank reads as Starter.
  const ranks = listOf<RankItem>(recordOf(ranksQuery.data)?.Success).filter(
    (rank) => typeof rank.Rank === 'string' && rank.Rank !== '',
  );
  const current = textOf(recordOf(recordOf(currentQuery.data)?.Success)?.Rank) || DEFAULT_RANK;
  const next = nextRank(ranks, current);
  const loading = ranksQuery.isPending || currentQuery.isPending;

  return (
    <Stack gap="6">
      <PageHeader heading={t('earnings.rank.heading')} description={t('earnings.rank.description')} />
      {loading ? (
        <Spinner role="status" aria-label={t('earnings.rank.loading')} />
      ) : (
        <>
          <SimpleGrid columns={2} gap="4">
            <StatCard label={t('earnings.rank.current')} value={current} />
            <StatCard
              label={t('earnings.rank.next')}
              value={next ? next.Rank : t('earnings.rank.topReached')}
              help={
                next
                  ? t('earnings.rank.nextHelp', {
                      reward: f.money(next.Reward),
                      left: f.money(next.Left_Volune),
                      right: f.money(next.Right_Volume),
                    })
                  : undefined
              }
            />
          </SimpleGrid>
          {/* The member's figures against the next rank's requirements. */}
          <NextRankProgress />
          <RankHistory />
          <Box as="section" aria-label={t('earnings.rank.all')}>
            <Heading as="h2" size="lg" mb="3">
              {t('earnings.rank.all')}
            </Heading>
            {ranks.length === 0 ? (
              <Text color="fg.muted">
                {ranksQuery.isError ? messageText(MSG.failedLoadRanks) : t('earnings.rank.none')}
              </Text>
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
