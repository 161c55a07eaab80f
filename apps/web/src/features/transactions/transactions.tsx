/** Transactions (/dashboard/transactions): the member's package (subscription) transactions. */
import { Stack } from '@chakra-ui/react';
import { DataTable } from '@/components/data-table/index.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { subscriptionColumns, subscriptionFilters } from '@/components/tables/subscription-columns.tsx';

export default function TransactionsPage() {
  const item = navItemByPath('/dashboard/transactions')!;
  return (
    <Stack gap="2">
      <PageHeader route={item} />
      <DataTable
        list="subscription.subscription_transaction"
        total="subscription.total_pagination_subscription_transaction"
        columns={subscriptionColumns}
        presetFilters={subscriptionFilters}
        caption="Package transactions"
      />
    </Stack>
  );
}
