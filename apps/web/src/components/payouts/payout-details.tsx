/**
 * Why a payout is what it is, one tap from its row (Bonus, History). With the server's
 * `payout_details` capability: the binary legs before the run, matched, carried and flushed; the
 * downline member and level of a direct or level income; the packages, rates and business day of
 * a ROI payout; and the 3x cap room each used. Without it (the provider): a Level Bonus row
 * explains itself from its own columns; any other payout says plainly that the provider does not
 * offer the detail.
 */
import { useState } from 'react';
import { Button, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { LuCircleHelp } from 'react-icons/lu';
import type { PayoutDetails } from '@md/shared';
import { SummaryList } from '@/components/form/summary-list.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { recordOf } from '@/lib/guards.ts';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { InfoDialog } from './info-dialog.tsx';

/** What a Level Bonus row itself says (spec §7), shown when the server explains no further. */
export interface LevelRowFacts {
  From: string;
  Level: number;
  Percentage: number;
  Subs_Amount: number;
  Transaction_ID: string;
  Expected_Amount: number;
  Received_Amount: number;
}

/** The "Why?" button of a payout row and its dialog. */
export function PayoutDetailsButton({ transId, levelRow }: { transId: string; levelRow?: LevelRowFacts }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="outline"
        colorPalette="teal"
        onClick={() => setOpen(true)}
        aria-label={t('earnings.why.buttonLabel', { transId })}
      >
        <LuCircleHelp />
        {t('earnings.why.button')}
      </Button>
      {open && (
        <InfoDialog open title={t('earnings.why.title', { transId })} onClose={() => setOpen(false)}>
          <PayoutDetailsBody transId={transId} levelRow={levelRow} />
        </InfoDialog>
      )}
    </>
  );
}

function PayoutDetailsBody({ transId, levelRow }: { transId: string; levelRow?: LevelRowFacts }) {
  const t = useT();
  const trpc = useTRPC();
  const served = hasCapability(useConfig(), 'payout_details');
  const details = useQuery({
    ...trpc['earning.view_payout_details'].queryOptions({ trans_id: transId }),
    enabled: served,
    retry: false,
  });
  if (!served) {
    if (levelRow) return <LevelFromRow row={levelRow} />;
    return <Text data-testid="payout-details-unavailable">{t('earnings.why.providerHasNoDetails')}</Text>;
  }
  if (details.isPending)
    return <Skeleton height="10rem" role="status" aria-label={t('earnings.why.loading')} />;
  const success = recordOf(details.data)?.Success as PayoutDetails | undefined;
  if (details.isError || !success)
    return (
      <Unavailable
        what={t('earnings.why.what')}
        retrying={details.isFetching}
        onRetry={() => void details.refetch()}
      />
    );
  return <PayoutExplained d={success} />;
}

function LevelFromRow({ row }: { row: LevelRowFacts }) {
  const t = useT();
  const f = useFormat();
  return (
    <Stack gap="3" data-testid="payout-details">
      <SummaryList
        rows={[
          [t('earnings.why.from'), row.From],
          [t('earnings.why.level'), f.number(row.Level)],
          [
            t('earnings.why.purchase'),
            t('earnings.why.purchaseValue', {
              amount: f.money(row.Subs_Amount),
              transId: row.Transaction_ID,
            }),
          ],
          [t('earnings.why.rate'), f.percent(row.Percentage)],
          [t('earnings.why.expected'), f.money(row.Expected_Amount)],
          [t('earnings.why.received'), f.money(row.Received_Amount)],
        ]}
      />
      <Text fontSize="sm" color="fg.muted">
        {t('earnings.why.fromLevelRow')}
      </Text>
    </Stack>
  );
}

/** Members read these: days and times as the rest of the app writes them, and words, not the ledger's terms. */
function CapLines({ d }: { d: PayoutDetails }) {
  const t = useT();
  const f = useFormat();
  const rows: [string, string][] = [
    [t('earnings.why.paidOn'), f.dateTime(d.DateTime)],
    [t('earnings.why.dueByPlan'), f.money(d.Expected)],
    [t('earnings.why.overLimit'), f.money(d.Cap_Taken)],
    [
      t('earnings.why.paidToYou'),
      t('earnings.why.paidInto', { amount: f.money(d.Received), wallet: d.Wallet }),
    ],
  ];
  if (d.Cap_Headroom_Before !== null && d.Cap_Headroom_After !== null)
    rows.push(
      [t('earnings.why.leftBefore'), f.money(d.Cap_Headroom_Before)],
      [t('earnings.why.leftAfter'), f.money(d.Cap_Headroom_After)],
    );
  return <SummaryList rows={rows} />;
}

function PayoutExplained({ d }: { d: PayoutDetails }) {
  const t = useT();
  const f = useFormat();
  return (
    <Stack gap="4" data-testid="payout-details">
      {d.Binary && <BinaryLegs d={d} b={d.Binary} />}
      {d.Level && (
        <Text>
          {t('earnings.why.levelIncome', {
            kind: d.Type === 'Direct' ? 'direct' : 'level',
            level: d.Level.Level,
            percent: f.percent(d.Level.Percentage),
            amount: f.money(d.Level.Subs_Amount),
            from: d.Level.From,
            transId: d.Level.Transaction_ID,
          })}
        </Text>
      )}
      {d.ROI && (
        <Stack gap="2">
          <Text>{t('earnings.why.roiIntro', { day: f.day(d.ROI.Business_Date) })}</Text>
          <Table.Root size="sm" variant="outline">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{t('earnings.why.package')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('earnings.why.amount')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('earnings.why.dailyRate')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('earnings.why.paidForDay')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {d.ROI.Packages.map((p) => (
                <Table.Row key={p.TransID}>
                  <Table.Cell>{p.Name}</Table.Cell>
                  <Table.Cell textAlign="end">{f.money(p.Amount)}</Table.Cell>
                  <Table.Cell textAlign="end">{f.percent(p.ROI_Percentage)}</Table.Cell>
                  <Table.Cell textAlign="end">{f.money(p.Daily)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Stack>
      )}
      {d.Rank && <Text>{t('earnings.why.rankReward', { rank: d.Rank.Rank })}</Text>}
      <CapLines d={d} />
    </Stack>
  );
}

const LEG_LINES: readonly [MessageId, keyof NonNullable<PayoutDetails['Binary']>['Left']][] = [
  ['earnings.why.carryBefore', 'Carry_Before'],
  ['earnings.why.newVolume', 'New_Volume'],
  ['earnings.why.totalThatDay', 'Total'],
  ['earnings.why.carriedOver', 'Carried'],
  ['earnings.why.removed', 'Flushed'],
];

function BinaryLegs({ d, b }: { d: PayoutDetails; b: NonNullable<PayoutDetails['Binary']> }) {
  const t = useT();
  const f = useFormat();
  return (
    <Stack gap="2">
      <Text>
        {t('earnings.why.binaryIntro', {
          day: f.day(b.Business_Date),
          matched: f.money(b.Matched),
          percent: f.percent(b.Percentage),
          expected: f.money(d.Expected),
        })}
      </Text>
      <Table.Root size="sm" variant="outline" aria-label={t('earnings.why.legsTable')}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader />
            {/* The left and right legs are the tree's sides (data), whatever way the language is written. */}
            <Table.ColumnHeader textAlign="end">{t('earnings.why.left')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('earnings.why.right')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {LEG_LINES.map(([label, key]) => (
            <Table.Row key={key}>
              <Table.Cell>{t(label)}</Table.Cell>
              <Table.Cell textAlign="end">{f.money(b.Left[key])}</Table.Cell>
              <Table.Cell textAlign="end">{f.money(b.Right[key])}</Table.Cell>
            </Table.Row>
          ))}
          <Table.Row>
            <Table.Cell>{t('earnings.why.paired')}</Table.Cell>
            <Table.Cell textAlign="end">{f.money(b.Matched)}</Table.Cell>
            <Table.Cell textAlign="end">{f.money(b.Matched)}</Table.Cell>
          </Table.Row>
        </Table.Body>
      </Table.Root>
    </Stack>
  );
}
