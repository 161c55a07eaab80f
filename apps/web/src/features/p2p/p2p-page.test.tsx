import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@md/shared';
import { ariaProblems } from '@/testing/aria.ts';
import { MockFailure } from '@/testing/mock-link.ts';
import { callsTo, renderSignedIn, wallet } from '@/testing/member.ts';
import type { MockHandlers } from '@/testing/mock-link.ts';

const handlers = (extra: MockHandlers = {}): MockHandlers => ({
  'wallet.view_all_wallets_details': () => ({ Success: { Deposit: wallet(100) } }),
  'level.downline_exist': (input) => ({ Success: input.username === 'alice' }),
  transfer_to_user: () => ({ Success: 'Transferred' }),
  ...extra,
});

async function verify(name: string) {
  const field = await screen.findByLabelText('Recipient username', {}, { timeout: 5000 });
  await userEvent.clear(field);
  await userEvent.type(field, name);
  await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
}

describe('P2P transfer', () => {
  it('while the balance loads, its skeleton is a labelled status region (axe: no prohibited ARIA)', async () => {
    renderSignedIn(
      '/dashboard/p2pTransfer',
      handlers({ 'wallet.view_all_wallets_details': () => new Promise(() => {}) }),
    );
    expect(
      await screen.findByRole('status', { name: 'Loading the balance' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(await ariaProblems()).toEqual([]);
  });

  it('verifies the recipient (lowercased); the amount is disabled until then; editing resets it', async () => {
    const { calls } = renderSignedIn('/dashboard/p2pTransfer', handlers());
    expect(
      await screen.findByRole('heading', { name: 'P2P Transfer' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Transfer funds to another user after verifying the recipient'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Amount')).toBeDisabled();
    await verify('bob');
    expect(await screen.findByText(MSG.recipientNotFound)).toBeInTheDocument();
    expect(screen.getByLabelText('Amount')).toBeDisabled();
    await verify('ALICE');
    expect(await screen.findByText(MSG.recipientVerified)).toBeInTheDocument();
    expect(callsTo(calls, 'level.downline_exist').at(-1)?.input).toEqual({ username: 'alice' });
    expect(screen.getByLabelText('Amount')).toBeEnabled();
    expect(screen.getByLabelText('Amount')).toHaveAttribute('step', '0.1');
    expect(screen.getByLabelText('Amount')).toHaveAttribute('min', '0.1');
    await userEvent.type(screen.getByLabelText('Recipient username'), 'x');
    expect(screen.getByLabelText('Amount')).toBeDisabled();
  });

  it('reports a failed check: the server refusing, answering without words, or not answering', async () => {
    renderSignedIn(
      '/dashboard/p2pTransfer',
      handlers({
        'level.downline_exist': (input) => {
          // HTTP status 0 is a request that got no answer (as the provider link reports it).
          throw input.username === 'bad'
            ? new MockFailure('Not in your downline')
            : new MockFailure('', input.username === 'gone' ? 0 : 500);
        },
      }),
    );
    await verify('bad');
    expect(await screen.findByText(MSG.recipientNotFoundOrInvalid)).toBeInTheDocument();
    await verify('other');
    expect(await screen.findByText(MSG.failedVerifyUser)).toBeInTheDocument();
    await verify('gone');
    expect(await screen.findByText(MSG.errorVerifyingRecipient)).toBeInTheDocument();
    expect(screen.getByLabelText('Amount')).toBeDisabled();
  });

  it('refuses amounts above the Deposit balance, cancels on an empty prompt, then transfers', async () => {
    const { calls } = renderSignedIn('/dashboard/p2pTransfer', handlers());
    await verify('alice');
    await screen.findByText(MSG.recipientVerified);
    await userEvent.type(screen.getByLabelText('Amount'), '100.5');
    await userEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    expect(await screen.findByText(MSG.insufficientBalance)).toBeInTheDocument();
    expect(screen.getByText('Fee').nextElementSibling).toHaveTextContent('$0.00');

    await userEvent.clear(screen.getByLabelText('Amount'));
    await userEvent.type(screen.getByLabelText('Amount'), '25.5');
    await userEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    let prompt = await screen.findByRole('dialog');
    await userEvent.click(within(prompt).getByRole('button', { name: 'Confirm Transfer' }));
    expect(await screen.findByText(MSG.transferCancelled)).toBeInTheDocument();
    expect(callsTo(calls, 'transfer_to_user')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    prompt = await screen.findByRole('dialog');
    await userEvent.type(within(prompt).getByLabelText('Transaction Password'), 'Txn@123');
    await userEvent.click(within(prompt).getByRole('button', { name: 'Confirm Transfer' }));
    expect(await screen.findByText(MSG.transferSuccessful)).toBeInTheDocument();
    expect(callsTo(calls, 'transfer_to_user').map((c) => c.input)).toEqual([
      { username: 'alice', amount: 25.5, password: 'Txn@123' },
    ]);
  });

  it("toasts the server's error, else the 'Transfer failed' fallback", async () => {
    let mode = 0;
    renderSignedIn(
      '/dashboard/p2pTransfer',
      handlers({
        transfer_to_user: () => {
          mode += 1;
          throw new MockFailure(mode === 1 ? 'Invalid transaction password' : '');
        },
      }),
    );
    await verify('alice');
    await screen.findByText(MSG.recipientVerified);
    await userEvent.type(screen.getByLabelText('Amount'), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    const prompt = await screen.findByRole('dialog');
    await userEvent.type(within(prompt).getByLabelText('Transaction Password'), 'wrong');
    await userEvent.click(within(prompt).getByRole('button', { name: 'Confirm Transfer' }));
    expect(await screen.findByText('Invalid transaction password')).toBeInTheDocument();
    // The prompt stays open with the field cleared for another try.
    await userEvent.type(within(prompt).getByLabelText('Transaction Password'), 'again');
    await userEvent.click(within(prompt).getByRole('button', { name: 'Confirm Transfer' }));
    expect(await screen.findByText(MSG.transferFailed)).toBeInTheDocument();
  });

  it('sends one transfer when Confirm Transfer is clicked twice in the same frame', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { calls } = renderSignedIn(
      '/dashboard/p2pTransfer',
      handlers({
        transfer_to_user: async () => {
          await answered;
          return { Success: 'Transferred' };
        },
      }),
    );
    await verify('alice');
    await screen.findByText(MSG.recipientVerified);
    await userEvent.type(screen.getByLabelText('Amount'), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    const prompt = await screen.findByRole('dialog');
    await userEvent.type(within(prompt).getByLabelText('Transaction Password'), 'Txn@123');
    const confirm = within(prompt).getByRole('button', { name: 'Confirm Transfer' });
    act(() => {
      fireEvent.click(confirm);
      fireEvent.click(confirm);
    });
    release();
    expect(await screen.findByText(MSG.transferSuccessful)).toBeInTheDocument();
    expect(callsTo(calls, 'transfer_to_user')).toHaveLength(1);
  });

  it('says "Unavailable" with a retry, not $0.00, when the wallets call fails', async () => {
    let fail = true;
    renderSignedIn(
      '/dashboard/p2pTransfer',
      handlers({
        'wallet.view_all_wallets_details': () => {
          if (fail) throw new MockFailure('down', 503);
          return { Success: { Deposit: wallet(100) } };
        },
      }),
    );
    const line = await screen.findByTestId('p2p-available', {}, { timeout: 5000 });
    await within(line).findByText('Unavailable');
    expect(line).not.toHaveTextContent('$0.00');
    fail = false;
    await userEvent.click(within(line).getByRole('button', { name: /Retry/ }));
    await within(line).findByText('$100.00');
  });
});
