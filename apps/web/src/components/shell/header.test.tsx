import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MockFailure } from '@/testing/mock-link.ts';
import { callsTo, renderSignedIn, wallet } from '@/testing/member.ts';

const packages = { 'table.view_subscription': () => ({ Success: [] }) };
const header = () => screen.getByRole('banner');
const balance = () => within(header()).getByTestId('package-balance');

describe('header balance on the package page', () => {
  it('says "Unavailable" with a retry when the wallets call fails, never $0.00, and retries', async () => {
    let fail = true;
    const { calls } = renderSignedIn('/dashboard/package', {
      ...packages,
      'wallet.view_all_wallets_details': () => {
        if (fail) throw new MockFailure('Server down', 500);
        return { Success: { Deposit: wallet(5450) } };
      },
    });
    await waitFor(() => expect(balance()).toHaveTextContent(/Available Bal :\s*Unavailable/));
    expect(balance()).not.toHaveTextContent('$0.00');
    fail = false;
    await userEvent.click(within(header()).getByRole('button', { name: 'Retry: Available balance' }));
    await waitFor(() => expect(balance()).toHaveTextContent('Available Bal : $5,450.00'));
    expect(callsTo(calls, 'wallet.view_all_wallets_details').length).toBeGreaterThanOrEqual(2);
  });

  it('says "Unavailable" when the answer holds no Deposit wallet', async () => {
    renderSignedIn('/dashboard/package', { ...packages, 'wallet.view_all_wallets_details': () => ({ Success: null }) });
    await waitFor(() => expect(balance()).toHaveTextContent('Unavailable'));
  });

  it('shows a skeleton, not $0.00, while the wallets load', async () => {
    let answer!: (value: unknown) => void;
    renderSignedIn('/dashboard/package', {
      ...packages,
      'wallet.view_all_wallets_details': () => new Promise((resolve) => (answer = resolve)),
    });
    await waitFor(() => expect(balance()).toHaveAttribute('aria-busy', 'true'));
    expect(within(balance()).getByLabelText('Loading the balance')).toBeInTheDocument();
    expect(balance()).not.toHaveTextContent('$');
    answer({ Success: { Deposit: wallet(12.5) } });
    await waitFor(() => expect(balance()).toHaveTextContent('Available Bal : $12.50'));
  });
});

describe('referral links on phones', () => {
  const original = { share: Object.getOwnPropertyDescriptor(navigator, 'share'), clipboard: Object.getOwnPropertyDescriptor(navigator, 'clipboard') };
  afterEach(() => {
    for (const key of ['share', 'clipboard'] as const) {
      const descriptor = original[key];
      if (descriptor) Object.defineProperty(navigator, key, descriptor);
      else delete (navigator as Partial<Record<typeof key, unknown>>)[key];
    }
  });

  const expectedLink = (side: string) => `${window.location.origin}/register?sponsor=demo&side=${side}`;

  /** Opens the header's share menu from the keyboard and chooses a leg (as a phone's screen reader would). */
  async function chooseLeg(name: 'Left-leg link' | 'Right-leg link') {
    const trigger = await within(await screen.findByRole('banner')).findByRole('button', { name: 'Share referral link' });
    trigger.focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('menuitem', { name });
    if (name === 'Right-leg link') await userEvent.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getByRole('menuitem', { name })).toHaveAttribute('data-highlighted'));
    await userEvent.keyboard('{Enter}');
  }

  it('shares the chosen leg with the Web Share API where the browser has it', async () => {
    const share = vi.fn<(data: ShareData) => Promise<void>>(() => Promise.resolve());
    Object.defineProperty(navigator, 'share', { value: share, configurable: true, writable: true });
    renderSignedIn('/dashboard', {});
    await chooseLeg('Right-leg link');
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share.mock.calls[0]![0]).toMatchObject({ url: expectedLink('right'), title: 'Join my team' });
  });

  it('copies the link and says so where there is no share sheet', async () => {
    delete (navigator as { share?: unknown }).share;
    const writeText = vi.fn<(text: string) => Promise<void>>(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderSignedIn('/dashboard', {});
    await chooseLeg('Left-leg link');
    expect(await screen.findByText(`Copied "${expectedLink('left')}"`)).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(expectedLink('left'));
  });

  it('copies nothing when the member closes the share sheet', async () => {
    const share = vi.fn(() => Promise.reject(new DOMException('Share canceled', 'AbortError')));
    Object.defineProperty(navigator, 'share', { value: share, configurable: true, writable: true });
    renderSignedIn('/dashboard', {});
    await chooseLeg('Left-leg link');
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(/^Copied/)).toBeNull();
  });
});
