/** Package (subscription) transactions: the Transactions page and the Deposit page's Package tab. */
import { useMemo } from 'react';
import { cellText, toNumber, type Formatters, type OutputOf } from '@md/shared';
import type { DataColumn, PresetFilter } from '@/components/data-table/index.ts';
import { useT } from '@/lib/i18n/i18n.tsx';
import { walletName } from '@/lib/wallet-text.ts';
import { StatusBadge, useStatusText } from './status-badge.tsx';

export type SubscriptionRow = OutputOf<'subscription.subscription_transaction'>['Success'][number];

/**
 * 'Total Earned' is Max_Earnings minus Total_Earnings to 2 decimals, or '-' when both are zero; shown
 * as money like every other amount (one number format). The spec's wording; it reads like
 * "still to earn", but it is what the product shows.
 */
export function totalEarned(
  row: Pick<SubscriptionRow, 'Max_Earnings' | 'Total_Earnings'>,
  f: Pick<Formatters, 'money'>,
): string {
  const left = totalEarnedAmount(row);
  return left === null ? '-' : f.money(left);
}

/** The same as a number (sorted as one); null when both are zero. */
function totalEarnedAmount(row: Pick<SubscriptionRow, 'Max_Earnings' | 'Total_Earnings'>): number | null {
  const max = toNumber(row.Max_Earnings);
  const earned = toNumber(row.Total_Earnings);
  return max === 0 && earned === 0 ? null : max - earned;
}

/**
 * ACTIVE is green, anything else red (spec §4). "EXPIRED shows the Reason beside the badge": the
 * Reason column stands right beside Status (and on the phone card's face with it), so the reason
 * is printed once, not in the status cell as well.
 */
export function SubscriptionStatus({ row }: { row: Pick<SubscriptionRow, 'Status'> }) {
  return <StatusBadge status={row.Status} ok={row.Status === 'ACTIVE'} />;
}

/** The columns and the Status filter in the member's language (stable while the language is). */
export function useSubscriptionColumns(): {
  columns: readonly DataColumn<SubscriptionRow>[];
  filters: readonly PresetFilter[];
} {
  const t = useT();
  const statusText = useStatusText();
  return useMemo(
    () => ({
      columns: [
        { key: 'DateTime', header: t('tables.column.dateTime'), format: 'date', summary: true },
        { key: 'TransID', header: t('tables.column.transId') },
        { key: 'Name', header: t('tables.column.name'), summary: true },
        { key: 'Amount', header: t('tables.column.amount'), format: 'money', summary: true },
        { key: 'ROI_Percentage', header: t('tables.column.roiPercentage'), format: 'percent' },
        { key: 'Max_Earnings', header: t('tables.column.maxEarnings'), format: 'money' },
        { key: 'Total_Earnings', header: t('tables.column.totalEarnings'), format: 'money' },
        {
          key: 'Total_Earned',
          header: t('tables.column.totalEarned'),
          format: 'money',
          value: totalEarnedAmount,
        },
        {
          key: 'Wallet',
          header: t('tables.column.wallet'),
          value: (row) => walletName(t, String(row.Wallet ?? '')),
        },
        {
          key: 'Status',
          header: t('tables.column.status'),
          render: (row) => <SubscriptionStatus row={row} />,
          summary: true,
        },
        // Only an EXPIRED package has a reason; it sits beside the Status badge.
        {
          key: 'Reason',
          header: t('tables.column.reason'),
          value: (row) => cellText(row.Reason),
          summary: true,
        },
      ],
      filters: [
        {
          column: 'Status',
          label: t('tables.column.status'),
          options: ['ACTIVE', 'EXPIRED'],
          optionLabel: statusText,
        },
      ],
    }),
    [t, statusText],
  );
}
