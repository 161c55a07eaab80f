/**
 * Statements (Wallets): a wallet's month at a glance (opening balance, credits and debits by
 * reason, closing balance, every line item with its running balance), and the same as CSV or PDF.
 * From the ledger with the server's `statements` capability; otherwise built on the device from
 * the history, and it says so. The months offered run back from the server's clock (the
 * statement's Made_At), not this device's; the current month is "as of" the moment it was made.
 */
import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Field,
  HStack,
  NativeSelect,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { LuFileDown, LuFileText } from 'react-icons/lu';
import { WALLET_NAMES, type Statement, type WalletName } from '@md/shared';
import { SectionCard } from '@/components/section-card.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { useAuth } from '@/lib/auth.tsx';
import {
  DEVICE_STATEMENT_PAGES,
  recentMonths,
  useStatement,
  useStatementsServed,
  type StatementResult,
} from './statement-data.ts';
import {
  closingAt,
  debit,
  downloadStatementCsv,
  downloadStatementPdf,
  isCurrentMonth,
  memberTimeZone,
  statementAmount,
  statementFigure,
  statementMonthLabel,
  zonedDateTime,
} from './statement-files.ts';

export const BUILT_ON_DEVICE =
  'Built on this device from your history and your balance now: the provider offers no statements. Check it against your records before you rely on it.';

/**
 * The server clock less this device's, from the latest statement's Made_At; undefined until the
 * first says. A statement built on the device has only the device's clock: 0 from the start.
 */
function useClockSkew(result: StatementResult): number | undefined {
  const served = useStatementsServed();
  const [skew, setSkew] = useState<number>();
  const madeAt =
    result.kind === 'ready' && result.statement.Made_At ? Date.parse(result.statement.Made_At) : Number.NaN;
  const builtOnDevice = result.kind === 'ready' && result.builtOnDevice;
  useEffect(() => {
    if (Number.isFinite(madeAt)) setSkew(builtOnDevice ? 0 : madeAt - Date.now());
  }, [madeAt, builtOnDevice]);
  return served ? skew : 0;
}

export function StatementSection() {
  const [wallet, setWallet] = useState<WalletName>('Deposit');
  // Undefined: the current month, by the server's clock (the answer says which it is).
  const [month, setMonth] = useState<string>();
  const result = useStatement(wallet, month);
  const skew = useClockSkew(result);
  const months = skew === undefined ? [] : recentMonths(new Date(Date.now() + skew));
  const shown = month ?? (result.kind === 'ready' ? result.statement.Month : months[0]);
  if (shown && !months.includes(shown)) months.unshift(shown);
  return (
    <SectionCard
      title="Statements"
      description="A wallet's month: opening balance, every movement with its running balance, totals by reason, closing balance (UTC months)."
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
            <NativeSelect.Root size="sm" disabled={months.length === 0}>
              <NativeSelect.Field value={shown ?? ''} onChange={(event) => setMonth(event.target.value)}>
                {months.length === 0 && <option value="">Current month</option>}
                {months.map((m) => (
                  <option key={m} value={m}>
                    {statementMonthLabel(m)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        </HStack>
        <StatementView result={result} />
      </Stack>
    </SectionCard>
  );
}

function StatementView({ result }: { result: StatementResult }) {
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
  const timeZone = memberTimeZone();
  const current = isCurrentMonth(s);
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
        {statementAmount(amount)}
      </Table.Cell>
    </Table.Row>
  );
  const lines = s.Lines;
  const unlisted = lines ? Math.max(0, (s.Line_Count ?? lines.length) - lines.length) : 0;
  return (
    <Stack gap="3" data-testid="statement">
      {note && (
        <Alert.Root status="info" data-testid="statement-on-device">
          <Alert.Indicator />
          <Alert.Title>{note}</Alert.Title>
        </Alert.Root>
      )}
      <Box as="dl" fontSize="sm" display="grid" gridTemplateColumns="auto 1fr" columnGap="3" rowGap="1">
        <Text as="dt" color="fg.muted">
          {current ? 'As of' : 'Closed at'}
        </Text>
        <Text as="dd" data-testid="statement-as-of">
          {zonedDateTime(closingAt(s), timeZone)}
          {current ? ' (this month so far)' : ''}
        </Text>
        {s.Reference && (
          <>
            <Text as="dt" color="fg.muted">
              Reference
            </Text>
            <Text as="dd" fontFamily="mono" data-testid="statement-reference" wordBreak="break-all">
              {s.Reference}
            </Text>
          </>
        )}
        <Text as="dt" color="fg.muted">
          Times in
        </Text>
        <Text as="dd">{timeZone}</Text>
      </Box>
      <Table.Root
        size="sm"
        variant="outline"
        aria-label={`${s.Wallet} wallet statement, ${statementMonthLabel(s.Month)}`}
      >
        <Table.Body>
          {row('Opening balance', s.Opening, true)}
          {s.Credits.map((c) => row(`+ ${c.Reason}`, c.Amount, false, c.Count))}
          {row('Total credits', s.Total_Credits, true)}
          {s.Debits.map((d) => row(`− ${d.Reason}`, debit(d.Amount), false, d.Count))}
          {row('Total debits', debit(s.Total_Debits), true)}
          {row(current ? 'Closing balance, as of now' : 'Closing balance', s.Closing, true)}
        </Table.Body>
      </Table.Root>
      {lines && (
        <Stack gap="1">
          <Text fontWeight="semibold" fontSize="sm">
            Line items ({s.Line_Count ?? lines.length})
          </Text>
          {lines.length === 0 ? (
            <Text fontSize="sm" color="fg.muted">
              No movements in this month.
            </Text>
          ) : (
            <Table.ScrollArea borderWidth="1px" borderRadius="md" maxHeight="24rem" tabIndex={0}>
              <Table.Root size="sm" stickyHeader aria-label="Line items">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>Date</Table.ColumnHeader>
                    <Table.ColumnHeader>Reason</Table.ColumnHeader>
                    <Table.ColumnHeader>Reference</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">Amount (USDT)</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">Balance (USDT)</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {lines.map((line, index) => (
                    <Table.Row key={`${line.Reference}-${index}`}>
                      <Table.Cell whiteSpace="nowrap">{zonedDateTime(line.DateTime, timeZone)}</Table.Cell>
                      <Table.Cell whiteSpace="nowrap">{line.Reason}</Table.Cell>
                      <Table.Cell fontFamily="mono" whiteSpace="nowrap">
                        {line.Reference}
                      </Table.Cell>
                      <Table.Cell textAlign="end" whiteSpace="nowrap">
                        {statementFigure(line.Amount)}
                      </Table.Cell>
                      <Table.Cell textAlign="end" whiteSpace="nowrap">
                        {statementFigure(line.Balance)}
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
          )}
          {unlisted > 0 && (
            <Text fontSize="sm" color="fg.muted">
              {unlisted} further line items are not listed; the totals count them all.
            </Text>
          )}
        </Stack>
      )}
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
            const member = user?.name ? `${user.name} (${user.username})` : (user?.username ?? '');
            downloadStatementPdf(s, member, note)
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
