import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { MSG } from '@md/shared';
import { MockFailure } from '@/testing/mock-link.ts';
import { renderSignedIn } from '@/testing/member.ts';

const analytics = {
  Current_Level: 3, Current_Rank: 'Silver', Binary_Left: 1500, Binary_Right: 750, Active_Subscriptions: 2,
  Max_Earnings: 3000, Total_Earnings: 420.5, Remaining_Earnings: 2579.5, Direct_Referrals: 4, Team_Size: 12,
};

const card = (label: string) => screen.getByText(label).closest<HTMLElement>('.chakra-card__root')!;

describe('Dashboard home', () => {
  it('shows the analytics figures in the overview and earnings cards', async () => {
    renderSignedIn('/dashboard', { 'user_analytics.view_user_analytics': () => ({ Success: analytics }) });
    const overview = await screen.findByRole('region', { name: 'Overview' });
    expect(await within(overview).findByText('Silver')).toBeInTheDocument();
    expect(card('Current Level')).toHaveTextContent('3');
    expect(card('Binary Left')).toHaveTextContent('1500');
    expect(card('Binary Right')).toHaveTextContent('750');
    expect(card('Active Subscriptions')).toHaveTextContent('2');
    expect(card('Max Earnings')).toHaveTextContent('$3,000.00');
    expect(card('Total Earnings')).toHaveTextContent('$420.50');
    expect(card('Remaining Earnings')).toHaveTextContent('$2,579.50');
  });

  it('reads Starter for a member without a rank yet', async () => {
    renderSignedIn('/dashboard', { 'user_analytics.view_user_analytics': () => ({ Success: { ...analytics, Current_Rank: '' } }) });
    expect(await within(await screen.findByRole('region', { name: 'Overview' })).findByText('Starter')).toBeInTheDocument();
  });

  it('reads the Current Rank from /rank/current_rank when it answers', async () => {
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': () => ({ Success: analytics }),
      'rank.current_rank': () => ({ Success: { Rank: 'Gold' } }),
    });
    expect(await within(await screen.findByRole('region', { name: 'Overview' })).findByText('Gold')).toBeInTheDocument();
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

  it('the analytics, wallet and notification fetches fail silently: zeros and empty states, no message', async () => {
    const boom = () => {
      throw new MockFailure('Exploded', 500);
    };
    renderSignedIn('/dashboard', {
      'user_analytics.view_user_analytics': boom,
      'wallet.view_all_wallets_details': boom,
      'notification.view_notification': boom,
      'rank.current_rank': () => ({ Success: { Rank: 'Basic' } }),
    });
    expect(await screen.findByText(MSG.noActivity)).toBeInTheDocument();
    expect(await screen.findByText(MSG.noWalletData)).toBeInTheDocument();
    expect(card('Current Level')).toHaveTextContent('0');
    expect(screen.queryByText('Exploded')).toBeNull();
  });
});
