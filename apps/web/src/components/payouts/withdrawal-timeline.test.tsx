import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFormatters, deviceTimeZone, type WithdrawalTimeline } from '@md/shared';
import { TestProviders } from '@/testing/providers.tsx';
import { createMockClient } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { WithdrawalTimelineButton, type WithdrawalRowFacts } from './withdrawal-timeline.tsx';

/** Times as the member reads them: in their zone, the zone named. */
const formatDateTime = createFormatters('en', deviceTimeZone()).dateTime;

const requested = {
  Step: 'Requested',
  DateTime: '2026-11-28T09:15:00.000Z',
  Amount: 100,
  Detail: '$100.00 reserved from the Withdrawal wallet (fee $5.00)',
} as const;
const base: Omit<WithdrawalTimeline, 'Status' | 'Steps'> = {
  TransID: 'WD1',
  Amount: 100,
  Fee: 5,
  Net_Amount: 95,
  Address: '0x52908400098527886E0F7030069857D2E4169EE7',
  Tx_Hash: null,
  Explorer_Url: null,
};

async function openTrack(timeline: WithdrawalTimeline | null, row: Partial<WithdrawalRowFacts> = {}) {
  const facts: WithdrawalRowFacts = {
    TransID: 'WD1',
    DateTime: requested.DateTime,
    Amount: 100,
    Status: timeline?.Status ?? 'Pending',
    ...row,
  };
  render(
    <TestProviders
      config={{ ...testConfig, capabilities: timeline ? ['withdrawal_timeline'] : [] }}
      trpcClient={createMockClient({
        'withdraw.view_withdrawal_timeline': () => ({ Success: timeline }),
      })}
    >
      <WithdrawalTimelineButton row={facts} />
    </TestProviders>,
  );
  await userEvent.setup().click(screen.getByRole('button', { name: 'Track withdrawal WD1' }));
  return screen.findByTestId('withdrawal-timeline');
}

describe('Track (withdrawal timeline)', () => {
  it('says why a rejected withdrawal was rejected, under its Rejected step', async () => {
    const body = await openTrack({
      ...base,
      Status: 'REJECTED',
      Reason: 'The address is on a payout hold list',
      Steps: [
        requested,
        { Step: 'Rejected', DateTime: '2026-11-28T12:00:00.000Z', Amount: 100, Detail: 'Rejected' },
        {
          Step: 'Refunded',
          DateTime: '2026-11-28T12:00:00.000Z',
          Amount: 100,
          Detail: '$100.00 returned to the Withdrawal wallet',
        },
      ],
    });
    const reason = within(body).getByTestId('withdrawal-reason');
    expect(reason).toHaveTextContent('Reason: The address is on a payout hold list');
    const rejectedStep = reason.closest('li')!;
    expect(rejectedStep).toHaveTextContent('Rejected');
    expect(rejectedStep).toHaveTextContent(formatDateTime('2026-11-28T12:00:00.000Z'));
    expect(within(body).queryByTestId('withdrawal-expected-by')).toBeNull();
  });

  it('says when a pending withdrawal is expected to be decided, in the app’s date format', async () => {
    const expectedBy = '2026-11-29T09:15:00.000Z';
    const body = await openTrack({ ...base, Status: 'PENDING', Expected_By: expectedBy, Steps: [requested] });
    const expected = within(body).getByTestId('withdrawal-expected-by');
    expect(expected).toHaveTextContent(`Expected by ${formatDateTime(expectedBy)}`);
    expect(expected.textContent).toMatch(/^Expected by [A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} \S+$/);
    expect(expected.closest('li')).toHaveTextContent('Waiting for approval');
    expect(within(body).queryByTestId('withdrawal-reason')).toBeNull();
  });

  it('shows neither when the answer leaves them out (a provider serving the timeline without them)', async () => {
    const pending = await openTrack({ ...base, Status: 'PENDING', Steps: [requested] });
    expect(within(pending).getByText('Waiting for approval')).toBeInTheDocument();
    expect(within(pending).queryByTestId('withdrawal-expected-by')).toBeNull();
    expect(within(pending).queryByTestId('withdrawal-reason')).toBeNull();
  });

  it('shows no reason or expected time from a bare status word (no timeline capability)', async () => {
    const body = await openTrack(null, { Status: 'Rejected' });
    expect(within(body).getByTestId('timeline-from-status')).toBeInTheDocument();
    expect(within(body).queryByTestId('withdrawal-reason')).toBeNull();
    expect(within(body).queryByTestId('withdrawal-expected-by')).toBeNull();
  });
});
