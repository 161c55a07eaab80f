/**
 * Empty states that suggest the next step: no package → "Choose a package" (home,
 * package page); no downline → "Share your link" (home, level chart, volume). A member with both
 * sees neither; a failed read suggests nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MockFailure } from '@/testing/mock-link.ts';
import { callsTo, renderSignedIn } from '@/testing/member.ts';

const analytics = (over: Record<string, unknown> = {}) => ({
  Success: {
    Current_Level: 0,
    Current_Rank: 'Starter',
    Binary_Left: 0,
    Binary_Right: 0,
    Active_Subscriptions: 0,
    Max_Earnings: 0,
    Total_Earnings: 0,
    Remaining_Earnings: 0,
    Direct_Referrals: 0,
    Team_Size: 0,
    ...over,
  },
});

const clipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
afterEach(() => {
  if (clipboard) Object.defineProperty(navigator, 'clipboard', clipboard);
  else Reflect.deleteProperty(navigator, 'clipboard');
});

describe('Next steps', () => {
  it('home, a new member: "Choose a package" links to the package page; "Share your link" copies the registration link', async () => {
    const user = userEvent.setup();
    // After the set-up, which puts its own clipboard stub in place.
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderSignedIn('/dashboard', { 'user_analytics.view_user_analytics': () => analytics() });
    // Below the fold (after the first paint); queried by text and test id: role queries over the whole home are slow in jsdom.
    const steps = (await screen.findByText('Next steps', {}, { timeout: 10_000 })).closest('section')!;
    expect(steps).toHaveAttribute('aria-label', 'Next steps');
    expect(
      within(screen.getByTestId('next-step-package')).getByRole('link', { name: 'Choose a package' }),
    ).toHaveAttribute('href', '/dashboard/package');
    await user.click(
      within(screen.getByTestId('next-step-share')).getByRole('button', { name: 'Share your link (right)' }),
    );
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/register?sponsor=demo&side=right`),
    );
  });

  it('home, a member with a package and a team: no next steps', async () => {
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () =>
        analytics({ Active_Subscriptions: 1, Team_Size: 3, Direct_Referrals: 1 }),
    });
    await screen.findByText('Wallets Overview', {}, { timeout: 10_000 });
    expect(screen.queryByText('Next steps')).not.toBeInTheDocument();
    expect(screen.queryByTestId('next-step-package')).not.toBeInTheDocument();
    expect(screen.queryByTestId('next-step-share')).not.toBeInTheDocument();
  });

  it('home, the analytics failed: nothing is suggested on figures nobody gave', async () => {
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () => {
        throw new MockFailure('', 500);
      },
    });
    await screen.findByText('Wallets Overview', {}, { timeout: 10_000 });
    expect(screen.queryByText('Next steps')).not.toBeInTheDocument();
  });

  it('package page without an ACTIVE package: "Choose a package"', async () => {
    renderSignedIn('/dashboard/package', {
      'subscription.subscription_transaction': () => ({ Success: [] }),
      'table.view_subscription': () => ({ Success: [] }),
    });
    expect(await screen.findByTestId('next-step-package')).toHaveTextContent(
      'You have no active package yet',
    );
  });

  it('level chart without a downline: the empty state and "Share your link"', async () => {
    renderSignedIn('/dashboard/levelchart', {
      'level.view_downline': () => ({ Success: { Username: 'demo', CountUser: 0, Downline: [] } }),
    });
    expect(await screen.findByText('No organizational data available')).toBeInTheDocument();
    expect(
      within(screen.getByTestId('next-step-share')).getByRole('button', { name: 'Share your link (left)' }),
    ).toBeInTheDocument();
  });

  it('volume page without a team: "Share your link" above the chart; with one, none', async () => {
    const { unmount } = renderSignedIn('/dashboard/volume', {
      'user_analytics.view_user_analytics': () => analytics(),
    });
    expect(await screen.findByTestId('next-step-share')).toHaveTextContent('no volume on your legs');
    unmount();
    renderSignedIn('/dashboard/volume', {
      'user_analytics.view_user_analytics': () => analytics({ Team_Size: 2, Direct_Referrals: 2 }),
    });
    await screen.findByRole('heading', { name: 'Leg volumes over time' });
    expect(screen.queryByTestId('next-step-share')).not.toBeInTheDocument();
  });

  it('volume page: spillover volume on the legs without a sponsored team is not "no volume"', async () => {
    const { calls } = renderSignedIn('/dashboard/volume', {
      'user_analytics.view_user_analytics': () => analytics({ Binary_Left: 10_700 }),
      'binary.view_binary_transaction': () => ({ Success: [] }),
    });
    // Both reads answered and rendered: the analytics (asked first) and the chart's empty range.
    await screen.findByTestId('chart-empty');
    expect(callsTo(calls, 'user_analytics.view_user_analytics').length).toBeGreaterThan(0);
    expect(screen.queryByTestId('next-step-share')).not.toBeInTheDocument();
  });
});
