/**
 * Rank history on Ranks & Rewards: each rank reached, when, and its reward, from joining (a
 * Starter) to now. With the server's `rank_history` capability, the rank runs' own record; without
 * it (the provider), the rank rewards table, which holds a row per rank reached, and the join date
 * from the profile: said so under the list.
 */
import { Badge, Box, Card, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_RANK, contract } from '@md/shared';
import { Unavailable } from '@/components/unavailable.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import { listOf, numberOf, recordOf, textOf } from '@/lib/guards.ts';
import { useTRPC } from '@/lib/trpc.ts';

interface Step {
  rank: string;
  at: string;
  reward: number | undefined;
}

/** Rank rewards read in the fallback: one page holds every rank of a plan many times over. */
const REWARD_ROWS = 100;

function useRankHistory() {
  const trpc = useTRPC();
  const served = hasCapability(useConfig(), 'rank_history');
  const joinedOfProfile = textOf(useAuth().profile?.Created_On);
  const history = useQuery({
    ...trpc['rank.view_rank_history'].queryOptions({}),
    enabled: served,
    retry: false,
  });
  const rewards = useQuery({
    ...trpc['rank.view_rank_transaction'].queryOptions({
      pageNo: 1,
      pageSize: REWARD_ROWS,
      path: contract['rank.view_rank_transaction'].path,
    }),
    enabled: !served,
    retry: false,
  });
  const query = served ? history : rewards;
  let steps: Step[] | undefined;
  let joined = joinedOfProfile;
  if (served && history.data) {
    const success = recordOf(recordOf(history.data)?.Success);
    joined = textOf(success?.Joined) || joinedOfProfile;
    steps = listOf(success?.History).map((row) => ({
      rank: textOf(row.Rank),
      at: textOf(row.Reached_On),
      reward: numberOf(row.Reward),
    }));
  } else if (!served && rewards.data) {
    // The table is newest first: the history reads oldest first.
    steps = listOf(recordOf(rewards.data)?.Success)
      .map((row) => ({
        rank: textOf(row.Current_Rank),
        at: textOf(row.DateTime),
        reward: numberOf(row.Reward),
      }))
      .reverse();
  }
  return {
    served,
    steps,
    joined,
    isPending: query.isPending,
    isError: query.isError,
    isFetching: query.isFetching,
    refetch: query.refetch,
  };
}

export function RankHistory() {
  const t = useT();
  const f = useFormat();
  const { served, steps, joined, isPending, isError, isFetching, refetch } = useRankHistory();
  const all: Step[] | undefined = steps && [{ rank: DEFAULT_RANK, at: joined, reward: undefined }, ...steps];
  return (
    <Box as="section" aria-label={t('earnings.rankHistory.title')}>
      <Heading as="h2" size="lg" mb="3">
        {t('earnings.rankHistory.title')}
      </Heading>
      <Card.Root variant="outline">
        <Card.Body>
          {isPending ? (
            <Skeleton height="6rem" role="status" aria-label={t('earnings.rankHistory.loading')} />
          ) : isError || !all ? (
            <Unavailable
              what={t('earnings.rankHistory.title')}
              onRetry={() => void refetch()}
              retrying={isFetching}
            />
          ) : (
            <Stack as="ol" gap="0" listStyleType="none" m="0" p="0" data-testid="rank-history">
              {all.map((step, index) => (
                <Box
                  as="li"
                  key={`${step.rank}-${index}`}
                  display="flex"
                  flexWrap="wrap"
                  alignItems="center"
                  columnGap="2"
                  py="2"
                  borderBottomWidth={index < all.length - 1 ? '1px' : '0'}
                >
                  <Text fontWeight="semibold" flex="1">
                    {step.rank}
                  </Text>
                  {step.reward !== undefined && step.reward > 0 && (
                    <Badge colorPalette="teal" variant="subtle">
                      {t('earnings.rankHistory.reward', { amount: f.money(step.reward) })}
                    </Badge>
                  )}
                  {index === all.length - 1 && (
                    <Badge colorPalette="teal" variant="solid">
                      {t('earnings.rank.label.current')}
                    </Badge>
                  )}
                  <Text color="fg.muted" fontSize="sm" w="full">
                    {index === 0
                      ? t('earnings.rankHistory.joined', { time: f.dateTime(step.at) })
                      : t('earnings.rankHistory.reached', { time: f.dateTime(step.at) })}
                  </Text>
                </Box>
              ))}
            </Stack>
          )}
          {!served && all && (
            <Text fontSize="sm" color="fg.muted" mt="2" data-testid="rank-history-note">
              {t('earnings.rankHistory.fromRewards')}
            </Text>
          )}
        </Card.Body>
      </Card.Root>
    </Box>
  );
}
