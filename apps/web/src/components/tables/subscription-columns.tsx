/** Package (subscription) transactions: the Transactions page and the Deposit page's Package tab. */
import { HStack, Text } from '@chakra-ui/react';
import { cellText, toNumber, truncate2, type OutputOf } from '@md/shared';
import type { DataColumn, PresetFilter } from '@/components/data-table/index.ts';
import { StatusBadge } from './status-badge.tsx';

export type SubscriptionRow = OutputOf<'subscription.subscription_transaction'>['Success'][number];

/**
 * 'Total Earned' is Max_Earnings minus Total_Earnings to 2 decimals, or '-' when both are zero.
 * (The spec's wording; it reads like "still to earn", but it is what the product shows.)
 */
export function totalEarned(row: Pick<SubscriptionRow, 'Max_Earnings' | 'Total_Earnings'>): string {
  const max = toNumber(row.Max_Earnings);
  const earned = toNumber(row.Total_Earnings);
  if (max === 0 && earned === 0) return '-';
  return truncate2(max - earned).toFixed(2);
}

/** ACTIVE is green, anything else red; EXPIRED shows its Reason beside the badge (spec §4). */
export function SubscriptionStatus({ row }: { row: Pick<SubscriptionRow, 'Status' | 'Reason'> }) {
  const expired = row.Status === 'EXPIRED';
  return (
    <HStack gap="2">
      <StatusBadge status={row.Status} ok={row.Status === 'ACTIVE'} />
      {expired && row.Reason && (
        <Text as="span" fontSize="xs" color="fg.muted">
          {cellText(row.Reason)}
        </Text>
      )}
    </HStack>
  );
}

export const subscriptionColumns: readonly DataColumn<SubscriptionRow>[] = [
  { key: 'DateTime', header: 'DateTime', format: 'date' },
  { key: 'TransID', header: 'TransID' },
  { key: 'Name', header: 'Name' },
  { key: 'Amount', header: 'Amount', format: 'money' },
  { key: 'ROI_Percentage', header: 'ROI Percentage' },
  { key: 'Max_Earnings', header: 'Max Earnings', format: 'money' },
  { key: 'Total_Earnings', header: 'Total Earnings', format: 'money' },
  { key: 'Total_Earned', header: 'Total Earned', value: (row) => totalEarned(row) },
  { key: 'Wallet', header: 'Wallet' },
  { key: 'Status', header: 'Status', render: (row) => <SubscriptionStatus row={row} /> },
  { key: 'Reason', header: 'Reason', value: (row) => cellText(row.Reason) },
];

export const subscriptionFilters: readonly PresetFilter[] = [{ column: 'Status', label: 'Status', options: ['ACTIVE', 'EXPIRED'] }];
