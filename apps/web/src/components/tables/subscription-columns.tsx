/** Package (subscription) transactions: the Transactions page and the Deposit page's Package tab. */
import { cellText, formatMoney, toNumber, type OutputOf } from '@md/shared';
import type { DataColumn, PresetFilter } from '@/components/data-table/index.ts';
import { StatusBadge } from './status-badge.tsx';

export type SubscriptionRow = OutputOf<'subscription.subscription_transaction'>['Success'][number];

/**
 * 'Total Earned' is Max_Earnings minus Total_Earnings to 2 decimals, or '-' when both are zero; shown
 * as money like every other amount (one number format). The spec's wording; it reads like
 * "still to earn", but it is what the product shows.
 */
export function totalEarned(row: Pick<SubscriptionRow, 'Max_Earnings' | 'Total_Earnings'>): string {
  const left = totalEarnedAmount(row);
  return left === null ? '-' : formatMoney(left);
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

export const subscriptionColumns: readonly DataColumn<SubscriptionRow>[] = [
  { key: 'DateTime', header: 'DateTime', format: 'date', summary: true },
  { key: 'TransID', header: 'TransID' },
  { key: 'Name', header: 'Name', summary: true },
  { key: 'Amount', header: 'Amount', format: 'money', summary: true },
  { key: 'ROI_Percentage', header: 'ROI Percentage', format: 'percent' },
  { key: 'Max_Earnings', header: 'Max Earnings', format: 'money' },
  { key: 'Total_Earnings', header: 'Total Earnings', format: 'money' },
  { key: 'Total_Earned', header: 'Total Earned', format: 'money', value: totalEarnedAmount },
  { key: 'Wallet', header: 'Wallet' },
  { key: 'Status', header: 'Status', render: (row) => <SubscriptionStatus row={row} />, summary: true },
  // Only an EXPIRED package has a reason; it sits beside the Status badge.
  { key: 'Reason', header: 'Reason', value: (row) => cellText(row.Reason), summary: true },
];

export const subscriptionFilters: readonly PresetFilter[] = [
  { column: 'Status', label: 'Status', options: ['ACTIVE', 'EXPIRED'] },
];
