import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderSignedIn } from '@/testing/member.ts';
import { createFormatters } from '@md/shared';
import { totalEarned } from './subscription-columns.tsx';

const f = createFormatters('en', 'UTC');

const subscription = (over: Record<string, unknown>) => ({
  DateTime: '2024-03-05T10:20:00',
  TransID: 'S1',
  Name: 'Gold',
  Amount: 100,
  ROI_Percentage: 1.5,
  Max_Earnings: 300,
  Total_Earnings: 12.345,
  Wallet: 'Deposit',
  Status: 'ACTIVE',
  Reason: null,
  End_Date: null,
  ...over,
});

describe('subscription columns', () => {
  it("Total Earned is Max_Earnings minus Total_Earnings to 2 decimals, as money like every amount, '-' when both are zero", () => {
    expect(totalEarned({ Max_Earnings: 300, Total_Earnings: 12.345 }, f)).toBe('$287.65');
    expect(totalEarned({ Max_Earnings: 1500, Total_Earnings: 0 }, f)).toBe('$1,500.00');
    expect(totalEarned({ Max_Earnings: 1.1 * 3, Total_Earnings: 0 }, f)).toBe('$3.30');
    expect(totalEarned({ Max_Earnings: 0, Total_Earnings: 0 }, f)).toBe('-');
  });

  it('Transactions page: the columns, money and %, ACTIVE green, EXPIRED red with its Reason once, in the column beside it', async () => {
    const { calls } = renderSignedIn('/dashboard/transactions', {
      'subscription.subscription_transaction': () => ({
        Success: [
          subscription({}),
          subscription({
            TransID: 'S2',
            Status: 'EXPIRED',
            Reason: 'Cap reached',
            Max_Earnings: 0,
            Total_Earnings: 0,
          }),
        ],
      }),
      'subscription.total_pagination_subscription_transaction': () => ({ Success: 1 }),
    });
    expect(await screen.findByRole('heading', { name: 'Package Transactions' })).toBeInTheDocument();
    const table = await screen.findByTestId('data-table');
    await within(table).findByText('S1');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual([
      'DateTime',
      'TransID',
      'Name',
      'Amount',
      'ROI Percentage',
      'Max Earnings',
      'Total Earnings',
      'Total Earned',
      'Wallet',
      'Status',
      'Reason',
    ]);
    const [active, expired] = within(table).getAllByRole('row').slice(1);
    expect(within(active!).getByText('$100.00')).toBeInTheDocument();
    expect(within(active!).getByText('$287.65')).toBeInTheDocument();
    expect(within(active!).getByText('1.5%')).toBeInTheDocument();
    expect(within(active!).getByText('ACTIVE')).toHaveAttribute('data-tone', 'ok');
    expect(within(expired!).getByText('EXPIRED')).toHaveAttribute('data-tone', 'bad');
    // The Reason once, in its column right beside the Status badge.
    expect(within(expired!).getAllByText('Cap reached')).toHaveLength(1);
    const cells = within(expired!).getAllByRole('cell');
    expect(cells[9]).toHaveTextContent(/^EXPIRED$/);
    expect(cells[10]).toHaveTextContent(/^Cap reached$/);
    expect(cells[7]).toHaveTextContent('-');
    expect(calls.find((c) => c.path === 'subscription.subscription_transaction')?.input).toMatchObject({
      pageNo: 1,
      pageSize: 10,
    });
  });
});
