/** Bonus (/dashboard/bonus, spec §2): earnings over time, the Rank Bonus and Level Bonus tables, and the reward wallets. */
import { SimpleGrid, Stack, Tabs } from '@chakra-ui/react';
import { REWARD_WALLETS, formatMoney, type OutputOf } from '@md/shared';
import { AsOf } from '@/components/as-of.tsx';
import { EarningsChart } from '@/components/chart/earnings-chart.tsx';
import { DataTable, type DataColumn } from '@/components/data-table/index.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { PayoutDetailsButton } from '@/components/payouts/payout-details.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { StatCard } from '@/components/stat-card.tsx';
import { StatusBadge } from '@/components/tables/status-badge.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { availableOf, totalOf, useWallets } from '@/lib/wallets.ts';

type RankRewardRow = OutputOf<'rank.view_rank_transaction'>['Success'][number];
type LevelEarningRow = OutputOf<'level.level_earning_transaction'>['Success'][number];

const rankBonusColumns: readonly DataColumn<RankRewardRow>[] = [
  { key: 'DateTime', header: 'Date', format: 'date', summary: true },
  { key: 'Transaction_ID', header: 'Transaction ID' },
  { key: 'Current_Rank', header: 'Current Rank', summary: true },
  { key: 'Reward', header: 'Reward', format: 'money', summary: true },
  // true is Success (green), anything else Failed (red).
  {
    key: 'Status',
    header: 'Status',
    value: (row) => (row.Status === true ? 'Success' : 'Failed'),
    render: (row) => (
      <StatusBadge status={row.Status === true ? 'Success' : 'Failed'} ok={row.Status === true} />
    ),
    summary: true,
  },
  {
    key: 'Details',
    header: 'Details',
    action: true,
    value: () => '',
    render: (row) => <PayoutDetailsButton transId={row.Transaction_ID} />,
    summary: true,
  },
];

const levelBonusColumns: readonly DataColumn<LevelEarningRow>[] = [
  { key: 'DateTime', header: 'Date', format: 'date', summary: true },
  { key: 'TransID', header: 'TransID' },
  { key: 'Transaction_ID', header: 'Transaction ID' },
  { key: 'Subs_Amount', header: 'Subs Amount', format: 'money' },
  { key: 'From', header: 'From', summary: true },
  { key: 'Level', header: 'Level', format: 'number', summary: true },
  { key: 'Percentage', header: 'Percentage', format: 'percent' },
  { key: 'Expected_Amount', header: 'Expected Amount', format: 'money' },
  { key: 'Received_Amount', header: 'Received Amount', format: 'money', summary: true },
  {
    key: 'Details',
    header: 'Details',
    action: true,
    value: () => '',
    render: (row) => <PayoutDetailsButton transId={row.TransID} levelRow={row} />,
    summary: true,
  },
];

/** Two to a row on a phone; skeletons while loading, 'Unavailable' with a Retry when the read failed (never $0.00). */
function RewardWallets() {
  const { wallets, isPending, isError, isFetching, refetch, isRefetchError, dataUpdatedAt } = useWallets();
  if (isError && !wallets)
    return (
      <Unavailable what="Reward wallets" onRetry={() => void refetch()} retrying={isFetching} size="md" />
    );
  return (
    <SimpleGrid columns={{ base: 2, lg: 3 }} gap="4" aria-label="Reward wallets">
      {REWARD_WALLETS.map((name) => (
        <StatCard
          key={name}
          label={`${name} Wallet`}
          loading={isPending}
          value={formatMoney(availableOf(wallets, name))}
          help={
            isPending ? (
              'Available'
            ) : (
              <>
                Available · Total {formatMoney(totalOf(wallets, name))}
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

export default function BonusPage() {
  const item = navItemByPath('/dashboard/bonus')!;
  return (
    <Stack gap="2">
      <PageHeader route={item} />
      <EarningsChart />
      <Tabs.Root mt="4" defaultValue="rank" variant="line" colorPalette="teal" lazyMount unmountOnExit>
        <Tabs.List flexWrap="wrap" mb="4">
          <Tabs.Trigger value="rank">Rank Bonus</Tabs.Trigger>
          <Tabs.Trigger value="level">Level Bonus</Tabs.Trigger>
          <Tabs.Trigger value="wallet">Wallet</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="rank">
          <DataTable
            list="rank.view_rank_transaction"
            total="rank.total_pagination_rank_transaction"
            columns={rankBonusColumns}
            caption="Rank bonus"
          />
        </Tabs.Content>
        <Tabs.Content value="level">
          <DataTable
            list="level.level_earning_transaction"
            total="level.total_pagination_level_earning"
            columns={levelBonusColumns}
            caption="Level bonus"
          />
        </Tabs.Content>
        <Tabs.Content value="wallet">
          <RewardWallets />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}
