/** Deposits (open windows to pay or expire) and Withdrawals (pending requests to approve or reject). */
import { useState, type ReactNode } from 'react';
import { Button, Flex, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { formatMoney, WITHDRAWAL_REASON_MAX } from '@md/shared';
import { notify } from '@/lib/toaster.ts';
import { qaApi, qaKeys, type QaDeposit, type QaWithdrawal } from './qa-api.ts';
import { EmptyNote, ErrorNote, Item, ItemList, SectionHeader, shortTime, useQaAction } from './parts.tsx';

// A member may open a window or ask for a withdrawal while the tab is open: look again now and then.
const POLL_MS = 5_000;

function Row({ id, who, children }: { id: string; who?: string; children: ReactNode }) {
  return (
    <Flex justify="space-between" gap="2" wrap="wrap" align="baseline">
      <Text fontFamily="mono" fontSize="sm" fontWeight="semibold">
        {id}
      </Text>
      <Text fontSize="sm" color="fg.muted">
        {who ?? '—'}
      </Text>
      {children}
    </Flex>
  );
}

export function DepositsTab() {
  const deposits = useQuery({
    queryKey: qaKeys.deposits,
    queryFn: qaApi.pendingDeposits,
    refetchInterval: POLL_MS,
  });
  const pay = useQaAction((d: QaDeposit) => qaApi.payDeposit(d.TransID), {
    changesData: true,
    success: (result, d) => (result.credited ? `${d.TransID}: ${result.message ?? 'paid'}` : undefined),
    // Already paid: nothing was credited, which QA should notice.
    onDone: (result, d) => {
      if (!result.credited) notify.warning(`${d.TransID}: ${result.message ?? 'not credited'}`);
    },
  });
  const expire = useQaAction((d: QaDeposit) => qaApi.expireDeposit(d.TransID), {
    changesData: true,
    success: (_r, d) => `Deposit ${d.TransID} expired`,
  });
  const busy = pay.isPending || expire.isPending;

  return (
    <Stack gap="3">
      <SectionHeader
        title="Open deposit windows"
        onRefresh={() => void deposits.refetch()}
        refreshing={deposits.isFetching}
      />
      {deposits.error ? <ErrorNote error={deposits.error} /> : null}
      {deposits.isPending ? (
        <EmptyNote>Loading...</EmptyNote>
      ) : !deposits.data?.length ? (
        <EmptyNote>No open deposit windows. A member opens one on the Deposit page.</EmptyNote>
      ) : (
        <ItemList label="Open deposit windows">
          {deposits.data.map((d) => (
            <Item key={d.id} testId={`qa-deposit-${d.TransID}`}>
              <Row id={d.TransID} who={d.username}>
                <Text fontWeight="semibold">
                  {formatMoney(d.amount)} {d.currency}
                </Text>
              </Row>
              <Flex justify="space-between" align="center" gap="2" wrap="wrap">
                <Text fontSize="xs" color="fg.muted">
                  Opened {shortTime(d.createdAt)} · expires {shortTime(d.expiresAt)}
                  {d.paidAmount > 0 ? ` · ${formatMoney(d.paidAmount)} paid so far` : ''}
                </Text>
                <HStack gap="2">
                  <Button
                    size="xs"
                    colorPalette="teal"
                    aria-label={`Pay ${d.TransID}`}
                    disabled={busy}
                    loading={pay.isPending && pay.variables?.id === d.id}
                    onClick={() => pay.mutate(d)}
                  >
                    Pay
                  </Button>
                  <Button
                    size="xs"
                    variant="outline"
                    aria-label={`Expire ${d.TransID}`}
                    disabled={busy}
                    loading={expire.isPending && expire.variables?.id === d.id}
                    onClick={() => expire.mutate(d)}
                  >
                    Expire
                  </Button>
                </HStack>
              </Flex>
            </Item>
          ))}
        </ItemList>
      )}
    </Stack>
  );
}

export function WithdrawalsTab() {
  const withdrawals = useQuery({
    queryKey: qaKeys.withdrawals,
    queryFn: qaApi.pendingWithdrawals,
    refetchInterval: POLL_MS,
  });
  // The rejection reason typed per request (none: the server's default).
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const decide = useQaAction(
    ({ w, decision }: { w: QaWithdrawal; decision: 'approve' | 'reject' }) =>
      qaApi.decideWithdrawal(w.TransID, decision, reasons[w.TransID]),
    {
      changesData: true,
      success: (result, { w, decision }) =>
        decision === 'approve'
          ? `Withdrawal ${w.TransID} approved: ${formatMoney(result.netAmount)} paid`
          : `Withdrawal ${w.TransID} rejected: ${formatMoney(result.amount)} refunded${result.reason ? ` (${result.reason})` : ''}`,
    },
  );
  const busyWith = (w: QaWithdrawal, decision: 'approve' | 'reject') =>
    decide.isPending && decide.variables?.w.id === w.id && decide.variables.decision === decision;

  return (
    <Stack gap="3">
      <SectionHeader
        title="Pending withdrawals"
        onRefresh={() => void withdrawals.refetch()}
        refreshing={withdrawals.isFetching}
      />
      {withdrawals.error ? <ErrorNote error={withdrawals.error} /> : null}
      {withdrawals.isPending ? (
        <EmptyNote>Loading...</EmptyNote>
      ) : !withdrawals.data?.length ? (
        <EmptyNote>No pending withdrawals.</EmptyNote>
      ) : (
        <ItemList label="Pending withdrawals">
          {withdrawals.data.map((w) => (
            <Item key={w.id} testId={`qa-withdrawal-${w.TransID}`}>
              <Row id={w.TransID} who={w.username}>
                <Text fontWeight="semibold">{formatMoney(w.amount)}</Text>
              </Row>
              <Text fontSize="xs" color="fg.muted" overflowWrap="anywhere">
                Fee {formatMoney(w.fee)} · net {formatMoney(w.netAmount)} · to {w.address} · asked{' '}
                {shortTime(w.createdAt)}
              </Text>
              <HStack gap="2" justify="flex-end">
                <Input
                  size="xs"
                  flex="1"
                  minW="0"
                  placeholder="Rejection reason (optional)"
                  aria-label={`Rejection reason for ${w.TransID}`}
                  maxLength={WITHDRAWAL_REASON_MAX}
                  value={reasons[w.TransID] ?? ''}
                  onChange={(e) => setReasons((r) => ({ ...r, [w.TransID]: e.target.value }))}
                />
                <Button
                  size="xs"
                  colorPalette="teal"
                  aria-label={`Approve ${w.TransID}`}
                  disabled={decide.isPending}
                  loading={busyWith(w, 'approve')}
                  onClick={() => decide.mutate({ w, decision: 'approve' })}
                >
                  Approve
                </Button>
                <Button
                  size="xs"
                  variant="outline"
                  colorPalette="red"
                  aria-label={`Reject ${w.TransID}`}
                  disabled={decide.isPending}
                  loading={busyWith(w, 'reject')}
                  onClick={() => decide.mutate({ w, decision: 'reject' })}
                >
                  Reject
                </Button>
              </HStack>
            </Item>
          ))}
        </ItemList>
      )}
    </Stack>
  );
}
