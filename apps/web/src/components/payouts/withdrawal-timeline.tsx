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
import type { WithdrawalTimeline } from '@md/shared';
import { SummaryList } from '@/components/form/summary-list.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { recordOf } from '@/lib/guards.ts';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { useStatusText } from '@/components/tables/status-badge.tsx';
import { InfoDialog } from './info-dialog.tsx';

/** What a History row of a withdrawal request says. */
export interface WithdrawalRowFacts {
  TransID: string;
  DateTime: string;
  Amount: number;
  Status: string;
}

export function WithdrawalTimelineButton({ row }: { row: WithdrawalRowFacts }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="outline"
        colorPalette="teal"
        onClick={() => setOpen(true)}
        aria-label={t('history.track.buttonLabel', { transId: row.TransID })}
      >
        <LuListChecks />
        {t('history.track.button')}
      </Button>
      {open && (
        <InfoDialog
          open
          title={t('history.track.title', { transId: row.TransID })}
          onClose={() => setOpen(false)}
        >
          <TimelineBody row={row} />
        </InfoDialog>
      )}
    </>
  );
}

interface Step {
  /** Also the list item's key: one step of each kind. */
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

/** The server's step names in the member's language. */
const STEP_KEYS: Record<WithdrawalTimeline['Steps'][number]['Step'], MessageId> = {
  Requested: 'history.track.step.requested',
  Approved: 'history.track.step.approved',
  Paid: 'history.track.step.paid',
  Rejected: 'history.track.step.rejected',
  Refunded: 'history.track.step.refunded',
};

function TimelineBody({ row }: { row: WithdrawalRowFacts }) {
  const t = useT();
  const f = useFormat();
  const trpc = useTRPC();
  const served = hasCapability(useConfig(), 'withdrawal_timeline');
  const timeline = useQuery({
    ...trpc['withdraw.view_withdrawal_timeline'].queryOptions({ trans_id: row.TransID }),
    enabled: served,
    retry: false,
  });
  if (!served) return <FromStatusWord row={row} />;
  if (timeline.isPending)
    return <Skeleton height="8rem" role="status" aria-label={t('history.track.loading')} />;
  const w = recordOf(timeline.data)?.Success as WithdrawalTimeline | undefined;
  if (timeline.isError || !w)
    return (
      <Unavailable
        what={t('history.track.what')}
        retrying={timeline.isFetching}
        onRetry={() => void timeline.refetch()}
      />
    );
  const reason = present(w.Reason);
  const expectedBy = present(w.Expected_By);
  // Each step's words are the app's, in the member's language, from the figures the answer gives
  // (the server's Detail is the same sentence in English).
  const detailOf = (s: WithdrawalTimeline['Steps'][number]) =>
    t('history.track.detail', {
      step: s.Step,
      amount: f.money(s.Amount),
      fee: f.money(w.Fee),
      address: w.Address,
    });
  const steps: Step[] = w.Steps.map((s) => ({
    label: STEP_KEYS[s.Step] ? t(STEP_KEYS[s.Step]) : s.Step,
    at: s.DateTime,
    detail: STEP_KEYS[s.Step] ? detailOf(s) : s.Detail,
    tone: s.Step === 'Rejected' ? 'bad' : 'done',
    ...(s.Step === 'Rejected' && reason
      ? { note: { testId: 'withdrawal-reason', text: t('history.track.reason', { reason }) } }
      : {}),
  }));
  if (w.Status === 'PENDING')
    steps.push({
      label: t('history.track.step.approval'),
      at: null,
      detail: t('history.track.waiting'),
      tone: 'waiting',
      ...(expectedBy && f.dateTime(expectedBy) !== '-'
        ? {
            note: {
              testId: 'withdrawal-expected-by',
              text: t('history.track.expectedBy', { time: f.dateTime(expectedBy) }),
            },
          }
        : {}),
    });
  return (
    <Stack gap="4" data-testid="withdrawal-timeline">
      <Steps steps={steps} />
      <SummaryList
        rows={[
          [t('history.track.amount'), f.money(w.Amount)],
          [t('history.track.fee'), f.money(w.Fee)],
          ...(w.Status === 'REJECTED'
            ? []
            : [
                [
                  w.Status === 'APPROVED' ? t('history.track.sent') : t('history.track.toBeSent'),
                  f.money(w.Net_Amount),
                ] as const,
              ]),
          [
            t('history.track.to'),
            // An address reads left to right in any language.
            <Text as="span" fontFamily="mono" fontSize="xs" overflowWrap="anywhere" dir="ltr">
              {w.Address}
            </Text>,
          ],
        ]}
      />
      {w.Explorer_Url && w.Tx_Hash && (
        <Link
          href={w.Explorer_Url}
          target="_blank"
          rel="noopener noreferrer"
          colorPalette="teal"
          fontSize="sm"
          overflowWrap="anywhere"
        >
          {t('history.track.onBscScan', { hash: `${w.Tx_Hash.slice(0, 10)}…${w.Tx_Hash.slice(-8)}` })}{' '}
          <LuExternalLink />
        </Link>
      )}
      {w.Status === 'APPROVED' && !w.Tx_Hash && (
        <Text fontSize="sm" color="fg.muted">
          {t('history.track.noHash')}
        </Text>
      )}
    </Stack>
  );
}

/** The provider answers one status word: the request's time is the row's, nothing else is known. */
function FromStatusWord({ row }: { row: WithdrawalRowFacts }) {
  const t = useT();
  const f = useFormat();
  const statusText = useStatusText();
  const word = row.Status.toLowerCase();
  const steps: Step[] = [
    {
      label: t('history.track.step.requested'),
      at: row.DateTime,
      detail: t('history.track.requested', { amount: f.money(row.Amount) }),
      tone: 'done',
    },
  ];
  if (word === 'pending')
    steps.push({
      label: t('history.track.step.approval'),
      at: null,
      detail: t('history.track.waiting'),
      tone: 'waiting',
    });
  else if (word === 'rejected')
    steps.push({
      label: t('history.track.step.rejected'),
      at: null,
      detail: t('history.track.rejectedRefunded'),
      tone: 'bad',
    });
  else
    steps.push({
      label: t('history.track.step.approvedAndPaid'),
      at: null,
      detail: t('history.track.status', { status: statusText(row.Status) }),
      tone: 'done',
    });
  return (
    <Stack gap="4" data-testid="withdrawal-timeline">
      <Steps steps={steps} />
      <Text fontSize="sm" color="fg.muted" data-testid="timeline-from-status">
        {t('history.track.fromStatus')}
      </Text>
    </Stack>
  );
}

const TONE_PALETTE = { done: 'green', waiting: 'orange', bad: 'red' } as const;

function Steps({ steps }: { steps: readonly Step[] }) {
  const t = useT();
  const f = useFormat();
  return (
    <Stack as="ol" gap="3" listStyleType="none" m="0" p="0" aria-label={t('history.track.timeline')}>
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
                {f.dateTime(s.at)}
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
