/**
 * Deposit (/dashboard/deposit): tabs Deposit (#profile), Package (#security) and Wallet
 * (#walletaddress) (spec §2). Deposit and Wallet show the deposit form and its history; Package
 * shows the subscription transactions.
 */
import { useState } from 'react';
import { Heading, Stack, Tabs } from '@chakra-ui/react';
import { useLocation } from 'react-router';
import type { OutputOf } from '@md/shared';
import { DataTable, type DataColumn } from '@/components/data-table/index.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { StatusBadge } from '@/components/tables/status-badge.tsx';
import { subscriptionColumns, subscriptionFilters } from '@/components/tables/subscription-columns.tsx';
import { DepositForm } from './deposit-form.tsx';

type DepositRow = OutputOf<'table.view_deposit_transaction'>['Success'][number];

/**
 * Text as the provider sends it (spec §2); the date shown like every table date when it parses as
 * one; the status as a badge like every other table's, its tone from the word.
 */
const depositColumns: readonly DataColumn<DepositRow>[] = [
  { key: 'id', header: 'ID' },
  { key: 'amount', header: 'Amount', format: 'money' },
  { key: 'date', header: 'Date', format: 'date' },
  { key: 'status', header: 'Status', render: (row) => <StatusBadge status={row.status} /> },
  { key: 'transaction_id', header: 'Transaction ID' },
];

/** Tab values double as the content elements' ids, which the spec names. */
const TABS = [
  { value: 'profile', label: 'Deposit' },
  { value: 'security', label: 'Package' },
  { value: 'walletaddress', label: 'Wallet' },
] as const;
type TabValue = (typeof TABS)[number]['value'];
const isTab = (value: string): value is TabValue => TABS.some((tab) => tab.value === value);

function DepositPanel() {
  return (
    <Stack gap="8">
      <DepositForm />
      <Stack as="section" aria-labelledby="deposit-history-heading" gap="3">
        <Heading as="h2" size="md" id="deposit-history-heading">
          Deposit History
        </Heading>
        <DataTable
          list="table.view_deposit_transaction"
          total="table.total_pagination_deposit_transaction"
          columns={depositColumns}
          caption="Deposit transactions"
        />
      </Stack>
    </Stack>
  );
}

export default function DepositPage() {
  const item = navItemByPath('/dashboard/deposit')!;
  const { hash } = useLocation();
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
          {TABS.map((t) => (
            <Tabs.Trigger key={t.value} value={t.value}>
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {/* Every panel element exists (so #profile, #security, #walletaddress resolve); only the open one renders its content. */}
        {TABS.map((t) => (
          <Tabs.Content key={t.value} value={t.value} pt="5">
            {tab === t.value &&
              (t.value === 'security' ? (
                <DataTable
                  list="subscription.subscription_transaction"
                  total="subscription.total_pagination_subscription_transaction"
                  columns={subscriptionColumns}
                  presetFilters={subscriptionFilters}
                  caption="Package transactions"
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
