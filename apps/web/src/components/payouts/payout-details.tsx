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
import { formatDateTime, formatDay, formatMoney, formatPercent, type PayoutDetails } from '@md/shared';
import { SummaryList } from '@/components/form/summary-list.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { recordOf } from '@/lib/guards.ts';
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

export const PROVIDER_HAS_NO_DETAILS =
  'The provider does not offer payout details: the row shows all it gives (amount, type, date).';

/** The "Why?" button of a payout row and its dialog. */
export function PayoutDetailsButton({ transId, levelRow }: { transId: string; levelRow?: LevelRowFacts }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="outline"
        colorPalette="teal"
        onClick={() => setOpen(true)}
        aria-label={`Why this payout: ${transId}`}
      >
        <LuCircleHelp />
        Why?
      </Button>
      {open && (
        <InfoDialog open title={`Payout ${transId}`} onClose={() => setOpen(false)}>
          <PayoutDetailsBody transId={transId} levelRow={levelRow} />
        </InfoDialog>
      )}
    </>
  );
}

function PayoutDetailsBody({ transId, levelRow }: { transId: string; levelRow?: LevelRowFacts }) {
  const trpc = useTRPC();
  const served = hasCapability(useConfig(), 'payout_details');
  const details = useQuery({
    ...trpc['earning.view_payout_details'].queryOptions({ trans_id: transId }),
    enabled: served,
    retry: false,
  });
  if (!served) {
    if (levelRow) return <LevelFromRow row={levelRow} />;
    return <Text data-testid="payout-details-unavailable">{PROVIDER_HAS_NO_DETAILS}</Text>;
  }
  if (details.isPending) return <Skeleton height="10rem" aria-label="Loading payout details" />;
  const success = recordOf(details.data)?.Success as PayoutDetails | undefined;
  if (details.isError || !success)
    return (
      <Unavailable
        what="payout details"
        retrying={details.isFetching}
        onRetry={() => void details.refetch()}
      />
    );
  return <PayoutExplained d={success} />;
}

function LevelFromRow({ row }: { row: LevelRowFacts }) {
  return (
    <Stack gap="3" data-testid="payout-details">
      <SummaryList
        rows={[
          ['From', row.From],
          ['Level', String(row.Level)],
          ['Purchase', `${formatMoney(row.Subs_Amount)} (${row.Transaction_ID})`],
          ['Rate', formatPercent(row.Percentage)],
          ['Expected', formatMoney(row.Expected_Amount)],
          ['Received', formatMoney(row.Received_Amount)],
        ]}
      />
      <Text fontSize="sm" color="fg.muted">
        From the Level Bonus row; the provider offers no further detail (cap room, business day).
      </Text>
    </Stack>
  );
}

/** Members read these: days and times as the rest of the app writes them, and words, not the ledger's terms. */
function CapLines({ d }: { d: PayoutDetails }) {
  const rows: [string, string][] = [
    ['Paid on', formatDateTime(d.DateTime)],
    ['Due by the plan', formatMoney(d.Expected)],
    ['Not paid (over the 3x earnings limit)', formatMoney(d.Cap_Taken)],
    ['Paid to you', `${formatMoney(d.Received)} into your ${d.Wallet} wallet`],
  ];
  if (d.Cap_Headroom_Before !== null && d.Cap_Headroom_After !== null)
    rows.push(
      ['Left to earn before this (3x limit)', formatMoney(d.Cap_Headroom_Before)],
      ['Left to earn after this', formatMoney(d.Cap_Headroom_After)],
    );
  return <SummaryList rows={rows} />;
}

function PayoutExplained({ d }: { d: PayoutDetails }) {
  return (
    <Stack gap="4" data-testid="payout-details">
      {d.Binary && <BinaryLegs d={d} b={d.Binary} />}
      {d.Level && (
        <Text>
          {d.Type === 'Direct' ? 'Direct income' : `Level ${d.Level.Level} income`}:{' '}
          {formatPercent(d.Level.Percentage)} of the {formatMoney(d.Level.Subs_Amount)} package {d.Level.From}{' '}
          bought (purchase {d.Level.Transaction_ID}).
        </Text>
      )}
      {d.ROI && (
        <Stack gap="2">
          <Text>
            Daily return for {formatDay(d.ROI.Business_Date)} (paid Monday to Friday), from each of your
            packages:
          </Text>
          <Table.Root size="sm" variant="outline">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Package</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Daily rate</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Paid for the day</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {d.ROI.Packages.map((p) => (
                <Table.Row key={p.TransID}>
                  <Table.Cell>{p.Name}</Table.Cell>
                  <Table.Cell textAlign="end">{formatMoney(p.Amount)}</Table.Cell>
                  <Table.Cell textAlign="end">{formatPercent(p.ROI_Percentage)}</Table.Cell>
                  <Table.Cell textAlign="end">{formatMoney(p.Daily)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Stack>
      )}
      {d.Rank && (
        <Text>
          One-time reward for reaching the {d.Rank.Rank} rank (rank rewards do not count towards the 3x
          earnings limit).
        </Text>
      )}
      <CapLines d={d} />
    </Stack>
  );
}

function BinaryLegs({ d, b }: { d: PayoutDetails; b: NonNullable<PayoutDetails['Binary']> }) {
  const lines: [string, keyof typeof b.Left][] = [
    ['Carried over from the day before', 'Carry_Before'],
    ['New volume from team purchases', 'New_Volume'],
    ['Total that day', 'Total'],
    ['Carried over to the next day', 'Carried'],
    ['Removed (not carried over)', 'Flushed'],
  ];
  return (
    <Stack gap="2">
      <Text>
        Binary income for {formatDay(b.Business_Date)}: {formatMoney(b.Matched)} of volume on your left team
        paired with the same on your right, and you earn {formatPercent(b.Percentage)} of it:{' '}
        {formatMoney(d.Expected)}.
      </Text>
      <Table.Root size="sm" variant="outline" aria-label="Your left and right team volume that day">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader />
            <Table.ColumnHeader textAlign="end">Left</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Right</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {lines.map(([label, key]) => (
            <Table.Row key={key}>
              <Table.Cell>{label}</Table.Cell>
              <Table.Cell textAlign="end">{formatMoney(b.Left[key])}</Table.Cell>
              <Table.Cell textAlign="end">{formatMoney(b.Right[key])}</Table.Cell>
            </Table.Row>
          ))}
          <Table.Row>
            <Table.Cell>Paired and paid on</Table.Cell>
            <Table.Cell textAlign="end">{formatMoney(b.Matched)}</Table.Cell>
            <Table.Cell textAlign="end">{formatMoney(b.Matched)}</Table.Cell>
          </Table.Row>
        </Table.Body>
      </Table.Root>
    </Stack>
  );
}
