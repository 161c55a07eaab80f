import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
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
});
