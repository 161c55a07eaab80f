import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@md/shared';
import { MockFailure } from '@/testing/mock-link.ts';
import { ariaProblems } from '@/testing/aria.ts';
import { callsTo, renderSignedIn, wallet } from '@/testing/member.ts';

const packages = [
  { Name: 'Starter', Price: 100, Max_Cap: 300, Binary_Volume: 100, Rank_Volume: 100, ROI_Percentage: 1 },
  { Name: 'Gold', Price: 1000, Max_Cap: 3000, Binary_Volume: 1000, Rank_Volume: 1000, ROI_Percentage: 1.5 },
];

const handlers = (buy: () => unknown = () => ({ Success: 'Subscription purchased successfully' })) => ({
  'table.view_subscription': () => ({ Success: packages }),
  'wallet.view_all_wallets_details': () => ({ Success: { Deposit: wallet(5000) } }),
  'subscription.buy_subscription_packages': buy,
});

describe('package page', () => {
  it('while the packages load, the spinner is a labelled status region (axe: no prohibited ARIA)', async () => {
    renderSignedIn('/dashboard/package', {
      ...handlers(),
      'table.view_subscription': () => new Promise(() => {}),
    });
    expect(await screen.findByRole('status', { name: MSG.loading }, { timeout: 5000 })).toBeInTheDocument();
    expect(await ariaProblems()).toEqual([]);
  });

  it('lists the packages, badges the current one and shows the pulsing header balance', async () => {
    renderSignedIn('/dashboard/package', handlers(), { package: 'Starter' });
    const starter = await screen.findByTestId('package-card-Starter', {}, { timeout: 5000 });
    expect(within(starter).getByText('Current')).toBeInTheDocument();
    expect(within(screen.getByTestId('package-card-Gold')).queryByText('Current')).toBeNull();
    expect(within(starter).getByText('$300.00')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('package-balance')).toHaveTextContent('Available Bal : $5,000.00'),
    );
    expect(screen.getByRole('heading', { name: 'Investment Details' })).toBeInTheDocument();
    expect(screen.getByText('Binary income is 10%, calculated daily at 11 AM UK time.')).toBeInTheDocument();
  });

  it('selects a card, confirms with both warnings, buys, toasts and refetches', async () => {
    const { calls } = renderSignedIn('/dashboard/package', handlers());
    const gold = await screen.findByTestId('package-card-Gold', {}, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'Select Gold' })).toBeNull();
    // A click anywhere on the card presses its toggle, the package name.
    const goldToggle = within(gold).getByRole('button', { name: 'Gold' });
    expect(goldToggle).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(gold);
    expect(goldToggle).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Select Gold' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Deposit')).toBeInTheDocument();
    expect(within(dialog).getByText('$1,000.00')).toBeInTheDocument();
    expect(within(dialog).getByText('A purchased package cannot be cancelled.')).toBeInTheDocument();
    expect(within(dialog).getByText('Daily ROI is credited Monday through Friday.')).toBeInTheDocument();
    const walletFetches = callsTo(calls, 'wallet.view_all_wallets_details').length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm Purchase' }));
    expect(await screen.findByText('Subscription purchased successfully')).toBeInTheDocument();
    expect(callsTo(calls, 'subscription.buy_subscription_packages').map((c) => c.input)).toEqual([
      { plan: 'Gold' },
    ]);
    await waitFor(() =>
      expect(callsTo(calls, 'wallet.view_all_wallets_details').length).toBeGreaterThan(walletFetches),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Select Gold' })).toBeNull();
  });

  it('selects by keyboard; Cancel closes the panel; a failure toasts the server error', async () => {
    renderSignedIn(
      '/dashboard/package',
      handlers(() => {
        throw new MockFailure('Insufficient balance in Deposit wallet');
      }),
    );
    const starter = await screen.findByTestId('package-card-Starter', {}, { timeout: 5000 });
    within(starter).getByRole('button', { name: 'Starter' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(within(starter).getByRole('button', { name: 'Starter' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Select Starter' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Select Starter' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm Purchase' }),
    );
    expect(await screen.findByText('Insufficient balance in Deposit wallet')).toBeInTheDocument();
  });

  it('sends one purchase when Confirm Purchase is clicked twice in the same frame', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { calls } = renderSignedIn(
      '/dashboard/package',
      handlers(async () => {
        await answered;
        return { Success: 'Package Gold purchased successfully' };
      }),
    );
    await userEvent.click(await screen.findByTestId('package-card-Gold', {}, { timeout: 5000 }));
    await userEvent.click(screen.getByRole('button', { name: 'Select Gold' }));
    const confirm = within(await screen.findByRole('dialog')).getByRole('button', {
      name: 'Confirm Purchase',
    });
    // Two clicks before React renders again: a disabled state would land too late.
    act(() => {
      fireEvent.click(confirm);
      fireEvent.click(confirm);
    });
    await act(async () => {
      fireEvent.click(confirm);
      await Promise.resolve();
    });
    release();
    expect(await screen.findByText('Package Gold purchased successfully')).toBeInTheDocument();
    expect(callsTo(calls, 'subscription.buy_subscription_packages')).toHaveLength(1);
  });

  it("badges 'Current' on every ACTIVE package (the profile names only the latest)", async () => {
    const { calls } = renderSignedIn(
      '/dashboard/package',
      {
        ...handlers(),
        'subscription.subscription_transaction': () => ({
          Success: [
            { Name: 'Gold', Status: 'ACTIVE' },
            { Name: 'Starter', Status: 'ACTIVE' },
          ],
        }),
      },
      { package: 'Gold' },
    );
    const starter = await screen.findByTestId('package-card-Starter', {}, { timeout: 5000 });
    await waitFor(() => expect(within(starter).getByText('Current')).toBeInTheDocument());
    expect(within(screen.getByTestId('package-card-Gold')).getByText('Current')).toBeInTheDocument();
    expect(callsTo(calls, 'subscription.subscription_transaction')[0]?.input).toMatchObject({
      filters: { Status: ['ACTIVE'] },
    });
  });

  it('says what to do, and keeps the Select action in a bar stuck to the bottom once a card is picked', async () => {
    renderSignedIn('/dashboard/package', handlers());
    const gold = await screen.findByTestId('package-card-Gold', {}, { timeout: 5000 });
    expect(screen.getByTestId('package-hint')).toHaveTextContent('Tap a package to choose it.');
    expect(screen.queryByTestId('package-action-bar')).toBeNull();
    await userEvent.click(gold);
    const bar = screen.getByTestId('package-action-bar');
    expect(getComputedStyle(bar).position).toBe('sticky');
    expect(within(bar).getByRole('button', { name: 'Select Gold' })).toBeInTheDocument();
    expect(screen.getByTestId('package-hint')).toHaveTextContent(
      'Gold selected: Select Gold to review and confirm.',
    );
  });

  it('toasts the fallbacks when the list or the purchase fail without a message', async () => {
    renderSignedIn('/dashboard/package', {
      'table.view_subscription': () => {
        throw new MockFailure('');
      },
    });
    expect(await screen.findByText(MSG.failedLoadPackages, {}, { timeout: 5000 })).toBeInTheDocument();
  });
});
