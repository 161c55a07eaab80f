import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderSignedIn } from '@/testing/member.ts';

describe('History page', () => {
  it('shows the earning history columns with Success green and anything else red', async () => {
    renderSignedIn('/dashboard/history', {
      'earning.view_all_earning_history': () => ({
        Success: [
          {
            DateTime: '2024-03-05T10:20:00',
            TransID: 'E1',
            Amount: 5,
            Type: 'ROI',
            By: 'system',
            Transfer: 'Credit',
            Wallet: 'ROI',
            Status: 'Success',
          },
          {
            DateTime: '2024-03-06T11:00:00',
            TransID: 'E2',
            Amount: 7,
            Type: 'Withdrawal',
            By: 'demo',
            Transfer: 'Debit',
            Wallet: 'Withdrawal',
            Status: 'Pending',
          },
        ],
      }),
      'earning.total_pagination_earning_history': () => ({ Success: 2 }),
    });
    const table = await screen.findByTestId('data-table');
    await within(table).findByText('E1');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'Transaction ID', 'Amount', 'Type', 'By', 'Transfer', 'Wallet', 'Status', 'Details']);
    // A payout row explains itself one tap away; a row that is neither payout nor withdrawal request has nothing to open.
    expect(within(table).getByRole('button', { name: 'Why this payout: E1' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /E2/ })).toBeNull();
    // In the member's zone, the zone named.
    expect(
      within(table)
        .getAllByRole('cell')
        .some((cell) => /^Mar 05, 2024 10:20 \S+$/.test(cell.textContent ?? '')),
    ).toBe(true);
    expect(within(table).getByText('Success')).toHaveAttribute('data-tone', 'ok');
    expect(within(table).getByText('Pending')).toHaveAttribute('data-tone', 'bad');
    expect(screen.getByTestId('page-indicator')).toHaveTextContent('1 / 2');
    expect(screen.getByPlaceholderText('Search transactions...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Columns' })).toBeInTheDocument();
  });
});
