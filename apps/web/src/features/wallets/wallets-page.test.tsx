import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@md/shared';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { OnlineOnly } from '@/app/offline.tsx';
import { AppProviders } from '@/app/providers.tsx';
import { englishI18n } from '@/testing/i18n.ts';
import { routes } from '@/app/router.tsx';
import { SERVER_UNREACHABLE_TITLE } from '@/lib/toaster.ts';
import { createMockClient, MockFailure } from '@/testing/mock-link.ts';
import { ariaProblems } from '@/testing/aria.ts';
import { testConfig } from '@/testing/render.tsx';
import { callsTo, loadPageBeforeTests, memberProfile, renderSignedIn, wallet } from '@/testing/member.ts';

const wallets = {
  Deposit: wallet(500, 900),
  Direct: wallet(10, 40),
  Binary: wallet(0, 25.5),
  Level: wallet(2.5, 12),
  P2P: wallet(30, 30),
  Withdrawal: wallet(150, 200),
  ROI: wallet(7.25, 7.25),
  Rank: wallet(0, 0),
  Upline_Bonus: wallet(0, 3),
};

const baseHandlers = {
  'wallet.view_all_wallets_details': () => ({ Success: wallets }),
  'wallet.view_from_wallets': () => ({
    Success: {
      Deposit: false,
      Direct: true,
      Binary: true,
      Level: true,
      P2P: true,
      Withdrawal: false,
      ROI: true,
      Rank: true,
    },
  }),
  'wallet.view_to_wallets': () => ({
    Success: { Deposit: true, Withdrawal: true, P2P: true, Direct: false },
  }),
  'wallet.transfer_wallet': () => ({ Success: 'Wallet transfer successful' }),
};

const openWallets = (handlers = {}, profile = {}) =>
  renderSignedIn('/dashboard/wallets', { ...baseHandlers, ...handlers }, profile);

describe('wallets page', () => {
  // The page's first import is a cold transform: seconds on a busy machine, outside the tests' waits.
  loadPageBeforeTests(() => import('./wallets-page.tsx'));
  it('shows the 8 wallet cards with Available and Total, and Total Earnings', async () => {
    openWallets();
    // The first test of the file also waits for the page's lazy chunk: patient on a busy machine.
    expect(await screen.findByText('$150.00', {}, { timeout: 12_000 })).toBeInTheDocument();
    for (const name of ['Deposit', 'Direct', 'Binary', 'Level', 'P2P', 'Withdrawal', 'ROI', 'Rank']) {
      expect(screen.getByTestId(`wallet-card-${name}`)).toBeInTheDocument();
    }
    expect(screen.getByTestId('wallet-available-Deposit')).toHaveTextContent('$500.00');
    expect(screen.getByTestId('wallet-available-ROI')).toHaveTextContent('$7.25');
    expect(within(screen.getByTestId('wallet-card-Deposit')).getByText('$900.00')).toBeInTheDocument();
    // Binary 25.5 + Direct 40 + Upline_Bonus 3 + Level 12
    expect(screen.getByTestId('total-earnings')).toHaveTextContent('$80.50');
    expect(screen.getByRole('link', { name: 'P2P Transfer' })).toHaveAttribute(
      'href',
      '/dashboard/p2pTransfer',
    );
  });

  it('swap: only true wallets selectable, P2P never a destination, MAX fills, above balance refused', async () => {
    const { calls } = openWallets();
    await screen.findByText('$150.00', {}, { timeout: 5000 });
    const from = screen.getByLabelText('From wallet');
    const to = screen.getByLabelText('To wallet');
    await waitFor(() => expect(within(from).getByRole('option', { name: 'Direct' })).toBeEnabled());
    expect(within(from).getByRole('option', { name: 'Deposit' })).toBeDisabled();
    await waitFor(() => expect(within(to).getByRole('option', { name: 'Withdrawal' })).toBeEnabled());
    expect(within(to).getByRole('option', { name: 'P2P' })).toBeDisabled();
    expect(within(to).getByRole('option', { name: 'Direct' })).toBeDisabled();

    await userEvent.selectOptions(from, 'Level');
    await userEvent.selectOptions(to, 'Withdrawal');
    await userEvent.click(screen.getByRole('button', { name: 'MAX' }));
    expect(screen.getByLabelText('Amount')).toHaveValue(2.5);

    await userEvent.clear(screen.getByLabelText('Amount'));
    await userEvent.type(screen.getByLabelText('Amount'), '2.51');
    await userEvent.click(screen.getByRole('button', { name: 'Swap' }));
    expect(await screen.findByText(MSG.insufficientBalance)).toBeInTheDocument();
    expect(callsTo(calls, 'wallet.transfer_wallet')).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('Amount'));
    await userEvent.type(screen.getByLabelText('Amount'), '1.25');
    await userEvent.click(screen.getByRole('button', { name: 'Swap' }));
    // Into Withdrawal is one-way, as Quick transfer: confirmed first, nothing sent before.
    const confirm = await screen.findByRole('dialog', { name: 'Swap into Withdrawal' });
    expect(confirm).toHaveTextContent('Level Wallet');
    expect(confirm).toHaveTextContent('This cannot be undone.');
    expect(callsTo(calls, 'wallet.transfer_wallet')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Swap $1.25' }));
    expect(await screen.findByText('Wallet transfer successful')).toBeInTheDocument();
    expect(callsTo(calls, 'wallet.transfer_wallet').map((c) => c.input)).toEqual([
      { amount: 1.25, from_wallet: 'Level', to_wallet: 'Withdrawal' },
    ]);
  });

  it('reports an empty to-wallets answer', async () => {
    openWallets({
      'wallet.view_to_wallets': () => ({ Success: {} }),
    });
    expect(await screen.findByText(MSG.noToWallets, {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('toasts the from-wallets fallback on failure', async () => {
    openWallets({
      'wallet.view_from_wallets': () => {
        throw new MockFailure('');
      },
    });
    expect(await screen.findByText(MSG.failedFromWallets, {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('quick transfer first shows what will move and asks; Confirm moves each non-zero reward wallet, one call each, then refetches', async () => {
    const { calls } = openWallets();
    await screen.findByText('$150.00', {}, { timeout: 5000 });
    const fetches = callsTo(calls, 'wallet.view_all_wallets_details').length;
    await userEvent.click(screen.getByRole('button', { name: 'Quick transfer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Quick transfer to Withdrawal' });
    expect(callsTo(calls, 'wallet.transfer_wallet')).toHaveLength(0);
    // Each reward wallet with a balance and its amount, the total, where it goes, and that it is one-way.
    expect(within(dialog).getByText('Direct Wallet').nextSibling).toHaveTextContent('$10.00');
    expect(within(dialog).getByText('Level Wallet').nextSibling).toHaveTextContent('$2.50');
    expect(within(dialog).getByText('ROI Wallet').nextSibling).toHaveTextContent('$7.25');
    expect(within(dialog).queryByText('Binary Wallet')).toBeNull();
    expect(within(dialog).getByTestId('quick-transfer-total')).toHaveTextContent('$19.75');
    expect(within(dialog).getByText('Withdrawal Wallet')).toBeInTheDocument();
    expect(within(dialog).getByText(/cannot be swapped back/)).toBeInTheDocument();

    // Two clicks in one frame: still one call per wallet.
    const confirm = within(dialog).getByRole('button', { name: 'Move $19.75' });
    act(() => {
      fireEvent.click(confirm);
      fireEvent.click(confirm);
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'wallet.transfer_wallet').map((c) => c.input)).toEqual([
      { amount: 10, from_wallet: 'Direct', to_wallet: 'Withdrawal' },
      { amount: 2.5, from_wallet: 'Level', to_wallet: 'Withdrawal' },
      { amount: 7.25, from_wallet: 'ROI', to_wallet: 'Withdrawal' },
    ]);
    await waitFor(() =>
      expect(callsTo(calls, 'wallet.view_all_wallets_details').length).toBeGreaterThan(fetches),
    );
  });

  it('quick transfer waits for the balances: not offered while they load, never "no reward balance" for want of them', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    openWallets({
      'wallet.view_all_wallets_details': async () => {
        await answered;
        return { Success: wallets };
      },
    });
    const quick = await screen.findByRole('button', { name: 'Quick transfer' }, { timeout: 5000 });
    expect(quick).toBeDisabled();
    fireEvent.click(quick);
    expect(screen.queryByText('No reward balance to transfer')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    release();
    await waitFor(() => expect(quick).toBeEnabled());
    await userEvent.click(quick);
    expect(await screen.findByRole('dialog', { name: 'Quick transfer to Withdrawal' })).toBeInTheDocument();
  });

  it('quick transfer: Cancel moves nothing', async () => {
    const { calls } = openWallets();
    await screen.findByText('$150.00', {}, { timeout: 5000 });
    await userEvent.click(screen.getByRole('button', { name: 'Quick transfer' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'wallet.transfer_wallet')).toHaveLength(0);
  });

  it('swap: two clicks in one frame send one swap', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { calls } = openWallets({
      'wallet.transfer_wallet': async () => {
        await answered;
        return { Success: 'Wallet transfer successful' };
      },
    });
    await screen.findByText('$150.00', {}, { timeout: 5000 });
    const from = screen.getByLabelText('From wallet');
    await waitFor(() => expect(within(from).getByRole('option', { name: 'Direct' })).toBeEnabled());
    await waitFor(() =>
      expect(
        within(screen.getByLabelText('To wallet')).getByRole('option', { name: 'Deposit' }),
      ).toBeEnabled(),
    );
    await userEvent.selectOptions(from, 'Direct');
    await userEvent.selectOptions(screen.getByLabelText('To wallet'), 'Deposit');
    await userEvent.type(screen.getByLabelText('Amount'), '1');
    const swap = screen.getByRole('button', { name: 'Swap' });
    act(() => {
      fireEvent.click(swap);
      fireEvent.click(swap);
    });
    release();
    expect(await screen.findByText('Wallet transfer successful')).toBeInTheDocument();
    expect(callsTo(calls, 'wallet.transfer_wallet')).toHaveLength(1);
  });

  it('labels Total Earnings with what it counts', async () => {
    openWallets();
    const card = await screen.findByTestId('wallet-card-Total-Earnings', {}, { timeout: 5000 });
    expect(card).toHaveTextContent('Total Earnings (lifetime referral income)');
    expect(card).toHaveTextContent('Binary + Direct + Upline Bonus + Level, not ROI or Rank');
  });

  it('while balances and the statement load, their skeletons are labelled status regions (axe: no prohibited ARIA)', async () => {
    const never = () => new Promise(() => {});
    openWallets({
      'wallet.view_all_wallets_details': never,
      'wallet.view_statement': never,
      'earning.view_all_earning_history': never,
    });
    // The statement, and the figures: Available and Total of 8 wallet cards, and Total Earnings.
    expect(await screen.findByLabelText('Loading the statement', {}, { timeout: 12_000 })).toHaveAttribute(
      'role',
      'status',
    );
    expect(screen.getAllByLabelText('Loading')).toHaveLength(17);
    // A label on an element without a role (a skeleton's div or span) is prohibited ARIA: axe calls it serious.
    expect(await ariaProblems()).toEqual([]);
  });

  it('says "Unavailable" with a retry instead of $0.00 when the wallets call fails; Retry loads them', async () => {
    let fail = true;
    const { calls } = openWallets({
      'wallet.view_all_wallets_details': () => {
        if (fail) throw new MockFailure('down', 503);
        return { Success: wallets };
      },
    });
    const notice = await screen.findByTestId('wallets-unavailable', {}, { timeout: 5000 });
    expect(notice).toHaveTextContent('Unavailable');
    expect(screen.queryByText('$0.00')).toBeNull();
    expect(screen.queryByTestId('wallet-available-Deposit')).toBeNull();
    fail = false;
    const before = callsTo(calls, 'wallet.view_all_wallets_details').length;
    await userEvent.click(within(notice).getByRole('button', { name: /Retry/ }));
    expect(await screen.findByTestId('wallet-available-Deposit')).toHaveTextContent('$500.00');
    expect(callsTo(calls, 'wallet.view_all_wallets_details').length).toBeGreaterThan(before);
  });
});

describe('withdrawal request', () => {
  const withdrawHandlers = {
    'withdraw.withdraw_fees': () => ({ Success: 5 }),
    'withdraw.withdraw_request': () => ({ Success: 'Withdrawal request submitted' }),
  };
  const openTab = async (profile = {}) => {
    const utils = openWallets(withdrawHandlers, profile);
    await screen.findByText('$150.00', {}, { timeout: 5000 });
    await userEvent.click(screen.getByRole('tab', { name: 'Withdrawal Request' }));
    return utils;
  };

  it('shows the saved address shortened, and disables Withdraw for 0 or above the balance', async () => {
    await openTab({
      Transaction_Password: true,
      Wallet_Details: { Wallet_Address: '0x1234567890abcdef1234567890abcdef12345678', Network: 'BEP.20' },
    });
    expect(screen.getByTestId('withdrawal-address')).toHaveTextContent('0x1234...5678');
    const withdraw = screen.getByRole('button', { name: 'Withdraw' });
    expect(withdraw).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Withdrawal amount'), '150.01');
    expect(withdraw).toBeDisabled();
    await userEvent.clear(screen.getByLabelText('Withdrawal amount'));
    await userEvent.type(screen.getByLabelText('Withdrawal amount'), '0');
    expect(withdraw).toBeDisabled();
  });

  it('asks for at least $20, then for a transaction password', async () => {
    const { calls } = await openTab();
    expect(screen.getByTestId('withdrawal-address')).toHaveTextContent('-');
    await userEvent.type(screen.getByLabelText('Withdrawal amount'), '19.99');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText(MSG.withdrawalMin.trim())).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Withdrawal amount'));
    await userEvent.type(screen.getByLabelText('Withdrawal amount'), '20');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText(MSG.setTransactionPassword)).toBeInTheDocument();
    expect(callsTo(calls, 'withdraw.withdraw_fees')).toHaveLength(0);
  });

  it('shows the fee and final amount, then takes the transaction password', async () => {
    const { calls } = await openTab({ Transaction_Password: true });
    await userEvent.type(screen.getByLabelText('Withdrawal amount'), '100');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('5%')).toBeInTheDocument();
    expect(within(dialog).getByText('$5.00')).toBeInTheDocument();
    expect(within(dialog).getByTestId('withdrawal-final-amount')).toHaveTextContent('$95.00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const prompt = await screen.findByRole('dialog', { name: 'Confirm withdrawal' });
    await userEvent.click(within(prompt).getByRole('button', { name: 'Submit Withdrawal' }));
    expect(await within(prompt).findByText(MSG.enterTransactionPassword)).toBeInTheDocument();
    await userEvent.type(within(prompt).getByLabelText('Transaction Password'), 'Txn@123');
    await userEvent.click(within(prompt).getByRole('button', { name: 'Submit Withdrawal' }));
    expect(await screen.findByText('Withdrawal request submitted')).toBeInTheDocument();
    expect(callsTo(calls, 'withdraw.withdraw_request').map((c) => c.input)).toEqual([
      { amount: 100, password: 'Txn@123' },
    ]);
    expect(callsTo(calls, 'withdraw.withdraw_fees').map((c) => c.input)).toEqual([{ amount: 100 }]);
  });

  it('toasts the fee fallback', async () => {
    renderSignedIn(
      '/dashboard/wallets',
      {
        ...baseHandlers,
        'withdraw.withdraw_fees': () => {
          throw new MockFailure('');
        },
      },
      { Transaction_Password: true },
    );
    await screen.findByText('$150.00', {}, { timeout: 5000 });
    await userEvent.click(screen.getByRole('tab', { name: 'Withdrawal Request' }));
    await userEvent.type(screen.getByLabelText('Withdrawal amount'), '50');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText(MSG.failedWithdrawFees)).toBeInTheDocument();
  });

  it('sends one request when Submit Withdrawal is clicked twice in the same frame', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const utils = openWallets(
      {
        ...withdrawHandlers,
        'withdraw.withdraw_request': async () => {
          await answered;
          return { Success: 'Withdrawal request submitted' };
        },
      },
      { Transaction_Password: true },
    );
    await screen.findByText('$150.00', {}, { timeout: 5000 });
    await userEvent.click(screen.getByRole('tab', { name: 'Withdrawal Request' }));
    await userEvent.type(screen.getByLabelText('Withdrawal amount'), '100');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const prompt = await screen.findByRole('dialog', { name: 'Confirm withdrawal' });
    await userEvent.type(within(prompt).getByLabelText('Transaction Password'), 'Txn@123');
    const submit = within(prompt).getByRole('button', { name: 'Submit Withdrawal' });
    act(() => {
      fireEvent.click(submit);
      fireEvent.click(submit);
    });
    release();
    expect(await screen.findByText('Withdrawal request submitted')).toBeInTheDocument();
    expect(callsTo(utils.calls, 'withdraw.withdraw_request')).toHaveLength(1);
  });

  it('marks balances whose refresh found the server unreachable "as of" their time, muted, with one toast for all the reads', async () => {
    localStorage.setItem('jwt', 'jwt-1');
    localStorage.setItem(
      'user',
      JSON.stringify({ username: 'demo', avatar: 'Default', name: '', email: '' }),
    );
    let reachable = true;
    const unreachable = () => {
      // Status 0: the request got no answer (connection refused).
      throw new MockFailure('Failed to fetch', 0);
    };
    const answers: Record<string, () => unknown> = {
      ...baseHandlers,
      'user.view_profile': () => ({ Success: [memberProfile()] }),
    };
    const handlers = Object.fromEntries(
      Object.entries(answers).map(([path, answer]) => [path, () => (reachable ? answer() : unreachable())]),
    );
    const router = createMemoryRouter(routes, { initialEntries: ['/dashboard/wallets'] });
    render(
      <AppProviders config={testConfig} i18n={englishI18n} trpcClient={createMockClient(handlers)}>
        <OnlineOnly>
          <RouterProvider router={router} />
        </OnlineOnly>
      </AppProviders>,
    );
    expect(await screen.findByText('$150.00', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByTestId('as-of')).toBeNull();

    // The phone reconnects while the server is away: the page's reads are fetched again and fail.
    reachable = false;
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    onLine.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));

    const marks = await screen.findAllByTestId('as-of', {}, { timeout: 5000 });
    // Eight wallets and Total Earnings, each "as of" the time it was read.
    expect(marks).toHaveLength(9);
    expect(marks[0]).toHaveTextContent(/^as of \d\d:\d\d$/);
    expect(screen.getByTestId('wallet-available-Withdrawal')).toHaveTextContent('$150.00');
    expect(screen.getByTestId('wallets-not-current')).toHaveTextContent('the latest refresh failed');
    expect(await screen.findByText(SERVER_UNREACHABLE_TITLE)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('toast-details')).toHaveTextContent(MSG.failedToWallets));
    expect(document.querySelectorAll('[data-scope="toast"][data-part="root"]')).toHaveLength(1);
    vi.restoreAllMocks();

    reachable = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry: Wallet balances' }));
    await waitFor(() => expect(screen.queryByTestId('as-of')).toBeNull());
  });
});
