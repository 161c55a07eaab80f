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
import { useFormat, useLocale, useT } from '@/lib/i18n/i18n.tsx';
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
  statementAmount,
  statementFigure,
} from './statement-files.ts';
import { reasonText, walletName } from '@/lib/wallet-text.ts';

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
  const t = useT();
  const f = useFormat();
  const [wallet, setWallet] = useState<WalletName>('Deposit');
  // Undefined: the current month, by the server's clock (the answer says which it is).
  const [month, setMonth] = useState<string>();
  const result = useStatement(wallet, month);
  const skew = useClockSkew(result);
  const months = skew === undefined ? [] : recentMonths(new Date(Date.now() + skew));
  const shown = month ?? (result.kind === 'ready' ? result.statement.Month : months[0]);
  if (shown && !months.includes(shown)) months.unshift(shown);
  return (
    <SectionCard title={t('wallets.statement.title')} description={t('wallets.statement.description')}>
      <Stack gap="4">
        <HStack gap="3" align="end" flexWrap="wrap">
          <Field.Root width={{ base: 'full', sm: '12rem' }}>
            <Field.Label>{t('wallets.statement.wallet')}</Field.Label>
            <NativeSelect.Root size="sm">
              <NativeSelect.Field
                value={wallet}
                onChange={(event) => setWallet(event.target.value as WalletName)}
              >
                {WALLET_NAMES.map((name) => (
                  <option key={name} value={name}>
                    {walletName(t, name)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <Field.Root width={{ base: 'full', sm: '12rem' }}>
            <Field.Label>{t('wallets.statement.month')}</Field.Label>
            <NativeSelect.Root size="sm" disabled={months.length === 0}>
              <NativeSelect.Field value={shown ?? ''} onChange={(event) => setMonth(event.target.value)}>
                {months.length === 0 && <option value="">{t('wallets.statement.currentMonth')}</option>}
                {months.map((m) => (
                  <option key={m} value={m}>
                    {f.month(m)}
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
  const t = useT();
  const f = useFormat();
  if (result.kind === 'loading')
    return <Skeleton height="12rem" role="status" aria-label={t('wallets.statement.loading')} />;
  if (result.kind === 'error')
    return (
      <Unavailable what={t('wallets.statement.what')} retrying={result.retrying} onRetry={result.retry} />
    );
  if (result.kind === 'too-long')
    return (
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Title>
          {t('wallets.statement.tooLong', { rows: f.number(DEVICE_STATEMENT_PAGES * 100) })}
        </Alert.Title>
      </Alert.Root>
    );
  return <StatementTable statement={result.statement} builtOnDevice={result.builtOnDevice} />;
}

function StatementTable({ statement: s, builtOnDevice }: { statement: Statement; builtOnDevice: boolean }) {
  const t = useT();
  const f = useFormat();
  const { locale } = useLocale();
  const { user } = useAuth();
  const [pdfBusy, setPdfBusy] = useState(false);
  const [pdfError, setPdfError] = useState(false);
  const words = { t, f };
  const current = isCurrentMonth(s);
  const row = (label: string, amount: number, strong = false, count?: number) => (
    <Table.Row key={label}>
      <Table.Cell fontWeight={strong ? 'semibold' : undefined}>
        {label}
        {count !== undefined && (
          <Text as="span" color="fg.muted">
            {' '}
            {t('wallets.statement.times', { count: f.number(count) })}
          </Text>
        )}
      </Table.Cell>
      <Table.Cell textAlign="end" fontWeight={strong ? 'semibold' : undefined} whiteSpace="nowrap">
        {statementAmount(amount, f.locale)}
      </Table.Cell>
    </Table.Row>
  );
  const lines = s.Lines;
  const unlisted = lines ? Math.max(0, (s.Line_Count ?? lines.length) - lines.length) : 0;
  return (
    <Stack gap="3" data-testid="statement">
      {builtOnDevice && (
        <Alert.Root status="info" data-testid="statement-on-device">
          <Alert.Indicator />
          <Alert.Title>{t('wallets.statement.builtOnDevice')}</Alert.Title>
        </Alert.Root>
      )}
      <Box as="dl" fontSize="sm" display="grid" gridTemplateColumns="auto 1fr" columnGap="3" rowGap="1">
        <Text as="dt" color="fg.muted">
          {current ? t('wallets.statement.asOf') : t('wallets.statement.closedAt')}
        </Text>
        <Text as="dd" data-testid="statement-as-of">
          {current
            ? t('wallets.statement.soFar', { time: f.dateTime(closingAt(s)) })
            : f.dateTime(closingAt(s))}
        </Text>
        {s.Reference && (
          <>
            <Text as="dt" color="fg.muted">
              {t('wallets.statement.reference')}
            </Text>
            <Text as="dd" fontFamily="mono" data-testid="statement-reference" wordBreak="break-all">
              {s.Reference}
            </Text>
          </>
        )}
        <Text as="dt" color="fg.muted">
          {t('wallets.statement.timesIn')}
        </Text>
        <Text as="dd">{f.timeZone}</Text>
      </Box>
      <Table.Root
        size="sm"
        variant="outline"
        aria-label={t('wallets.statement.tableLabel', {
          wallet: walletName(t, s.Wallet),
          month: f.month(s.Month),
        })}
      >
        <Table.Body>
          {row(t('wallets.statement.openingBalance'), s.Opening, true)}
          {s.Credits.map((c) => row(`+ ${reasonText(t, c.Reason)}`, c.Amount, false, c.Count))}
          {row(t('wallets.statement.totalCredits'), s.Total_Credits, true)}
          {s.Debits.map((d) => row(`− ${reasonText(t, d.Reason)}`, debit(d.Amount), false, d.Count))}
          {row(t('wallets.statement.totalDebits'), debit(s.Total_Debits), true)}
          {row(
            current ? t('wallets.statement.closingNow') : t('wallets.statement.closingBalance'),
            s.Closing,
            true,
          )}
        </Table.Body>
      </Table.Root>
      {lines && (
        <Stack gap="1">
          <Text fontWeight="semibold" fontSize="sm">
            {t('wallets.statement.lineItems', { count: s.Line_Count ?? lines.length })}
          </Text>
          {lines.length === 0 ? (
            <Text fontSize="sm" color="fg.muted">
              {t('wallets.statement.noMovementsMonth')}
            </Text>
          ) : (
            <Table.ScrollArea borderWidth="1px" borderRadius="md" maxHeight="24rem" tabIndex={0}>
              <Table.Root size="sm" stickyHeader aria-label={t('wallets.statement.lineItemsLabel')}>
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>{t('wallets.statement.date')}</Table.ColumnHeader>
                    <Table.ColumnHeader>{t('wallets.statement.reason')}</Table.ColumnHeader>
                    <Table.ColumnHeader>{t('wallets.statement.reference')}</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">
                      {t('wallets.statement.amountUsdt')}
                    </Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">
                      {t('wallets.statement.balanceUsdt')}
                    </Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {lines.map((line, index) => (
                    <Table.Row key={`${line.Reference}-${index}`}>
                      <Table.Cell whiteSpace="nowrap">{f.dateTime(line.DateTime)}</Table.Cell>
                      <Table.Cell whiteSpace="nowrap">{reasonText(t, line.Reason)}</Table.Cell>
                      <Table.Cell fontFamily="mono" whiteSpace="nowrap">
                        {line.Reference}
                      </Table.Cell>
                      <Table.Cell textAlign="end" whiteSpace="nowrap">
                        {statementFigure(line.Amount, f.locale)}
                      </Table.Cell>
                      <Table.Cell textAlign="end" whiteSpace="nowrap">
                        {statementFigure(line.Balance, f.locale)}
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
          )}
          {unlisted > 0 && (
            <Text fontSize="sm" color="fg.muted">
              {t('wallets.statement.unlistedScreen', { count: unlisted })}
            </Text>
          )}
        </Stack>
      )}
      <HStack gap="2" flexWrap="wrap">
        <Button size="sm" variant="outline" onClick={() => downloadStatementCsv(s, words, builtOnDevice)}>
          <LuFileText />
          {t('wallets.statement.downloadCsv')}
        </Button>
        <Button
          size="sm"
          variant="outline"
          loading={pdfBusy}
          loadingText={t('wallets.statement.makingPdf')}
          onClick={() => {
            setPdfBusy(true);
            setPdfError(false);
            const member = user?.name ? `${user.name} (${user.username})` : (user?.username ?? '');
            downloadStatementPdf(s, { member, locale, words, builtOnDevice })
              .catch(() => setPdfError(true))
              .finally(() => setPdfBusy(false));
          }}
        >
          <LuFileDown />
          {t('wallets.statement.downloadPdf')}
        </Button>
      </HStack>
      {pdfError && (
        <Text color="fg.error" fontSize="sm" role="alert">
          {t('wallets.statement.pdfFailed')}
        </Text>
      )}
    </Stack>
  );
}
