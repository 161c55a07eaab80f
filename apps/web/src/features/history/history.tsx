/**
 * History (/dashboard/history): the member's earning and transfer history. A payout row has "Why?"
 * (its details), a withdrawal request row "Track" (its timeline), one tap away.
 */
import { Stack } from '@chakra-ui/react';
import type { OutputOf } from '@md/shared';
import { DataTable, type DataColumn } from '@/components/data-table/index.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { PayoutDetailsButton } from '@/components/payouts/payout-details.tsx';
import { WithdrawalTimelineButton } from '@/components/payouts/withdrawal-timeline.tsx';
import { StatusBadge } from '@/components/tables/status-badge.tsx';

type EarningRow = OutputOf<'earning.view_all_earning_history'>['Success'][number];

/** The History Types of payouts the engine makes (spec §7 labels). */
const PAYOUT_TYPES = new Set(['ROI', 'Direct Income', 'Level Income', 'Binary Income', 'Rank Reward']);
const WITHDRAWAL_REQUEST = 'Withdrawal Request';

function RowAction({ row }: { row: EarningRow }) {
  if (PAYOUT_TYPES.has(row.Type)) return <PayoutDetailsButton transId={row.TransID} />;
  if (row.Type === WITHDRAWAL_REQUEST) return <WithdrawalTimelineButton row={row} />;
  return null;
}

const earningColumns: readonly DataColumn<EarningRow>[] = [
  { key: 'DateTime', header: 'Date', format: 'date', summary: true },
  { key: 'TransID', header: 'Transaction ID' },
  { key: 'Amount', header: 'Amount', format: 'money', summary: true },
  { key: 'Type', header: 'Type', summary: true },
  { key: 'By', header: 'By' },
  { key: 'Transfer', header: 'Transfer' },
  { key: 'Wallet', header: 'Wallet' },
  // Success is green, anything else red (spec §2).
  {
    key: 'Status',
    header: 'Status',
    render: (row) => <StatusBadge status={row.Status} ok={row.Status === 'Success'} />,
    summary: true,
  },
  {
    key: 'Details',
    header: 'Details',
    action: true,
    value: () => '',
    render: (row) => <RowAction row={row} />,
    summary: true,
  },
];

export default function HistoryPage() {
  const item = navItemByPath('/dashboard/history')!;
  return (
    <Stack gap="2">
      <PageHeader route={item} />
      <DataTable
        list="earning.view_all_earning_history"
        total="earning.total_pagination_earning_history"
        columns={earningColumns}
        caption="Earning history"
      />
    </Stack>
  );
}
