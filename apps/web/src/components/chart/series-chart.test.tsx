/**
 * The charts: what screen readers and the table say matches the data, the 30/90 switch,
 * and the fallback that sums the earning history when the server has no `daily_series`.
 * The plot itself (uPlot on a canvas, which jsdom lacks) is a stub here; the browser tests draw it.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { TestProviders } from '@/testing/providers.tsx';
import { createMockClient, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { EarningsChart } from './earnings-chart.tsx';
import {
  axisTop,
  daysUntil,
  fillDays,
  isoDay,
  seriesColour,
  sumEarningRows,
  sumVolumeRows,
  weekly,
  EARNING_KEYS,
} from './series.ts';
import { FALLBACK_PAGES } from './use-series.ts';

vi.mock('./stacked-bars.tsx', () => ({
  default: ({ label, points }: { label: string; points: unknown[] }) => (
    <div role="img" aria-label={label} data-testid="chart-plot" data-points={points.length} />
  ),
}));

function renderChart(capabilities: string[], handlers: MockHandlers) {
  const calls: { path: string; input: unknown }[] = [];
  const router = createMemoryRouter([{ path: '/', element: <EarningsChart /> }], { initialEntries: ['/'] });
  render(
    <TestProviders config={{ ...testConfig, capabilities }} trpcClient={createMockClient(handlers, calls)}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { calls };
}

const DAYS = [
  { Date: '2026-03-02', ROI: 10, Direct: 5, Level: 0, Binary: 0, Rank: 0 },
  { Date: '2026-03-09', ROI: 12.5, Direct: 0, Level: 1.25, Binary: 20, Rank: 0 },
  { Date: '2026-03-10', ROI: 12.5, Direct: 0, Level: 0, Binary: 0, Rank: 100 },
];

describe('series helpers', () => {
  it('fills every day of the range and groups 90 days into 13 weeks ending today', () => {
    const range = daysUntil('2026-03-10', 90);
    expect(range).toHaveLength(90);
    expect(range[0]).toBe('2025-12-11');
    expect(range[89]).toBe('2026-03-10');
    const points = fillDays(
      range,
      EARNING_KEYS,
      new Map<string, Record<string, number>>([
        ['2026-03-10', { ROI: 1, Rank: 2 }],
        ['2020-01-01', { ROI: 99 }],
      ]),
    );
    expect(points.reduce((sum, p) => sum + p.values.ROI!, 0)).toBe(1);
    const weeks = weekly(points);
    expect(weeks).toHaveLength(13);
    expect(weeks.at(-1)).toMatchObject({
      date: '2026-03-04',
      until: '2026-03-10',
      values: { ROI: 1, Rank: 2, Direct: 0 },
    });
    // The first week is the short one: 90 = 12 × 7 + 6.
    expect(weeks[0]).toMatchObject({ date: '2025-12-11', until: '2025-12-16' });
  });

  it('sums the income rows of the earning history per day and type, to the cent, and skips the rest', () => {
    const sums = sumEarningRows([
      { DateTime: '2026-03-09T10:00:00.000Z', Type: 'ROI', Amount: 0.1 },
      { DateTime: '2026-03-09T11:00:00.000Z', Type: 'ROI', Amount: 0.2 },
      { DateTime: '2026-03-09T12:00:00.000Z', Type: 'Binary Income', Amount: 3 },
      { DateTime: '2026-03-09T12:00:00.000Z', Type: 'Deposit', Amount: 500 },
      { DateTime: '2026-03-10T00:00:01.000Z', Type: 'Rank Reward', Amount: 50 },
      { DateTime: 'garbage', Type: 'ROI', Amount: 1 },
    ]);
    expect(Object.fromEntries(sums)).toEqual({
      '2026-03-09': { ROI: 0.3, Binary: 3 },
      '2026-03-10': { Rank: 50 },
    });
  });
});

describe('the plot', () => {
  it('leaves headroom above the highest bar, its top line a round figure', () => {
    expect(axisTop(112.5)).toBe(200);
    expect(axisTop(100)).toBe(200);
    expect(axisTop(90)).toBe(100);
    expect(axisTop(1100)).toBe(2000);
    expect(axisTop(2200)).toBe(2500);
    expect(axisTop(0.4)).toBe(0.5);
    expect(axisTop(0)).toBe(1);
    for (const max of [1, 3.3, 47, 999, 12_345]) expect(axisTop(max)).toBeGreaterThanOrEqual(max * 1.1);
  });
  it('draws each series a lighter step in the dark theme, where the solid sits dim', () => {
    expect(seriesColour('blue')).toBe('blue.solid');
    expect(seriesColour('blue', true)).toBe('blue.400');
  });
});

describe('Earnings over time', () => {
  it('with daily_series: one call per range; the summary and the table say what the server answered; 90 days read as weeks', async () => {
    const user = userEvent.setup();
    const { calls } = renderChart(['daily_series'], {
      'earning.view_daily_earnings': (input) => ({
        Success: {
          From: 'x',
          To: '2026-03-10',
          Days:
            input.days === 30
              ? DAYS
              : [...DAYS, { Date: '2026-01-01', ROI: 7, Direct: 0, Level: 0, Binary: 0, Rank: 0 }],
        },
      }),
    });
    const summary = await screen.findByTestId('chart-summary');
    // 10 + 5 + 12.5 + 1.25 + 20 + 12.5 + 100 = 161.25; the best day is Mar 10 (112.50).
    expect(summary).toHaveTextContent(
      'Earnings over time: $161.25 earned in the last 30 days (ROI $35.00, Direct $5.00, Level $1.25, Binary $20.00, Rank $100.00); the highest day was Mar 10, 2026 with $112.50.',
    );
    expect(await screen.findByTestId('chart-plot')).toHaveAttribute('data-points', '30');
    expect(screen.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Show as table' }));
    const table = screen.getByTestId('chart-table');
    const rows = within(table).getAllByRole('row');
    // Header and 30 days, newest first.
    expect(rows).toHaveLength(31);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'ROI', 'Direct', 'Level', 'Binary', 'Rank', 'Total']);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['Mar 10, 2026', '$12.50', '$0.00', '$0.00', '$0.00', '$100.00', '$112.50']);
    expect(
      within(rows[2]!)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['Mar 09, 2026', '$12.50', '$0.00', '$1.25', '$20.00', '$0.00', '$33.75']);
    expect(screen.queryByTestId('chart-plot')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '90 days' }));
    await waitFor(() =>
      expect(screen.getByTestId('chart-summary')).toHaveTextContent('$168.25 earned in the last 90 days'),
    );
    expect(screen.getByTestId('chart-summary')).toHaveTextContent(
      'the highest week was Mar 04 – Mar 10, 2026 with $146.25',
    );
    expect(within(screen.getByTestId('chart-table')).getAllByRole('row')).toHaveLength(14);
    expect(
      calls
        .filter((c) => c.path === 'earning.view_daily_earnings')
        .map((c) => (c.input as { days: number }).days),
    ).toEqual([30, 90]);
    // The history is not paged when the server sums it.
    expect(calls.some((c) => c.path === 'earning.view_all_earning_history')).toBe(false);
  });

  it('says so, with no chart, when the range holds no earning', async () => {
    renderChart(['daily_series'], {
      'earning.view_daily_earnings': () => ({ Success: { From: 'x', To: '2026-03-10', Days: [] } }),
    });
    expect(await screen.findByTestId('chart-empty')).toHaveTextContent('No earnings in the last 30 days');
    expect(screen.queryByTestId('chart-plot')).not.toBeInTheDocument();
  });

  it('without daily_series (the provider): sums the earning history over the range from its pages', async () => {
    const today = isoDay(Date.now());
    const yesterday = isoDay(Date.now() - 86_400_000);
    const { calls } = renderChart([], {
      'earning.view_all_earning_history': (input) =>
        input.pageNo === 1
          ? {
              Success: [
                { DateTime: `${today}T09:00:00.000Z`, Type: 'ROI', Amount: 2.5, TransID: 'a' },
                { DateTime: `${today}T10:00:00.000Z`, Type: 'Direct Income', Amount: 10, TransID: 'b' },
                { DateTime: `${yesterday}T10:00:00.000Z`, Type: 'Level Income', Amount: 1, TransID: 'c' },
                {
                  DateTime: `${yesterday}T11:00:00.000Z`,
                  Type: 'Withdrawal Request',
                  Amount: 50,
                  TransID: 'd',
                },
              ],
            }
          : { Success: [] },
    });
    expect(await screen.findByTestId('chart-summary')).toHaveTextContent(
      '$13.50 earned in the last 30 days (ROI $2.50, Direct $10.00, Level $1.00)',
    );
    const asked = calls.filter((c) => c.path === 'earning.view_all_earning_history');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.input).toMatchObject({
      pageNo: 1,
      pageSize: 100,
      end_date: today,
      start_date: daysUntil(today, 30)[0],
    });
    expect(calls.some((c) => c.path === 'earning.view_daily_earnings')).toBe(false);
    expect(screen.queryByTestId('chart-cut')).not.toBeInTheDocument();
  });

  it(`without daily_series stops after ${FALLBACK_PAGES} full pages and says the range was cut`, async () => {
    const today = isoDay(Date.now());
    const { calls } = renderChart([], {
      'earning.view_all_earning_history': (input) => ({
        Success: Array.from({ length: 100 }, (_, i) => ({
          DateTime: `${today}T09:00:00.000Z`,
          Type: 'ROI',
          Amount: 1,
          TransID: `${String(input.pageNo)}-${i}`,
        })),
      }),
    });
    expect(await screen.findByTestId('chart-cut')).toHaveTextContent(
      `Only the latest ${FALLBACK_PAGES * 100} records of the range were read`,
    );
    expect(calls.filter((c) => c.path === 'earning.view_all_earning_history')).toHaveLength(FALLBACK_PAGES);
    expect(screen.getByTestId('chart-summary')).toHaveTextContent(
      `$${(FALLBACK_PAGES * 100).toLocaleString('en-US')}.00 earned`,
    );
  });
});

describe('leg volumes from binary-volume rows', () => {
  it("sums per day and leg, reading a drifted side 'L' as the left leg like the tree does", () => {
    const sums = sumVolumeRows([
      { DateTime: '2026-11-20 11:00:00', Side: '0', Volume: 100 },
      { DateTime: '2026-11-20 11:00:00', Side: 'L', Volume: '50' },
      { DateTime: '2026-11-20 11:00:00', Side: '1', Volume: 30 },
    ]);
    expect(sums.get('2026-11-20')).toEqual({ Left: 150, Right: 30 });
  });
});
