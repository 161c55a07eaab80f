/** Spec §8: the withdrawal request's fallback, which the browser suite leaves to this test. */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@md/shared';
import { MockFailure } from '@/testing/mock-link.ts';
import { loadPageBeforeTests, renderSignedIn, wallet } from '@/testing/member.ts';

describe('Withdrawal Request under faults', () => {
  loadPageBeforeTests(() => import('./wallets-page.tsx'));

  it("a request that fails without the server's words is 'An error occurred'; the prompt stays open", async () => {
    renderSignedIn(
      '/dashboard/wallets',
      {
        'wallet.view_all_wallets_details': () => ({ Success: { Withdrawal: wallet(500) } }),
        'wallet.view_from_wallets': () => ({ Success: { Withdrawal: true } }),
        'wallet.view_to_wallets': () => ({ Success: { Deposit: true } }),
        'withdraw.withdraw_fees': () => ({ Success: 5 }),
        'withdraw.withdraw_request': () => {
          throw new MockFailure('', 500);
        },
      },
      { Transaction_Password: true },
    );
    await userEvent.click(await screen.findByRole('tab', { name: 'Withdrawal Request' }));
    await userEvent.type(await screen.findByLabelText('Withdrawal amount'), '25');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await userEvent.type(await screen.findByLabelText('Transaction Password'), 'Txn@123');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Withdrawal' }));
    expect(await screen.findByText(MSG.anErrorOccurred)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit Withdrawal' })).toBeInTheDocument();
  });
});
