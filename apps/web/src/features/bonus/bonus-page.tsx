/** Bonus (/dashboard/bonus, spec §2): earnings over time, the Rank Bonus and Level Bonus tables, and the reward wallets. */
import { useMemo } from 'react';
import { SimpleGrid, Stack, Tabs } from '@chakra-ui/react';
import { REWARD_WALLETS, type OutputOf } from '@md/shared';
import { AsOf } from '@/components/as-of.tsx';
import { EarningsChart } from '@/components/chart/earnings-chart.tsx';
import { DataTable, type DataColumn } from '@/components/data-table/index.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { PayoutDetailsButton } from '@/components/payouts/payout-details.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { StatCard } from '@/components/stat-card.tsx';
import { StatusBadge } from '@/components/tables/status-badge.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import { availableOf, totalOf, useWallets } from '@/lib/wallets.ts';

type RankRewardRow = OutputOf<'rank.view_rank_transaction'>['Success'][number];
type LevelEarningRow = OutputOf<'level.level_earning_transaction'>['Success'][number];

/** Two to a row on a phone; skeletons while loading, 'Unavailable' with a Retry when the read failed (never $0.00). */
function RewardWallets() {
  const t = useT();
  const f = useFormat();
  const { wallets, isPending, isError, isFetching, refetch, isRefetchError, dataUpdatedAt } = useWallets();
  if (isError && !wallets)
    return (
      <Unavailable
        what={t('earnings.bonus.rewardWallets')}
        onRetry={() => void refetch()}
        retrying={isFetching}
        size="md"
      />
    );
  return (
    <SimpleGrid columns={{ base: 2, lg: 3 }} gap="4" aria-label={t('earnings.bonus.rewardWallets')}>
      {REWARD_WALLETS.map((name) => (
        <StatCard
          key={name}
          label={t('earnings.bonus.walletTitle', { wallet: name })}
          loading={isPending}
          value={f.money(availableOf(wallets, name))}
          help={
            isPending ? (
              t('earnings.bonus.available')
            ) : (
              <>
                {t('earnings.bonus.availableTotal', { total: f.money(totalOf(wallets, name)) })}
                {/* The latest refresh failed: the figures are from then, and say so. */}
                {isRefetchError && <AsOf updatedAt={dataUpdatedAt} />}
              </>
            )
          }
        />
      ))}
    </SimpleGrid>
  );
}

function useBonusColumns() {
  const t = useT();
  return useMemo(() => {
    const rank: readonly DataColumn<RankRewardRow>[] = [
      { key: 'DateTime', header: t('tables.column.date'), format: 'date', summary: true },
      { key: 'Transaction_ID', header: t('tables.column.transactionId') },
      { key: 'Current_Rank', header: t('tables.column.currentRank'), summary: true },
      { key: 'Reward', header: t('tables.column.reward'), format: 'money', summary: true },
      // true is Success (green), anything else Failed (red).
      {
        key: 'Status',
        header: t('tables.column.status'),
        value: (row) => (row.Status === true ? 'Success' : 'Failed'),
        render: (row) => (
          <StatusBadge status={row.Status === true ? 'Success' : 'Failed'} ok={row.Status === true} />
        ),
        summary: true,
      },
      {
        key: 'Details',
        header: t('tables.column.details'),
        action: true,
        value: () => '',
        render: (row) => <PayoutDetailsButton transId={row.Transaction_ID} />,
        summary: true,
      },
    ];
    const level: readonly DataColumn<LevelEarningRow>[] = [
      { key: 'DateTime', header: t('tables.column.date'), format: 'date', summary: true },
      { key: 'TransID', header: t('tables.column.transId') },
      { key: 'Transaction_ID', header: t('tables.column.transactionId') },
      { key: 'Subs_Amount', header: t('tables.column.subsAmount'), format: 'money' },
      { key: 'From', header: t('tables.column.from'), summary: true },
      { key: 'Level', header: t('tables.column.level'), format: 'number', summary: true },
      { key: 'Percentage', header: t('tables.column.percentage'), format: 'percent' },
      { key: 'Expected_Amount', header: t('tables.column.expectedAmount'), format: 'money' },
      { key: 'Received_Amount', header: t('tables.column.receivedAmount'), format: 'money', summary: true },
      {
        key: 'Details',
        header: t('tables.column.details'),
        action: true,
        value: () => '',
        render: (row) => <PayoutDetailsButton transId={row.TransID} levelRow={row} />,
        summary: true,
      },
    ];
    return { rank, level };
  }, [t]);
}

export default function BonusPage() {
  const t = useT();
  const columns = useBonusColumns();
  const item = navItemByPath('/dashboard/bonus')!;
  return (
    <Stack gap="2">
      <PageHeader route={item} />
      <EarningsChart />
      <Tabs.Root mt="4" defaultValue="rank" variant="line" colorPalette="teal" lazyMount unmountOnExit>
        <Tabs.List flexWrap="wrap" mb="4">
          <Tabs.Trigger value="rank">{t('earnings.bonus.rankTab')}</Tabs.Trigger>
          <Tabs.Trigger value="level">{t('earnings.bonus.levelTab')}</Tabs.Trigger>
          <Tabs.Trigger value="wallet">{t('earnings.bonus.walletTab')}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="rank">
          <DataTable
            list="rank.view_rank_transaction"
            total="rank.total_pagination_rank_transaction"
            columns={columns.rank}
            caption={t('earnings.bonus.rankCaption')}
          />
        </Tabs.Content>
        <Tabs.Content value="level">
          <DataTable
            list="level.level_earning_transaction"
            total="level.total_pagination_level_earning"
            columns={columns.level}
            caption={t('earnings.bonus.levelCaption')}
          />
        </Tabs.Content>
        <Tabs.Content value="wallet">
          <RewardWallets />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}
