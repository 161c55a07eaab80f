import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
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
    renderSignedIn('/dashboard/package', {
      ...packages,
      'wallet.view_all_wallets_details': () => ({ Success: null }),
    });
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
  const original = {
    share: Object.getOwnPropertyDescriptor(navigator, 'share'),
    clipboard: Object.getOwnPropertyDescriptor(navigator, 'clipboard'),
  };
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
    const trigger = await within(await screen.findByRole('banner')).findByRole('button', {
      name: 'Share referral link',
    });
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

describe('notifications bell', () => {
  const note = (n: number, minute: number) => ({
    Message: `Message ${n}`,
    DateTime: `2026-11-20T10:${String(minute).padStart(2, '0')}:00Z`,
    TransID: `N${n}`,
    Type: 'level_income',
  });
  /** Newest first, as the provider answers: N7 (10:07) … N1 (10:01). */
  const notes = [7, 6, 5, 4, 3, 2, 1].map((n) => note(n, n));
  const notificationHandlers = (list: () => unknown[] = () => notes) => ({
    'notification.view_notification': () => ({ Success: list() }),
    'notification.total_view_notification': () => ({ Success: list().length }),
  });
  const bell = () => within(header()).getByTestId('notification-bell');
  const markerOf = (username: string) =>
    JSON.parse(localStorage.getItem(`notificationsSeen:${username}`) ?? 'null');
  afterEach(() => localStorage.clear());

  it('counts every notification when the list was never opened on this device', async () => {
    renderSignedIn('/dashboard/wallets', notificationHandlers());
    await waitFor(() => expect(bell()).toHaveAccessibleName('Notifications, 7 unread'));
    expect(within(bell()).getByText('7')).toBeInTheDocument();
  });

  it('shows a page-full of new ones as 20+', async () => {
    const many = Array.from({ length: 20 }, (_, i) => note(100 - i, 59 - i));
    renderSignedIn(
      '/dashboard/wallets',
      notificationHandlers(() => many),
    );
    await waitFor(() => expect(bell()).toHaveAccessibleName('Notifications, 20+ unread'));
  });

  it('counts those since the marker; Enter opens the latest 5, which clears the count; Escape closes and focus returns', async () => {
    localStorage.setItem(
      'notificationsSeen:demo',
      JSON.stringify({ time: notes[3]!.DateTime, id: notes[3]!.TransID }),
    );
    // Another member's marker on the same device changes nothing for demo.
    localStorage.setItem(
      'notificationsSeen:other',
      JSON.stringify({ time: notes[0]!.DateTime, id: notes[0]!.TransID }),
    );
    renderSignedIn('/dashboard/wallets', notificationHandlers());
    await waitFor(() => expect(bell()).toHaveAccessibleName('Notifications, 3 unread'));
    bell().focus();
    await userEvent.keyboard('{Enter}');
    const latest = await screen.findByTestId('bell-latest');
    const items = within(latest).getAllByRole('menuitem').slice(0, -1);
    expect(items.map((item) => within(item).getByText(/^Message/).textContent)).toEqual([
      'Message 7',
      'Message 6',
      'Message 5',
      'Message 4',
      'Message 3',
    ]);
    expect(items[0]).toHaveAttribute('href', '/dashboard/notification');
    expect(items.map((item) => within(item).queryByText('New') !== null)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(within(items[0]!).getByText('level income')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'View all notifications' })).toHaveAttribute(
      'href',
      '/dashboard/notification',
    );
    await waitFor(() => expect(bell()).toHaveAccessibleName('Notifications'));
    expect(markerOf('demo')).toEqual({ time: notes[0]!.DateTime, id: 'N7' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('bell-latest')).toBeNull());
    expect(bell()).toHaveFocus();
    expect(within(bell()).queryByText(/\d/)).toBeNull();
  });

  it('a notification newer than the marker counts, even at the marker’s second; visiting the Notifications page clears it', async () => {
    const sameSecond = { ...note(8, 7), TransID: 'N8' };
    localStorage.setItem('notificationsSeen:demo', JSON.stringify({ time: notes[0]!.DateTime, id: 'N7' }));
    const list = [sameSecond, ...notes];
    renderSignedIn(
      '/dashboard/wallets',
      notificationHandlers(() => list),
    );
    await waitFor(() => expect(bell()).toHaveAccessibleName('Notifications, 1 unread'));
    cleanup();
    renderSignedIn(
      '/dashboard/notification',
      notificationHandlers(() => list),
    );
    expect(await screen.findByText('Message 8')).toBeInTheDocument();
    await waitFor(() => expect(markerOf('demo')).toEqual({ time: sameSecond.DateTime, id: 'N8' }));
    await waitFor(() => expect(bell()).toHaveAccessibleName('Notifications'));
  });

  it('keeps the marker when the member logs out (like the theme); the session goes', async () => {
    const { clearLocalStorage } = await import('@/lib/storage.ts');
    localStorage.setItem('notificationsSeen:demo', '{"time":"2026-11-20T10:07:00Z","id":"N7"}');
    localStorage.setItem('jwt', 'x');
    clearLocalStorage();
    expect(localStorage.getItem('notificationsSeen:demo')).not.toBeNull();
    expect(localStorage.getItem('jwt')).toBeNull();
  });
});
