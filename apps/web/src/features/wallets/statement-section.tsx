/**
 * Statements (Wallets): a wallet's month at a glance (opening balance, credits and debits by
 * reason, closing balance), and the same as CSV or PDF. From the ledger with the server's
 * `statements` capability; otherwise built on the device from the history, and it says so.
 */
import { useState } from 'react';
import { Alert, Button, Field, HStack, NativeSelect, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { LuFileDown, LuFileText } from 'react-icons/lu';
import { WALLET_NAMES, type Statement, type WalletName } from '@md/shared';
import { SectionCard } from '@/components/section-card.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { recentMonths, useStatement, DEVICE_STATEMENT_PAGES } from './statement-data.ts';
import { debit, downloadStatementCsv, downloadStatementPdf, statementAmount } from './statement-files.ts';

export const BUILT_ON_DEVICE =
  'Built on this device from your history and your balance now: the provider offers no statements. Check it against your records before you rely on it.';

const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

export function StatementSection() {
  const months = recentMonths();
  const [wallet, setWallet] = useState<WalletName>('Deposit');
  const [month, setMonth] = useState(months[0]!);
  return (
    <SectionCard
      title="Statements"
      description="A wallet's month: opening balance, credits and debits by reason, closing balance (UTC months)."
    >
      <Stack gap="4">
        <HStack gap="3" align="end" flexWrap="wrap">
          <Field.Root width={{ base: 'full', sm: '12rem' }}>
            <Field.Label>Wallet</Field.Label>
            <NativeSelect.Root size="sm">
              <NativeSelect.Field
                value={wallet}
                onChange={(event) => setWallet(event.target.value as WalletName)}
              >
                {WALLET_NAMES.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <Field.Root width={{ base: 'full', sm: '12rem' }}>
            <Field.Label>Month</Field.Label>
            <NativeSelect.Root size="sm">
              <NativeSelect.Field value={month} onChange={(event) => setMonth(event.target.value)}>
                {months.map((m) => (
                  <option key={m} value={m}>
                    {monthLabel(m)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        </HStack>
        <StatementView wallet={wallet} month={month} />
      </Stack>
    </SectionCard>
  );
}

function StatementView({ wallet, month }: { wallet: WalletName; month: string }) {
  const result = useStatement(wallet, month);
  if (result.kind === 'loading') return <Skeleton height="12rem" aria-label="Loading the statement" />;
  if (result.kind === 'error')
    return <Unavailable what="statement" retrying={result.retrying} onRetry={result.retry} />;
  if (result.kind === 'too-long')
    return (
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Title>
          The provider offers no statements, and your history since this month is longer than this device
          reads ({DEVICE_STATEMENT_PAGES * 100} rows). Export the history instead (History → Export).
        </Alert.Title>
      </Alert.Root>
    );
  return (
    <StatementTable statement={result.statement} note={result.builtOnDevice ? BUILT_ON_DEVICE : undefined} />
  );
}

function StatementTable({ statement: s, note }: { statement: Statement; note?: string }) {
  const { user } = useAuth();
  const [pdfBusy, setPdfBusy] = useState(false);
  const [pdfError, setPdfError] = useState(false);
  const row = (label: string, amount: number, strong = false, count?: number) => (
    <Table.Row key={label}>
      <Table.Cell fontWeight={strong ? 'semibold' : undefined}>
        {label}
        {count !== undefined && (
          <Text as="span" color="fg.muted">
            {' '}
            × {count}
          </Text>
        )}
      </Table.Cell>
      <Table.Cell textAlign="end" fontWeight={strong ? 'semibold' : undefined} whiteSpace="nowrap">
        {statementAmount(amount).replace('$-', '-$')}
      </Table.Cell>
    </Table.Row>
  );
  return (
    <Stack gap="3" data-testid="statement">
      {note && (
        <Alert.Root status="info" data-testid="statement-on-device">
          <Alert.Indicator />
          <Alert.Title>{note}</Alert.Title>
        </Alert.Root>
      )}
      <Table.Root
        size="sm"
        variant="outline"
        aria-label={`${s.Wallet} wallet statement, ${monthLabel(s.Month)}`}
      >
        <Table.Body>
          {row('Opening balance', s.Opening, true)}
          {s.Credits.map((c) => row(`+ ${c.Reason}`, c.Amount, false, c.Count))}
          {row('Total credits', s.Total_Credits, true)}
          {s.Debits.map((d) => row(`− ${d.Reason}`, debit(d.Amount), false, d.Count))}
          {row('Total debits', debit(s.Total_Debits), true)}
          {row('Closing balance', s.Closing, true)}
        </Table.Body>
      </Table.Root>
      <HStack gap="2" flexWrap="wrap">
        <Button size="sm" variant="outline" onClick={() => downloadStatementCsv(s, note)}>
          <LuFileText />
          Download CSV
        </Button>
        <Button
          size="sm"
          variant="outline"
          loading={pdfBusy}
          loadingText="Making the PDF"
          onClick={() => {
            setPdfBusy(true);
            setPdfError(false);
            downloadStatementPdf(s, user?.username ?? '', note)
              .catch(() => setPdfError(true))
              .finally(() => setPdfBusy(false));
          }}
        >
          <LuFileDown />
          Download PDF
        </Button>
      </HStack>
      {pdfError && (
        <Text color="fg.error" fontSize="sm" role="alert">
          The PDF could not be made. Try again, or download the CSV.
        </Text>
      )}
    </Stack>
  );
}
