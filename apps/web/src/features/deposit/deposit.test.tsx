import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MockFailure } from '@/testing/mock-link.ts';
import { callsTo, loadPageBeforeTests, renderSignedIn, wallet } from '@/testing/member.ts';
import { DEPOSIT_POLL_MS } from './use-deposit-watch.ts';

const payment = {
  Amount: 25,
  QR_Code: 'data:image/png;base64,iVBORw0KGgo=',
  Address: '0xAbC0000000000000000000000000000000000001',
  TransID: 'DEP-1',
};
const tables = {
  'table.view_deposit_transaction': () => ({
    Success: [{ id: '7', amount: '25', date: '2024-03-05', status: 'Pending', transaction_id: 'DEP-0' }],
  }),
  'table.total_pagination_deposit_transaction': () => ({ Success: 1 }),
  'subscription.subscription_transaction': () => ({ Success: [] }),
  'subscription.total_pagination_subscription_transaction': () => ({ Success: 1 }),
};

describe('Deposit page', () => {
  loadPageBeforeTests(() => import('./deposit.tsx'));

  it('has the three tabs with the ids #profile, #security and #walletaddress', async () => {
    const user = userEvent.setup();
    const { container, calls } = renderSignedIn('/dashboard/deposit', tables);
    expect(await screen.findByRole('heading', { name: 'Deposit Funds' })).toBeInTheDocument();
    expect(screen.getByText('Add funds using USDT BEP20')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Deposit',
      'Package',
      'Wallet',
    ]);
    for (const id of ['profile', 'security', 'walletaddress'])
      expect(container.ownerDocument.getElementById(id)).not.toBeNull();
    // Deposit tab: the form and the Deposit History table with its text columns.
    expect(screen.getByLabelText('Amount (USDT)')).toBeInTheDocument();
    expect(await screen.findByText('DEP-0')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'ID',
      'Amount',
      'Date',
      'Status',
      'Transaction ID',
    ]);
    await user.click(screen.getByRole('tab', { name: 'Package' }));
    await waitFor(() => expect(callsTo(calls, 'subscription.subscription_transaction')).toHaveLength(1));
    expect(document.getElementById('security')).toContainElement(screen.getByTestId('data-table'));
    await user.click(screen.getByRole('tab', { name: 'Wallet' }));
    expect(document.getElementById('walletaddress')).toContainElement(screen.getByLabelText('Amount (USDT)'));
  });

  it('shows the three amount messages of spec §5 and makes no call', async () => {
    const user = userEvent.setup();
    const { calls } = renderSignedIn('/dashboard/deposit', tables);
    const amount = await screen.findByLabelText('Amount (USDT)');
    const submit = screen.getByRole('button', { name: 'Deposit' });
    await user.click(submit);
    expect(await screen.findByText('Enter Amount')).toBeInTheDocument();
    await user.type(amount, 'abc');
    await user.click(submit);
    expect(await screen.findByText('Please enter a valid amount')).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '-5');
    await user.click(submit);
    expect(await screen.findByText('Please enter a valid amount')).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '9.99');
    await user.click(submit);
    expect(await screen.findByText('Amount cannot be less than 10!')).toBeInTheDocument();
    expect(callsTo(calls, 'deposit.make_payment')).toHaveLength(0);
  });

  it('sends USDT.BEP20 with the gateway and shows the QR at 150 px, the address, TransID and the 30:00 window', async () => {
    const user = userEvent.setup();
    const { calls } = renderSignedIn('/dashboard/deposit', {
      ...tables,
      'deposit.make_payment': () => ({ Success: payment }),
    });
    await user.type(await screen.findByLabelText('Amount (USDT)'), '25');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    const qr = await screen.findByAltText('Deposit QR code');
    expect(qr).toHaveAttribute('src', payment.QR_Code);
    expect(qr).toHaveAttribute('width', '150');
    expect(screen.getByTestId('deposit-address')).toHaveTextContent(payment.Address);
    expect(screen.getByTestId('deposit-transid')).toHaveTextContent('DEP-1');
    expect(
      screen.getByText(
        /Send exactly 25\.00 USDT \(BEP20\) within (30:00|29:5\d) — partial payments are not accepted/,
      ),
    ).toBeInTheDocument();
    expect(callsTo(calls, 'deposit.make_payment')[0]?.input).toEqual({
      amount_usdt: 25,
      currency: 'USDT.BEP20',
      gateway: 'nowpayments',
    });
    // The Deposit History reloads to show the new deposit.
    await waitFor(() => expect(callsTo(calls, 'table.view_deposit_transaction').length).toBeGreaterThan(1));
    await user.click(screen.getByRole('button', { name: 'Copy address' }));
    expect(await screen.findByText('Copied Successfully')).toBeInTheDocument();
  });

  it("says 'QR code data is missing.' without a QR code", async () => {
    const user = userEvent.setup();
    renderSignedIn('/dashboard/deposit', {
      ...tables,
      'deposit.make_payment': () => ({ Success: { ...payment, QR_Code: '' } }),
    });
    await user.type(await screen.findByLabelText('Amount (USDT)'), '25');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    expect(await screen.findByText('QR code data is missing.')).toBeInTheDocument();
    expect(screen.queryByAltText('Deposit QR code')).toBeNull();
    expect(screen.getByTestId('deposit-address')).toBeInTheDocument();
  });

  it('fails silently: nothing shown and the form stays usable', async () => {
    const user = userEvent.setup();
    let fail = true;
    const { calls } = renderSignedIn('/dashboard/deposit', {
      ...tables,
      'deposit.make_payment': () => {
        if (fail) throw new MockFailure('Gateway down', 502);
        return { Success: payment };
      },
    });
    await user.type(await screen.findByLabelText('Amount (USDT)'), '25');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    await waitFor(() => expect(callsTo(calls, 'deposit.make_payment')).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Deposit' })).toBeEnabled());
    expect(screen.queryByText('Gateway down')).toBeNull();
    expect(screen.queryByAltText('Deposit QR code')).toBeNull();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    expect(await screen.findByAltText('Deposit QR code')).toBeInTheDocument();
  });

  it('opens one window when Deposit is clicked twice in the same frame', async () => {
    const user = userEvent.setup();
    const { calls } = renderSignedIn('/dashboard/deposit', {
      ...tables,
      'deposit.make_payment': () => ({ Success: payment }),
    });
    await user.type(await screen.findByLabelText('Amount (USDT)'), '25');
    const submit = screen.getByRole('button', { name: 'Deposit' });
    act(() => {
      fireEvent.click(submit);
      fireEvent.click(submit);
    });
    expect(await screen.findByAltText('Deposit QR code')).toBeInTheDocument();
    expect(callsTo(calls, 'deposit.make_payment')).toHaveLength(1);
  });
});

describe('the deposit window, watched', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A deposit table whose DEP-1 row has the status `status.now`. */
  const watched = (status: { now: string }) => ({
    ...tables,
    'deposit.make_payment': () => ({ Success: payment }),
    'wallet.view_all_wallets_details': () => ({
      Success: { Deposit: wallet(status.now === 'PAID' ? 25 : 0) },
    }),
    'table.view_deposit_transaction': () => ({
      Success: [
        { id: '8', amount: '25.00', date: '2024-03-05', status: status.now, transaction_id: 'DEP-1' },
      ],
    }),
  });

  const openWindow = async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(await screen.findByLabelText('Amount (USDT)', {}, { timeout: 5000 }), '25');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    await screen.findByAltText('Deposit QR code');
  };

  it("polls the deposit table: once paid it says 'Paid — credited', hides the QR and the address, refreshes the history", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const status = { now: 'PENDING' };
    const { calls } = renderSignedIn('/dashboard/deposit', watched(status));
    await openWindow();
    await waitFor(() =>
      expect(
        callsTo(calls, 'table.view_deposit_transaction').some((c) =>
          JSON.stringify(c.input).includes('DEP-1'),
        ),
      ).toBe(true),
    );
    expect(screen.getByTestId('payment-details')).toHaveAttribute('data-outcome', 'open');

    status.now = 'PAID';
    await act(() => vi.advanceTimersByTimeAsync(DEPOSIT_POLL_MS));
    const outcome = await screen.findByTestId('deposit-outcome');
    expect(within(outcome).getByText('Paid — credited')).toBeInTheDocument();
    expect(screen.queryByAltText('Deposit QR code')).toBeNull();
    expect(screen.queryByTestId('deposit-address')).toBeNull();
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByTestId('deposit-transid')).toHaveTextContent('DEP-1');
    // The history's row shows the new status as a badge, without waiting for its cache to go stale.
    await waitFor(() =>
      expect(within(screen.getByTestId('data-table')).getByText('PAID')).toHaveAttribute('data-tone', 'ok'),
    );

    // Closed: no more polling.
    const polls = callsTo(calls, 'table.view_deposit_transaction').length;
    await act(() => vi.advanceTimersByTimeAsync(DEPOSIT_POLL_MS * 3));
    expect(callsTo(calls, 'table.view_deposit_transaction').length).toBeLessThanOrEqual(polls + 1);
  });

  it.each([
    ['PARTIAL', 'Partial payment not accepted'],
    ['EXPIRED', 'Expired'],
  ])('a %s window says %s and hides the QR and the address', async (rowStatus, title) => {
    renderSignedIn('/dashboard/deposit', {
      ...watched({ now: 'PENDING' }),
      'table.view_deposit_transaction': () => ({
        Success: [
          { id: '8', amount: '25.00', date: '2024-03-05', status: rowStatus, transaction_id: 'DEP-1' },
        ],
      }),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Amount (USDT)', {}, { timeout: 5000 }), '25');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    const outcome = await screen.findByTestId('deposit-outcome');
    expect(within(outcome).getByText(title)).toBeInTheDocument();
    expect(screen.queryByAltText('Deposit QR code')).toBeNull();
    expect(screen.queryByTestId('deposit-address')).toBeNull();
  });

  it("says 'Expired' when the 30 minutes run out while the row still says PENDING", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderSignedIn('/dashboard/deposit', watched({ now: 'PENDING' }));
    await openWindow();
    vi.setSystemTime(Date.now() + 30 * 60_000);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(within(await screen.findByTestId('deposit-outcome')).getByText('Expired')).toBeInTheDocument();
    expect(screen.queryByAltText('Deposit QR code')).toBeNull();
  });
});
