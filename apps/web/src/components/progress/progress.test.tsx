/**
 * Progress meters: toward the next rank on Ranks & Rewards and the home (with and without
 * the `rank_progress` capability), and per ACTIVE package toward its 3x cap; each an accessible
 * progressbar named by its label, its value read as the figures.
 */
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { TestProviders } from '@/testing/providers.tsx';
import { renderSignedIn } from '@/testing/member.ts';
import { createMockClient, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { NextRankProgress } from './rank-progress.tsx';

const rank = (Rank: string, left: number, right: number, leaders: number) => ({
  Rank,
  Reward: left / 10,
  Left_Volune: left,
  Right_Volume: right,
  Rank_Qualification_Requirement: { Qualified_Leaders: { Side_1: leaders } },
});
const RANKS = [rank('Starter', 0, 0, 0), rank('Bronze', 1000, 1000, 0), rank('Silver', 5000, 4000, 2)];

function renderMeters(capabilities: string[], handlers: MockHandlers) {
  const router = createMemoryRouter([{ path: '/', element: <NextRankProgress /> }], {
    initialEntries: ['/'],
  });
  render(
    <TestProviders
      config={{ ...testConfig, capabilities }}
      trpcClient={createMockClient({ 'rank.view_all_ranks': () => ({ Success: RANKS }), ...handlers })}
    >
      <RouterProvider router={router} />
    </TestProviders>,
  );
}

const meter = (name: string) => screen.getByRole('progressbar', { name });

describe('Progress to the next rank', () => {
  it('with rank_progress: left, right and leaders against the next rank, as progressbars with their figures', async () => {
    renderMeters(['rank_progress'], {
      'rank.current_rank': () => ({ Success: { Rank: 'Bronze' } }),
      'rank.view_rank_progress': () => ({
        Success: { Rank: 'Bronze', Left_Volume: 1250, Right_Volume: 4000, Qualified_Leaders: 1 },
      }),
    });
    expect(await screen.findByRole('heading', { name: 'Progress to Silver' })).toBeInTheDocument();
    expect(meter('Left volume')).toHaveAttribute('aria-valuenow', '25');
    expect(meter('Left volume')).toHaveAttribute('aria-valuetext', '$1,250.00 of $5,000.00 (25%)');
    expect(meter('Right volume')).toHaveAttribute('aria-valuetext', '$4,000.00 of $4,000.00 (100%)');
    expect(meter('Qualified leaders')).toHaveAttribute('aria-valuetext', '1 of 2 (50%)');
    const card = screen.getByTestId('next-rank-progress');
    expect(within(card).getByText('$1,250.00 of $5,000.00')).toBeInTheDocument();
  });

  it('without it (the provider): the legs from the newest Rank Volume row, the leaders requirement as text; over the requirement stays at 100%', async () => {
    renderMeters([], {
      'rank.current_rank': () => ({ Success: { Rank: 'Starter' } }),
      'rank.view_rank_qualification': () => ({
        Success: [{ Left_Total: 1500, Right_Total: 300, Side: '0', Volume: 10 }],
      }),
    });
    expect(await screen.findByRole('heading', { name: 'Progress to Bronze' })).toBeInTheDocument();
    expect(meter('Left volume')).toHaveAttribute('aria-valuenow', '100');
    expect(meter('Left volume')).toHaveAttribute('aria-valuetext', '$1,500.00 of $1,000.00 (100%)');
    expect(meter('Right volume')).toHaveAttribute('aria-valuetext', '$300.00 of $1,000.00 (30%)');
    expect(screen.queryByRole('progressbar', { name: 'Qualified leaders' })).not.toBeInTheDocument();
    expect(screen.getByTestId('next-rank-leaders')).toHaveTextContent(
      'No qualified leaders needed for Bronze.',
    );
  });

  it.each([
    {
      mode: 'with rank_progress',
      capabilities: ['rank_progress'],
      figures: {
        'rank.view_rank_progress': () => ({
          Success: { Rank: 'Starter', Left_Volume: 4500, Right_Volume: 4200, Qualified_Leaders: 64 },
        }),
      },
    },
    {
      mode: 'without it',
      capabilities: [],
      figures: {
        'rank.view_rank_qualification': () => ({ Success: [{ Left_Total: 4500, Right_Total: 4200 }] }),
      },
    },
  ])(
    '$mode: a Starter whose figures already meet Bronze is shown progress to the first rank not met, and that Bronze comes with the next rank run',
    async ({ capabilities, figures }) => {
      renderMeters(capabilities, {
        'rank.current_rank': () => ({ Success: { Rank: 'Starter' } }),
        ...figures,
      });
      expect(await screen.findByRole('heading', { name: 'Progress to Silver' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Progress to Bronze' })).not.toBeInTheDocument();
      expect(screen.getByTestId('next-rank-awaiting')).toHaveTextContent(
        'Your figures already meet Bronze: the rank and its reward come with the next daily rank run.',
      );
      expect(meter('Left volume')).toHaveAttribute('aria-valuetext', '$4,500.00 of $5,000.00 (90%)');
    },
  );

  it('a rank that asks no qualified leaders draws no leaders meter ("64 of 0" as a full bar)', async () => {
    renderMeters(['rank_progress'], {
      'rank.current_rank': () => ({ Success: { Rank: 'Starter' } }),
      'rank.view_rank_progress': () => ({
        Success: { Rank: 'Starter', Left_Volume: 10, Right_Volume: 0, Qualified_Leaders: 64 },
      }),
    });
    expect(await screen.findByRole('heading', { name: 'Progress to Bronze' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Qualified leaders' })).not.toBeInTheDocument();
    expect(screen.getByTestId('next-rank-leaders')).toHaveTextContent(
      'No qualified leaders needed for Bronze.',
    );
  });

  it('when the figures meet every rank above the current one, that is said instead of full bars', async () => {
    renderMeters(['rank_progress'], {
      'rank.current_rank': () => ({ Success: { Rank: 'Starter' } }),
      'rank.view_rank_progress': () => ({
        Success: { Rank: 'Starter', Left_Volume: 9000, Right_Volume: 9000, Qualified_Leaders: 3 },
      }),
    });
    expect(await screen.findByTestId('next-rank-awaiting')).toHaveTextContent(
      'Your figures already meet Silver',
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('at the top rank says so instead of meters', async () => {
    renderMeters(['rank_progress'], {
      'rank.current_rank': () => ({ Success: { Rank: 'Silver' } }),
      'rank.view_rank_progress': () => ({
        Success: { Rank: 'Silver', Left_Volume: 9000, Right_Volume: 9000, Qualified_Leaders: 3 },
      }),
    });
    expect(await screen.findByTestId('next-rank-top')).toHaveTextContent('You hold the top rank.');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });
});

const subscription = (over: Record<string, unknown>) => ({
  DateTime: '2026-03-01T10:00:00.000Z',
  TransID: 'S1',
  Name: 'Gold',
  Amount: 1000,
  ROI_Percentage: 1.5,
  Max_Earnings: 3000,
  Total_Earnings: 750,
  Wallet: 'Deposit',
  Status: 'ACTIVE',
  Reason: null,
  End_Date: null,
  ...over,
});

describe('ACTIVE packages on the package page', () => {
  it('one card per ACTIVE package: earned against its 3x cap, with the remaining amount', async () => {
    renderSignedIn(
      '/dashboard/package',
      {
        'subscription.subscription_transaction': () => ({
          Success: [
            subscription({}),
            subscription({ TransID: 'S2', Name: 'Basic', Max_Earnings: 750, Total_Earnings: 749.5 }),
          ],
        }),
        'table.view_subscription': () => ({ Success: [] }),
      },
      { package: 'Gold', Subscription: true },
    );
    const gold = await screen.findByTestId('active-package-S1');
    expect(within(gold).getByRole('heading', { name: 'Gold' })).toBeInTheDocument();
    expect(within(gold).getByRole('progressbar', { name: 'Earned of the 3x cap' })).toHaveAttribute(
      'aria-valuetext',
      '$750.00 of $3,000.00 (25%)',
    );
    expect(within(gold).getByText('Remaining Earnings $2,250.00')).toBeInTheDocument();
    expect(
      within(screen.getByTestId('active-package-S2')).getByText('Remaining Earnings $0.50'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Choose a package' })).not.toBeInTheDocument();
  });
});
