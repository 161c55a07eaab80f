/** History (/dashboard/history): the member's earning and transfer history. */
import { Stack } from '@chakra-ui/react';
import type { OutputOf } from '@md/shared';
import { DataTable, type DataColumn } from '@/components/data-table/index.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { StatusBadge } from '@/components/tables/status-badge.tsx';

type EarningRow = OutputOf<'earning.view_all_earning_history'>['Success'][number];

const earningColumns: readonly DataColumn<EarningRow>[] = [
  { key: 'DateTime', header: 'Date', format: 'date', summary: true },
  { key: 'TransID', header: 'Transaction ID' },
  { key: 'Amount', header: 'Amount', format: 'money', summary: true },
  { key: 'Type', header: 'Type', summary: true },
  { key: 'By', header: 'By' },
  { key: 'Transfer', header: 'Transfer' },
  { key: 'Wallet', header: 'Wallet' },
  // Success is green, anything else red (spec §2).
  { key: 'Status', header: 'Status', render: (row) => <StatusBadge status={row.Status} ok={row.Status === 'Success'} />, summary: true },
];

export default function HistoryPage() {
  const item = navItemByPath('/dashboard/history')!;
  return (
    <Stack gap="2">
      <PageHeader heading={item.heading} description={item.description} />
      <DataTable
        list="earning.view_all_earning_history"
        total="earning.total_pagination_earning_history"
        columns={earningColumns}
        caption="Earning history"
      />
    </Stack>
  );
}
