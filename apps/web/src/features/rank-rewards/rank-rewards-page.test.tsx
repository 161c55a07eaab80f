import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { MSG } from '@md/shared';
import { TestProviders } from '@/testing/providers.tsx';
import { AuthProvider } from '@/lib/auth.tsx';
import { createMockClient, MockFailure } from '@/testing/mock-link.ts';
import { renderSignedIn } from '@/testing/member.ts';
import { testConfig } from '@/testing/render.tsx';
import RankRewardsPage from './rank-rewards-page.tsx';

const rank = (
  Rank: string,
  Reward: number,
  volume: number,
  leaders = 0,
  extra: Record<string, unknown> = {},
) => ({
  Rank,
  Reward,
  Left_Volune: volume,
  Right_Volume: volume,
  Rank_Qualification_Requirement: { [`${Rank}_req`]: { Side_1: leaders } },
  ...extra,
});
const RANKS = [
  rank('Starter', 0, 0),
  rank('Basic', 50, 1000),
  rank('Silver', 100, 5000, 2),
  rank('Gold', 500, 20000, 4, { Spillover: 300 }),
];

describe('Ranks & Rewards', () => {
  it('labels every rank Past, Current or Next in server order and shows the next rank, leaders and spillover', async () => {
    renderSignedIn('/dashboard/rankrewards', {
      'rank.view_all_ranks': () => ({ Success: RANKS }),
      'rank.current_rank': () => ({ Success: { Rank: 'Basic' } }),
    });
    expect(await screen.findByRole('heading', { name: 'Rank System' })).toBeInTheDocument();
    const starter = await screen.findByTestId('rank-Starter');
    expect(within(starter).getByText('Past')).toBeInTheDocument();
    expect(within(screen.getByTestId('rank-Basic')).getByText('Current')).toBeInTheDocument();
    expect(within(screen.getByTestId('rank-Silver')).getByText('Next')).toBeInTheDocument();
    const gold = screen.getByTestId('rank-Gold');
    expect(within(gold).getByText('Next')).toBeInTheDocument();
    expect(within(gold).getByText('$500.00')).toBeInTheDocument();
    expect(within(gold).getByText('4')).toBeInTheDocument();
    expect(within(gold).getByText('Spillover')).toBeInTheDocument();
    expect(within(screen.getByTestId('rank-Silver')).queryByText('Spillover')).not.toBeInTheDocument();
    // Left and right volume.
    expect(within(screen.getByTestId('rank-Silver')).getAllByText('$5,000.00')).toHaveLength(2);
    expect(screen.getAllByTestId(/^rank-/).map((card) => card.dataset.testid)).toEqual([
      'rank-Starter',
      'rank-Basic',
      'rank-Silver',
      'rank-Gold',
    ]);
    // The next rank is the one after the current one.
    expect(screen.getByText('Next Rank').closest('[class]')!.parentElement).toHaveTextContent('Silver');
    expect(
      screen.getByText(/qualified leaders: direct referrals who have their own 1:1/i),
    ).toBeInTheDocument();
  });

  it("falls back to Starter with 'Failed to load current rank', and toasts 'Failed to load ranks'", async () => {
    renderSignedIn('/dashboard/rankrewards', {
      'rank.view_all_ranks': () => ({ Success: RANKS }),
      // A failure without the server's words shows the fallback.
      'rank.current_rank': () => {
        throw new MockFailure('', 500);
      },
    });
    expect(await screen.findByText('Failed to load current rank')).toBeInTheDocument();
    expect(within(await screen.findByTestId('rank-Starter')).getByText('Current')).toBeInTheDocument();
    expect(within(screen.getByTestId('rank-Basic')).getByText('Next')).toBeInTheDocument();
  });

  it("toasts 'Failed to load ranks' when the list fails", async () => {
    renderSignedIn('/dashboard/rankrewards', {
      'rank.view_all_ranks': () => {
        throw new MockFailure('', 500);
      },
      'rank.current_rank': () => ({ Success: { Rank: 'Basic' } }),
    });
    expect((await screen.findAllByText('Failed to load ranks')).length).toBeGreaterThan(0);
    expect(screen.queryByTestId(/^rank-/)).not.toBeInTheDocument();
  });
});

describe('Ranks & Rewards without a signed-in member', () => {
  it("reads 'Please log in to view rank data' and makes no call", async () => {
    // Rendered outside the dashboard guard, as the page would be with no session user.
    const calls: { path: string; input: unknown }[] = [];
    const routes = [
      {
        element: (
          <AuthProvider>
            <Outlet />
          </AuthProvider>
        ),
        children: [{ path: '/ranks', element: <RankRewardsPage /> }],
      },
    ];
    const router = createMemoryRouter(routes, { initialEntries: ['/ranks'] });
    render(
      <TestProviders config={testConfig} trpcClient={createMockClient({}, calls)}>
        <RouterProvider router={router} />
      </TestProviders>,
    );
    expect(await screen.findByText(MSG.loginToViewRanks)).toBeInTheDocument();
    expect(calls.filter((call) => call.path.startsWith('rank.'))).toEqual([]);
  });
});
