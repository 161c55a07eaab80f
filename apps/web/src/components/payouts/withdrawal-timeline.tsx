/**
 * Where a withdrawal is, one tap from its History row: with the server's `withdrawal_timeline`
 * capability, requested, then approved and paid (the transaction hash links to BscScan) or rejected
 * and refunded, each with its time; a rejection says why (`Reason`) and a pending request when it
 * is expected to be decided (`Expected_By`), each only when the answer has it (a provider serving the
 * timeline may leave them out). Without the capability (the provider): what the row's status word
 * allows, said as such (no times, no hash, no reason).
 */
import { useState } from 'react';
import { Badge, Button, Link, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { LuExternalLink, LuListChecks } from 'react-icons/lu';
import { formatDateTime, formatMoney, type WithdrawalTimeline } from '@md/shared';
import { SummaryList } from '@/components/form/summary-list.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { recordOf } from '@/lib/guards.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { InfoDialog } from './info-dialog.tsx';

/** What a History row of a withdrawal request says. */
export interface WithdrawalRowFacts {
  TransID: string;
  DateTime: string;
  Amount: number;
  Status: string;
}

export function WithdrawalTimelineButton({ row }: { row: WithdrawalRowFacts }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="outline"
        colorPalette="teal"
        onClick={() => setOpen(true)}
        aria-label={`Track withdrawal ${row.TransID}`}
      >
        <LuListChecks />
        Track
      </Button>
      {open && (
        <InfoDialog open title={`Withdrawal ${row.TransID}`} onClose={() => setOpen(false)}>
          <TimelineBody row={row} />
        </InfoDialog>
      )}
    </>
  );
}

interface Step {
  label: string;
  at: string | null;
  detail: string;
  tone: 'done' | 'waiting' | 'bad';
  /** A second line under the detail: why a rejection, when a pending one is due. */
  note?: { testId: string; text: string };
}

/** A field of the answer when it is there and says something (a drifted provider may send anything). */
const present = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

function TimelineBody({ row }: { row: WithdrawalRowFacts }) {
  const trpc = useTRPC();
  const served = hasCapability(useConfig(), 'withdrawal_timeline');
  const timeline = useQuery({
    ...trpc['withdraw.view_withdrawal_timeline'].queryOptions({ trans_id: row.TransID }),
    enabled: served,
    retry: false,
  });
  if (!served) return <FromStatusWord row={row} />;
  if (timeline.isPending) return <Skeleton height="8rem" aria-label="Loading the withdrawal timeline" />;
  const t = recordOf(timeline.data)?.Success as WithdrawalTimeline | undefined;
  if (timeline.isError || !t)
    return (
      <Unavailable
        what="withdrawal timeline"
        retrying={timeline.isFetching}
        onRetry={() => void timeline.refetch()}
      />
    );
  const reason = present(t.Reason);
  const expectedBy = present(t.Expected_By);
  const steps: Step[] = t.Steps.map((s) => ({
    label: s.Step,
    at: s.DateTime,
    detail: s.Detail,
    tone: s.Step === 'Rejected' ? 'bad' : 'done',
    ...(s.Step === 'Rejected' && reason
      ? { note: { testId: 'withdrawal-reason', text: `Reason: ${reason}` } }
      : {}),
  }));
  if (t.Status === 'PENDING')
    steps.push({
      label: 'Approval',
      at: null,
      detail: 'Waiting for approval',
      tone: 'waiting',
      ...(expectedBy && formatDateTime(expectedBy) !== '-'
        ? { note: { testId: 'withdrawal-expected-by', text: `Expected by ${formatDateTime(expectedBy)}` } }
        : {}),
    });
  return (
    <Stack gap="4" data-testid="withdrawal-timeline">
      <Steps steps={steps} />
      <SummaryList
        rows={[
          ['Amount', formatMoney(t.Amount)],
          ['Fee', formatMoney(t.Fee)],
          ...(t.Status === 'REJECTED'
            ? []
            : [[t.Status === 'APPROVED' ? 'Sent' : 'To be sent', formatMoney(t.Net_Amount)] as const]),
          [
            'To',
            <Text as="span" fontFamily="mono" fontSize="xs" overflowWrap="anywhere">
              {t.Address}
            </Text>,
          ],
        ]}
      />
      {t.Explorer_Url && t.Tx_Hash && (
        <Link
          href={t.Explorer_Url}
          target="_blank"
          rel="noopener noreferrer"
          colorPalette="teal"
          fontSize="sm"
          overflowWrap="anywhere"
        >
          Transaction {t.Tx_Hash.slice(0, 10)}…{t.Tx_Hash.slice(-8)} on BscScan <LuExternalLink />
        </Link>
      )}
      {t.Status === 'APPROVED' && !t.Tx_Hash && (
        <Text fontSize="sm" color="fg.muted">
          No transaction hash was recorded for this payout.
        </Text>
      )}
    </Stack>
  );
}

/** The provider answers one status word: the request's time is the row's, nothing else is known. */
function FromStatusWord({ row }: { row: WithdrawalRowFacts }) {
  const word = row.Status.toLowerCase();
  const steps: Step[] = [
    { label: 'Requested', at: row.DateTime, detail: `${formatMoney(row.Amount)} requested`, tone: 'done' },
  ];
  if (word === 'pending')
    steps.push({ label: 'Approval', at: null, detail: 'Waiting for approval', tone: 'waiting' });
  else if (word === 'rejected')
    steps.push({
      label: 'Rejected',
      at: null,
      detail: 'Rejected; the amount is refunded to the Withdrawal wallet (see the Withdrawal Refund row)',
      tone: 'bad',
    });
  else steps.push({ label: 'Approved and paid', at: null, detail: `Status: ${row.Status}`, tone: 'done' });
  return (
    <Stack gap="4" data-testid="withdrawal-timeline">
      <Steps steps={steps} />
      <Text fontSize="sm" color="fg.muted" data-testid="timeline-from-status">
        Built from the row&rsquo;s status: the provider gives no timeline, so times after the request and the
        transaction hash are not shown.
      </Text>
    </Stack>
  );
}

const TONE_PALETTE = { done: 'green', waiting: 'orange', bad: 'red' } as const;

function Steps({ steps }: { steps: readonly Step[] }) {
  return (
    <Stack as="ol" gap="3" listStyleType="none" m="0" p="0" aria-label="Timeline">
      {steps.map((s) => (
        <Stack
          as="li"
          key={s.label}
          gap="0.5"
          borderStartWidth="3px"
          borderColor={`${TONE_PALETTE[s.tone]}.solid`}
          ps="3"
        >
          <Stack direction="row" gap="2" align="center" flexWrap="wrap">
            <Badge colorPalette={TONE_PALETTE[s.tone]} variant="subtle">
              {s.label}
            </Badge>
            {s.at && (
              <Text fontSize="sm" color="fg.muted">
                {formatDateTime(s.at)}
              </Text>
            )}
          </Stack>
          <Text fontSize="sm">{s.detail}</Text>
          {s.note && (
            <Text fontSize="sm" fontWeight="medium" data-testid={s.note.testId} overflowWrap="anywhere">
              {s.note.text}
            </Text>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
