/**
 * History (/dashboard/history): the member's earning and transfer history. A payout row has "Why?"
 * (its details), a withdrawal request row "Track" (its timeline), one tap away.
 */
import { useCallback, useMemo } from 'react';
import { Stack } from '@chakra-ui/react';
import { cellText, type OutputOf } from '@md/shared';
import { DataTable, type DataColumn } from '@/components/data-table/index.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { PayoutDetailsButton } from '@/components/payouts/payout-details.tsx';
import { WithdrawalTimelineButton } from '@/components/payouts/withdrawal-timeline.tsx';
import { StatusBadge } from '@/components/tables/status-badge.tsx';
import { useT } from '@/lib/i18n/i18n.tsx';
import { walletName } from '@/lib/wallet-text.ts';
import { historySearchText, historyTypeLabel } from './history-types.ts';

type EarningRow = OutputOf<'earning.view_all_earning_history'>['Success'][number];

/** The History Types of payouts the engine makes (spec §7 labels, as the server sends them). */
const PAYOUT_TYPES = new Set(['ROI', 'Direct Income', 'Level Income', 'Binary Income', 'Rank Reward']);
const WITHDRAWAL_REQUEST = 'Withdrawal Request';

function RowAction({ row }: { row: EarningRow }) {
  if (PAYOUT_TYPES.has(row.Type)) return <PayoutDetailsButton transId={row.TransID} />;
  if (row.Type === WITHDRAWAL_REQUEST) return <WithdrawalTimelineButton row={row} />;
  return null;
}

export default function HistoryPage() {
  const t = useT();
  const item = navItemByPath('/dashboard/history')!;
  const columns = useMemo<readonly DataColumn<EarningRow>[]>(
    () => [
      { key: 'DateTime', header: t('tables.column.date'), format: 'date', summary: true },
      { key: 'TransID', header: t('tables.column.transactionId') },
      { key: 'Amount', header: t('tables.column.amount'), format: 'money', summary: true },
      // The Type in the member's language: shown, sorted and exported as read.
      {
        key: 'Type',
        header: t('tables.column.type'),
        value: (row) => historyTypeLabel(t, row.Type),
        summary: true,
      },
      // Who and which accounts, as the provider names them (members, ledger accounts): data.
      {
        key: 'By',
        header: t('tables.column.by'),
        render: (row) => <span data-provider-text>{cellText(row.By)}</span>,
      },
      {
        key: 'Transfer',
        header: t('tables.column.transfer'),
        render: (row) => <span data-provider-text>{cellText(row.Transfer)}</span>,
      },
      {
        key: 'Wallet',
        header: t('tables.column.wallet'),
        value: (row) => walletName(t, String(row.Wallet ?? '')),
      },
      // Success is green, anything else red (spec §2).
      {
        key: 'Status',
        header: t('tables.column.status'),
        render: (row) => <StatusBadge status={row.Status} ok={row.Status === 'Success'} />,
        summary: true,
      },
      {
        key: 'Details',
        header: t('tables.column.details'),
        action: true,
        value: () => '',
        render: (row) => <RowAction row={row} />,
        summary: true,
      },
    ],
    [t],
  );
  const searchText = useCallback((typed: string) => historySearchText(t, typed), [t]);
  return (
    <Stack gap="2">
      <PageHeader route={item} />
      <DataTable
        list="earning.view_all_earning_history"
        total="earning.total_pagination_earning_history"
        columns={columns}
        caption={t('history.caption')}
        searchText={searchText}
      />
    </Stack>
  );
}
