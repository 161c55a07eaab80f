import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MockFailure } from '@/testing/mock-link.ts';
import { callsTo, renderSignedIn } from '@/testing/member.ts';

const payment = { Amount: 25, QR_Code: 'data:image/png;base64,iVBORw0KGgo=', Address: '0xAbC0000000000000000000000000000000000001', TransID: 'DEP-1' };
const tables = {
  'table.view_deposit_transaction': () => ({ Success: [{ id: '7', amount: '25', date: '2024-03-05', status: 'Pending', transaction_id: 'DEP-0' }] }),
  'table.total_pagination_deposit_transaction': () => ({ Success: 1 }),
  'subscription.subscription_transaction': () => ({ Success: [] }),
  'subscription.total_pagination_subscription_transaction': () => ({ Success: 1 }),
};

describe('Deposit page', () => {
  it('has the three tabs with the ids #profile, #security and #walletaddress', async () => {
    const user = userEvent.setup();
    const { container, calls } = renderSignedIn('/dashboard/deposit', tables);
    expect(await screen.findByRole('heading', { name: 'Deposit Funds' })).toBeInTheDocument();
    expect(screen.getByText('Add funds using USDT BEP20')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Deposit', 'Package', 'Wallet']);
    for (const id of ['profile', 'security', 'walletaddress']) expect(container.ownerDocument.getElementById(id)).not.toBeNull();
    // Deposit tab: the form and the Deposit History table with its text columns.
    expect(screen.getByLabelText('Amount (USDT)')).toBeInTheDocument();
    expect(await screen.findByText('DEP-0')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['ID', 'Amount', 'Date', 'Status', 'Transaction ID']);
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
    const { calls } = renderSignedIn('/dashboard/deposit', { ...tables, 'deposit.make_payment': () => ({ Success: payment }) });
    await user.type(await screen.findByLabelText('Amount (USDT)'), '25');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    const qr = await screen.findByAltText('Deposit QR code');
    expect(qr).toHaveAttribute('src', payment.QR_Code);
    expect(qr).toHaveAttribute('width', '150');
    expect(screen.getByTestId('deposit-address')).toHaveTextContent(payment.Address);
    expect(screen.getByTestId('deposit-transid')).toHaveTextContent('DEP-1');
    expect(screen.getByText(/Send exactly 25\.00 USDT \(BEP20\) within (30:00|29:5\d) — partial payments are not accepted/)).toBeInTheDocument();
    expect(callsTo(calls, 'deposit.make_payment')[0]?.input).toEqual({ amount_usdt: 25, currency: 'USDT.BEP20', gateway: 'nowpayments' });
    // The Deposit History reloads to show the new deposit.
    await waitFor(() => expect(callsTo(calls, 'table.view_deposit_transaction').length).toBeGreaterThan(1));
    await user.click(screen.getByRole('button', { name: 'Copy address' }));
    expect(await screen.findByText('Copied Successfully')).toBeInTheDocument();
  });

  it("says 'QR code data is missing.' without a QR code", async () => {
    const user = userEvent.setup();
    renderSignedIn('/dashboard/deposit', { ...tables, 'deposit.make_payment': () => ({ Success: { ...payment, QR_Code: '' } }) });
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
});
