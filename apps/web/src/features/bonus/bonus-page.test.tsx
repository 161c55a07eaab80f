import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderSignedIn, wallet } from '@/testing/member.ts';

describe('Bonus page', () => {
  it('Rank Bonus: the columns, money, true → Success (green) else Failed (red)', async () => {
    renderSignedIn('/dashboard/bonus', {
      'rank.view_rank_transaction': () => ({
        Success: [
          {
            DateTime: '2026-03-05T10:20:00',
            Transaction_ID: 'R1',
            Current_Rank: 'Basic',
            Reward: 50,
            Status: true,
          },
          {
            DateTime: '2026-03-06T10:20:00',
            Transaction_ID: 'R2',
            Current_Rank: 'Silver',
            Reward: 100,
            Status: false,
          },
        ],
      }),
      'rank.total_pagination_rank_transaction': () => ({ Success: 1 }),
    });
    expect(await screen.findByText('Earned bonuses and rewards')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Rank Bonus' })).toHaveAttribute('aria-selected', 'true');
    const table = await screen.findByTestId('data-table');
    await within(table).findByText('R1');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'Transaction ID', 'Current Rank', 'Reward', 'Status', 'Details']);
    expect(within(table).getByRole('button', { name: 'Why this payout: R1' })).toBeInTheDocument();
    expect(within(table).getByText('$50.00')).toBeInTheDocument();
    expect(within(table).getByText('Success')).toHaveAttribute('data-tone', 'ok');
    expect(within(table).getByText('Failed')).toHaveAttribute('data-tone', 'bad');
  });

  it('Level Bonus: the columns and the percentage with %', async () => {
    renderSignedIn('/dashboard/bonus', {
      'rank.view_rank_transaction': () => ({ Success: [] }),
      'rank.total_pagination_rank_transaction': () => ({ Success: 0 }),
      'level.level_earning_transaction': () => ({
        Success: [
          {
            DateTime: '2026-03-05T10:20:00',
            TransID: 'L1',
            Transaction_ID: 'T1',
            Subs_Amount: 1000,
            From: 'ann',
            Level: 2,
            Percentage: 1,
            Expected_Amount: 10,
            Received_Amount: 7.5,
          },
        ],
      }),
      'level.total_pagination_level_earning': () => ({ Success: 1 }),
    });
    fireEvent.click(await screen.findByRole('tab', { name: 'Level Bonus' }));
    const table = (await screen.findByText('L1')).closest<HTMLElement>('[data-testid="data-table"]')!;
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Date',
      'TransID',
      'Transaction ID',
      'Subs Amount',
      'From',
      'Level',
      'Percentage',
      'Expected Amount',
      'Received Amount',
      'Details',
    ]);
    // Without the payout_details capability the row explains itself from its own columns.
    fireEvent.click(within(table).getByRole('button', { name: 'Why this payout: L1' }));
    const details = await screen.findByTestId('payout-details');
    expect(details).toHaveTextContent('ann');
    expect(details).toHaveTextContent('From the Level Bonus row; the provider offers no further detail');
    expect(within(table).getByText('1%')).toBeInTheDocument();
    expect(within(table).getByText('$1,000.00')).toBeInTheDocument();
    expect(within(table).getByText('$7.50')).toBeInTheDocument();
  });

  it('Wallet: the reward wallets with Available and Total', async () => {
    renderSignedIn('/dashboard/bonus', {
      'rank.view_rank_transaction': () => ({ Success: [] }),
      'rank.total_pagination_rank_transaction': () => ({ Success: 0 }),
      'wallet.view_all_wallets_details': () => ({
        Success: {
          Direct: wallet(12.5, 40),
          Binary: wallet(3, 9),
          Level: wallet(0),
          ROI: wallet(1),
          Rank: wallet(50, 50),
          Deposit: wallet(999),
        },
      }),
    });
    fireEvent.click(await screen.findByRole('tab', { name: 'Wallet' }));
    const grid = await screen.findByLabelText('Reward wallets');
    expect(await within(grid).findByText('Direct Wallet')).toBeInTheDocument();
    expect(within(grid).getByText('$12.50')).toBeInTheDocument();
    expect(within(grid).getByText('Available · Total $40.00')).toBeInTheDocument();
    expect(within(grid).getByText('Rank Wallet')).toBeInTheDocument();
    expect(within(grid).queryByText('Deposit Wallet')).not.toBeInTheDocument();
  });
});
