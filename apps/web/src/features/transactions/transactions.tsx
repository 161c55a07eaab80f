/** Transactions (/dashboard/transactions): the member's package (subscription) transactions. */
import { Stack } from '@chakra-ui/react';
import { DataTable } from '@/components/data-table/index.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { useSubscriptionColumns } from '@/components/tables/subscription-columns.tsx';
import { useT } from '@/lib/i18n/i18n.tsx';

export default function TransactionsPage() {
  const t = useT();
  const item = navItemByPath('/dashboard/transactions')!;
  const { columns, filters } = useSubscriptionColumns();
  return (
    <Stack gap="2">
      <PageHeader route={item} />
      <DataTable
        list="subscription.subscription_transaction"
        total="subscription.total_pagination_subscription_transaction"
        columns={columns}
        presetFilters={filters}
        caption={t('history.packageTransactions')}
      />
    </Stack>
  );
}
