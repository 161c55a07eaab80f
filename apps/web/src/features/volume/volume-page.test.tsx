import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderSignedIn } from '@/testing/member.ts';

const row = (over: Record<string, unknown>) => ({
  DateTime: '2026-03-05T10:20:00',
  TransID: 'V1',
  From_User: 'ann',
  Transaction_ID: 'T1',
  Side: '0',
  Volume: 100,
  Left_Volume: 100,
  Left_Carry: 20,
  Left_Total: 120,
  Right_Volume: 0,
  Right_Carry: 0,
  Right_Total: 0,
  Status: 'Matched',
  ...over,
});
const HEADERS = [
  'Date',
  'TransID',
  'From User',
  'Transaction ID',
  'Side',
  'Volume',
  'Left Volume',
  'Left Carry',
  'Left Total',
  'Right Volume',
  'Right Carry',
  'Right Total',
  'Status',
];

describe('Volume page', () => {
  it('Binary Volume and Rank Volume share the columns; side "0" is Left, else Right', async () => {
    renderSignedIn('/dashboard/volume', {
      'binary.view_binary_transaction': () => ({ Success: [row({}), row({ TransID: 'V2', Side: '1' })] }),
      'binary.total_pagination_binary_transaction': () => ({ Success: 1 }),
      'rank.view_rank_qualification': () => ({
        Success: [row({ TransID: 'Q1', Side: '1', Volume: 250, Status: 'Carried' })],
      }),
      'rank.total_pagination_rank_qualification': () => ({ Success: 1 }),
    });
    expect(await screen.findByText('Team volume and progress')).toBeInTheDocument();
    let table = await screen.findByTestId('data-table');
    await within(table).findByText('V1');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(HEADERS);
    const [left, right] = within(table).getAllByRole('row').slice(1);
    expect(within(left!).getByText('Left')).toBeInTheDocument();
    expect(within(right!).getByText('Right')).toBeInTheDocument();
    expect(within(left!).getByText('$120.00')).toBeInTheDocument();
    // Every status is a badge: Matched green, Carried blue.
    expect(within(left!).getByText('Matched')).toHaveAttribute('data-tone', 'ok');

    fireEvent.click(screen.getByRole('tab', { name: 'Rank Volume' }));
    await screen.findByText('Q1');
    table = screen.getByTestId('data-table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(HEADERS);
    expect(within(table).getByText('$250.00')).toBeInTheDocument();
    expect(within(table).getByText('Carried')).toHaveAttribute('data-tone', 'info');
  });
});
