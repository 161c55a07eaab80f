import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@md/shared';
import { ariaProblems } from '@/testing/aria.ts';
import { MockFailure } from '@/testing/mock-link.ts';
import { callsTo, loadPageBeforeTests, renderSignedIn } from '@/testing/member.ts';

const analytics = {
  Current_Level: 3,
  Current_Rank: 'Silver',
  Binary_Left: 1500,
  Binary_Right: 750,
  Active_Subscriptions: 2,
  Max_Earnings: 3000,
  Total_Earnings: 420.5,
  Remaining_Earnings: 2579.5,
  Direct_Referrals: 4,
  Team_Size: 12,
};

const figuresRegions = () =>
  ['Overview', 'Earnings Overview', 'Wallets Overview'].map((name) => screen.getByRole('region', { name }));
const card = (label: string) => screen.getByText(label).closest<HTMLElement>('.fs-stat-card')!;

describe('Dashboard home', () => {
  loadPageBeforeTests(() => import('./dashboard-home.tsx'));

  it('shows the analytics figures in the overview and earnings cards', async () => {
    renderSignedIn('/dashboard', { 'user_analytics.view_user_analytics': () => ({ Success: analytics }) });
    const overview = await screen.findByRole('region', { name: 'Overview' });
    expect(await within(overview).findByText('Silver')).toBeInTheDocument();
    expect(card('Current Level')).toHaveTextContent('3');
    // One number format: leg volumes are USDT, as in the Volume table.
    expect(card('Binary Left')).toHaveTextContent('$1,500.00');
    expect(card('Binary Right')).toHaveTextContent('$750.00');
    expect(card('Active Subscriptions')).toHaveTextContent('2');
    expect(card('Max Earnings')).toHaveTextContent('$3,000.00');
    expect(card('Total Earnings')).toHaveTextContent('$420.50');
    // Labelled with what it counts (the Wallets page's Total Earnings counts wallet totals).
    expect(card('Total Earnings')).toHaveTextContent('ROI, binary and level income on your active packages');
    expect(card('Remaining Earnings')).toHaveTextContent('$2,579.50');
  });

  it("the Summary's Total users is the member's team, not a placeholder 0", async () => {
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () => ({ Success: { ...analytics, Team_Size: 1210 } }),
    });
    const summary = await screen.findByRole('region', { name: 'Summary' }, { timeout: 10_000 });
    const row = within(summary).getByText('Total users').parentElement!;
    expect(row).toHaveTextContent('Total users1,210');
  });

  it('Directs lists the newest, says how many of the count it shows, and leads to them all', async () => {
    const directs = Array.from({ length: 13 }, (_, i) => ({
      Username: `direct_${String(i + 1).padStart(2, '0')}`,
      Name: `Direct ${i + 1}`,
      Email: 'dir***ect@example.com',
      Side: i % 2 ? '1' : '0',
      Country: 'UK',
      Created_On: new Date(Date.UTC(2026, 0, i + 1)).toISOString(),
      Status: i % 3 === 0,
    }));
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () => ({ Success: analytics }),
      'direct.view_direct_team_details': () => ({ Success: directs }),
    });
    const glance = await screen.findByRole('region', { name: 'Your team' });
    expect(await within(glance).findByRole('heading', { name: 'Directs (13)' })).toBeInTheDocument();
    expect(within(within(glance).getByTestId('team-directs')).getAllByRole('listitem')).toHaveLength(8);
    expect(within(glance).getByTestId('team-directs-shown')).toHaveTextContent('Showing the 8 newest of 13.');
    expect(within(glance).getByRole('link', { name: 'View all 13 directs' })).toHaveAttribute(
      'href',
      '/dashboard/levelchart',
    );
  });

  it('reads Starter for a member without a rank yet', async () => {
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () => ({ Success: { ...analytics, Current_Rank: '' } }),
    });
    expect(
      await within(await screen.findByRole('region', { name: 'Overview' })).findByText('Starter'),
    ).toBeInTheDocument();
  });

  it('reads the Current Rank from /rank/current_rank when it answers', async () => {
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () => ({ Success: analytics }),
      'rank.current_rank': () => ({ Success: { Rank: 'Gold' } }),
    });
    expect(
      await within(await screen.findByRole('region', { name: 'Overview' })).findByText('Gold'),
    ).toBeInTheDocument();
  });

  it("toasts 'Failed to get current rank' when that call fails without words, and reads the analytics' rank", async () => {
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () => ({ Success: analytics }),
      'rank.current_rank': () => {
        throw new MockFailure('', 500);
      },
    });
    expect(await screen.findByText(MSG.failedCurrentRank)).toBeInTheDocument();
    expect(card('Current Rank')).toHaveTextContent('Silver');
  });

  it('the analytics, wallet and notification fetches fail silently: Unavailable with a Retry, never 0 or $0.00, no message', async () => {
    const user = userEvent.setup();
    let fail = true;
    const boom = () => {
      throw new MockFailure('Exploded', 500);
    };
    const { calls } = renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () => {
        if (fail) boom();
        return { Success: analytics };
      },
      'wallet.view_all_wallets_details': boom,
      'notification.view_notification': boom,
      'rank.current_rank': () => ({ Success: { Rank: 'Basic' } }),
    });
    expect(await screen.findByRole('button', { name: 'Retry: Wallets Overview' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Retry: Latest Activity' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Retry: Overview' })).toBeInTheDocument();
    expect(card('Current Level')).toHaveTextContent('Unavailable');
    expect(card('Total Earnings')).toHaveTextContent('Unavailable');
    expect(card('Current Rank')).toHaveTextContent('Basic');
    expect(figuresRegions().some((region) => region.textContent?.includes('$0.00'))).toBe(false);
    expect(screen.queryByText(MSG.noWalletData)).toBeNull();
    expect(screen.queryByText('Exploded')).toBeNull();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry: Earnings Overview' }));
    await waitFor(() => expect(card('Max Earnings')).toHaveTextContent('$3,000.00'));
    expect(callsTo(calls, 'user_analytics.view_user_analytics')).toHaveLength(2);
  });

  it('while the reads are under way the cards show skeletons, never Level 0, Rank 0 or $0.00', async () => {
    const never = () => new Promise(() => {});
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': never,
      'rank.current_rank': never,
    });
    await screen.findByRole('region', { name: 'Overview' });
    // 4 overview + 4 earnings.
    expect(await screen.findAllByTestId('stat-skeleton')).toHaveLength(8);
    expect(card('Current Level')).toHaveAttribute('aria-busy', 'true');
    expect(card('Current Level')).not.toHaveTextContent('0');
    expect(card('Current Rank')).not.toHaveTextContent('0');
    expect(
      ['Overview', 'Earnings Overview'].some((name) =>
        screen.getByRole('region', { name }).textContent?.includes('$0.00'),
      ),
    ).toBe(false);
    // The team glance has answered (Unavailable: no handler); the wallets wait for the analytics,
    // which decide whether the next steps stand above them.
    await within(await screen.findByRole('region', { name: 'Your team' })).findByText('Unavailable');
    expect(screen.queryByRole('region', { name: 'Wallets Overview' })).toBeNull();
    // The skeletons carry labels: as status regions, which may.
    expect(await ariaProblems()).toEqual([]);
  });

  it('while the wallets are read their cards show skeletons, never $0.00', async () => {
    const never = () => new Promise(() => {});
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () => ({ Success: analytics }),
      'wallet.view_all_wallets_details': never,
      'notification.view_notification': never,
    });
    const wallets = await screen.findByRole('region', { name: 'Wallets Overview' });
    expect(await within(wallets).findAllByTestId('stat-skeleton')).toHaveLength(7);
    expect(card('Deposit Wallet')).toHaveAttribute('aria-busy', 'true');
    // The Summary card is the spec's placeholder zeros; the figures' regions show none.
    expect(figuresRegions().some((region) => region.textContent?.includes('$0.00'))).toBe(false);
  });

  it('the wallets and what follows them appear once the team glance has answered: appended, they move nothing on screen', async () => {
    let answerTeam!: (directs: unknown) => void;
    const team = new Promise((resolve) => (answerTeam = resolve));
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () => ({ Success: analytics }),
      'direct.view_direct_team_details': () => team,
    });
    const glance = await screen.findByRole('region', { name: 'Your team' });
    expect(within(glance).getByRole('status', { name: 'Loading your team' })).toBeInTheDocument();
    // The analytics have answered (their figures show); only the team is awaited.
    await within(screen.getByRole('region', { name: 'Overview' })).findByText('Silver');
    expect(screen.queryByRole('region', { name: 'Wallets Overview' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Latest Activity' })).toBeNull();
    answerTeam({ Success: [] });
    expect(await screen.findByRole('region', { name: 'Wallets Overview' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Latest Activity' })).toBeInTheDocument();
    expect(within(glance).getByText('No directs yet.')).toBeInTheDocument();
  });

  it('a team read that hangs keeps the wallets back 5 s at most, not until its 20 s deadline', async () => {
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () => ({ Success: analytics }),
      'direct.view_direct_team_details': () => new Promise(() => {}),
    });
    const glance = await screen.findByRole('region', { name: 'Your team' });
    await within(screen.getByRole('region', { name: 'Overview' })).findByText('Silver');
    expect(screen.queryByRole('region', { name: 'Wallets Overview' })).toBeNull();
    expect(
      await screen.findByRole('region', { name: 'Wallets Overview' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(within(glance).getByRole('status', { name: 'Loading your team' })).toBeInTheDocument();
  });
});
