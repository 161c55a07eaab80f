/**
 * Deposit (/dashboard/deposit): tabs Deposit (#profile), Package (#security) and Wallet
 * (#walletaddress) (spec §2). Deposit and Wallet show the deposit form and its history; Package
 * shows the subscription transactions.
 */
import { useMemo, useState } from 'react';
import { Heading, Stack, Tabs } from '@chakra-ui/react';
import { useLocation } from 'react-router';
import type { OutputOf } from '@md/shared';
import { DataTable, type DataColumn } from '@/components/data-table/index.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { StatusBadge } from '@/components/tables/status-badge.tsx';
import { useSubscriptionColumns } from '@/components/tables/subscription-columns.tsx';
import { useT } from '@/lib/i18n/i18n.tsx';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import { DepositForm } from './deposit-form.tsx';

type DepositRow = OutputOf<'table.view_deposit_transaction'>['Success'][number];

/**
 * Text as the provider sends it (spec §2); the date shown like every table date when it parses as
 * one; the status as a badge like every other table's, its tone from the word.
 */
const depositColumns = (t: ReturnType<typeof useT>): readonly DataColumn<DepositRow>[] => [
  { key: 'id', header: t('deposit.column.id') },
  { key: 'amount', header: t('common.amount'), format: 'money' },
  { key: 'date', header: t('common.date'), format: 'date' },
  { key: 'status', header: t('common.status'), render: (row) => <StatusBadge status={row.status} /> },
  { key: 'transaction_id', header: t('common.transactionId') },
];

/** Tab values double as the content elements' ids, which the spec names. */
const TABS = [
  { value: 'profile', label: 'deposit.tabs.deposit' },
  { value: 'security', label: 'deposit.tabs.package' },
  { value: 'walletaddress', label: 'deposit.tabs.wallet' },
] as const satisfies readonly { value: string; label: MessageId }[];
type TabValue = (typeof TABS)[number]['value'];
const isTab = (value: string): value is TabValue => TABS.some((tab) => tab.value === value);

function DepositPanel() {
  const t = useT();
  const columns = useMemo(() => depositColumns(t), [t]);
  return (
    <Stack gap="8">
      <DepositForm />
      <Stack as="section" aria-labelledby="deposit-history-heading" gap="3">
        <Heading as="h2" size="md" id="deposit-history-heading">
          {t('deposit.history.title')}
        </Heading>
        <DataTable
          list="table.view_deposit_transaction"
          total="table.total_pagination_deposit_transaction"
          columns={columns}
          caption={t('deposit.history.caption')}
        />
      </Stack>
    </Stack>
  );
}

export default function DepositPage() {
  const item = navItemByPath('/dashboard/deposit')!;
  const { hash } = useLocation();
  const t = useT();
  const subscriptions = useSubscriptionColumns();
  const [tab, setTab] = useState<TabValue>(() =>
    isTab(hash.slice(1)) ? (hash.slice(1) as TabValue) : 'profile',
  );
  return (
    <Stack gap="2">
      <PageHeader route={item} />
      <Tabs.Root
        value={tab}
        onValueChange={({ value }) => isTab(value) && setTab(value)}
        variant="line"
        colorPalette="teal"
        ids={{ content: (value) => value }}
      >
        <Tabs.List flexWrap="wrap">
          {TABS.map((tab) => (
            <Tabs.Trigger key={tab.value} value={tab.value}>
              {t(tab.label)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {/* Every panel element exists (so #profile, #security, #walletaddress resolve); only the open one renders its content. */}
        {TABS.map((panel) => (
          <Tabs.Content key={panel.value} value={panel.value} pt="5">
            {tab === panel.value &&
              (panel.value === 'security' ? (
                <DataTable
                  list="subscription.subscription_transaction"
                  total="subscription.total_pagination_subscription_transaction"
                  columns={subscriptions.columns}
                  presetFilters={subscriptions.filters}
                  caption={t('deposit.history.packageCaption')}
                />
              ) : (
                <DepositPanel />
              ))}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </Stack>
  );
}
