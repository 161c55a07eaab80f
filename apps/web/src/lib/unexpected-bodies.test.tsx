/**
 * Spec §8: nothing crashes on an unexpected body. Every dashboard screen is rendered while every
 * call but the profile answers a shape the contract does not allow; the router's error page
 * ('Unexpected Application Error!') must never show. The browser suite sends such answers through
 * the real transports of both modes on a few screens (e2e/faults.e2e.ts); this covers them all.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, procedureNames } from '@md/shared';
import type { MockHandlers } from '@/testing/mock-link.ts';
import { renderSignedIn } from '@/testing/member.ts';

const SHAPES: [string, unknown][] = [
  ['{ Success: null }', { Success: null }],
  ['an array instead of an object', [{ Success: [] }]],
  ['no Success at all', {}],
  [
    'rows and fields of the wrong kind',
    { Success: [null, 7, 'text', { Username: { nested: true }, Downline: 'x', Rank: 5 }] },
  ],
  ['a text where an object belongs', { Success: 'surprise', JWT: 42 }],
];

/** Every procedure but the profile answers `body` (the profile is fine, so every screen renders fully). */
const answering = (body: unknown): MockHandlers =>
  Object.fromEntries(
    procedureNames.filter((name) => name !== 'user.view_profile').map((name) => [name, () => body]),
  );

const ROUTES = [
  'dashboard',
  'package',
  'wallets',
  'transactions',
  'deposit',
  'bonus',
  'volume',
  'history',
  'binarychart',
  'levelchart',
  'rankrewards',
  'notification',
  'settings',
  'p2pTransfer',
].map((name) => (name === 'dashboard' ? '/dashboard' : `/dashboard/${name}`));

/** The screen has drawn its answers: nothing is loading any more. */
async function settled() {
  await waitFor(() => {
    expect(screen.queryByText(MSG.loading)).toBeNull();
    expect(document.querySelector('.chakra-spinner')).toBeNull();
  });
}

describe('unexpected bodies crash no screen', () => {
  it.each(ROUTES)(
    '%s',
    async (path) => {
      for (const [, body] of SHAPES) {
        const { unmount } = renderSignedIn(path, answering(body), {
          Subscription: false,
          Transaction_Password: true,
        });
        expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
        await settled();
        expect(screen.queryByText('Unexpected Application Error!')).toBeNull();
        unmount();
      }
    },
    60_000,
  );

  it('drifted answers from a provider show what can be read and - elsewhere: a renamed or missing field, a number as a string, side L', async () => {
    const drifted = {
      DateTime: '2026-03-05T10:20:00Z',
      TransID: 'DRIFT1',
      From_User: 'ann',
      Transaction_ID: 'T1',
      Side: 'L',
      Volume: '12.5',
      Left_Carry: 0,
      Left_Total: 12.5,
      Right_Volume: 0,
      Right_Carry: 0,
      Right_Totals: 3,
      Status: 'Matched',
    };
    const { unmount } = renderSignedIn('/dashboard/volume', {
      ...answering({ Success: [] }),
      'binary.view_binary_transaction': () => ({ Success: [drifted] }),
      'binary.total_pagination_binary_transaction': () => ({ Success: 1 }),
    });
    const table = await screen.findByTestId('data-table');
    const row = (await within(table).findByText('DRIFT1')).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(1)).toEqual([
      'DRIFT1',
      'ann',
      'T1',
      'Left',
      '$12.50',
      '-',
      '$0.00',
      '$12.50',
      '$0.00',
      '$0.00',
      '-',
      'Matched',
    ]);
    unmount();

    // The profile's side 'L' is the left leg too; a missing country is '-'.
    renderSignedIn('/dashboard/settings', answering({ Success: [] }), {
      Side: 'L' as '0',
      Country: undefined as unknown as string,
    });
    expect((await screen.findByText('Side')).parentElement).toHaveTextContent(/^SideLeft$/);
    expect(screen.getByText('Country').parentElement).toHaveTextContent(/^Country-$/);
    expect(screen.queryByText('Unexpected Application Error!')).toBeNull();
  });

  it('actions whose answers have the wrong shape fail in words, or silently where the spec says so', async () => {
    const user = userEvent.setup();
    // The deposit payment: no payment details and no message (silent, spec §8).
    renderSignedIn('/dashboard/deposit', answering({ Success: null }));
    await user.type(await screen.findByLabelText('Amount (USDT)'), '50');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Deposit' })).toBeEnabled());
    expect(screen.queryByTestId('payment-details')).toBeNull();
    expect(screen.queryByText('Unexpected Application Error!')).toBeNull();
  });

  it("a fee that is not a number is 'Failed to calculate withdrawal fees'", async () => {
    const user = userEvent.setup();
    const wallets = {
      Success: { Withdrawal: { Available: 500, Total: 500, This_Month: 0, Last_Month: 0, User: 'demo' } },
    };
    renderSignedIn(
      '/dashboard/wallets',
      {
        ...answering({ Success: {} }),
        'wallet.view_all_wallets_details': () => wallets,
        'withdraw.withdraw_fees': () => ({ Success: 'five' }),
      },
      { Transaction_Password: true },
    );
    await user.click(await screen.findByRole('tab', { name: 'Withdrawal Request' }));
    await user.type(await screen.findByLabelText('Withdrawal amount'), '25');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText(MSG.failedWithdrawFees)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("2FA set-up answered without a key is 'Failed to activate 2FA'", async () => {
    const user = userEvent.setup();
    renderSignedIn('/dashboard/settings', { 'user.enable_totp': () => ({ Success: [] }) });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    await user.click(await screen.findByRole('button', { name: 'Set up 2FA' }));
    expect(await screen.findByText(MSG.failedActivate2fa)).toBeInTheDocument();
  });
});
