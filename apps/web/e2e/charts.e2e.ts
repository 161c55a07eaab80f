/**
 * The earnings and leg-volume charts in the browser, in both client modes (mock: the daily_series and
 * rank_progress extensions; provider: the client sums the history it pages and reads the rank
 * volume table): the earnings chart on the home and Bonus, the legs' volumes on Volume, drawn on a
 * canvas, read by keyboard and as a table; the next rank's meters and the ACTIVE packages' cap meters.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatDay } from '@md/shared';
import { api, freshPagePerTest, signIn } from './support.ts';
import { openRoute } from './screens.ts';

const servers = inject('e2eServers');

describe.each(servers)('charts and meters in $mode mode', (server) => {
  let page!: Page;
  freshPagePerTest(server, { width: 1280, height: 900 }, (fresh) => (page = fresh));
  /** Provider mode: the page is told no provider offers the extensions (whatever the gateway advertises), so the fallbacks run. */
  const extensions = server.mode === 'mock';
  async function openAs() {
    if (!extensions) {
      await page.route('**/config.json', async (route) => {
        const response = await route.fetch();
        const config = (await response.json()) as { capabilities: string[] };
        await route.fulfill({
          response,
          json: {
            ...config,
            capabilities: config.capabilities.filter(
              (name) => name !== 'daily_series' && name !== 'rank_progress',
            ),
          },
        });
      });
    }
    await signIn(page, server, 'demo', 'Demo@1234');
  }

  /** The home loads its charts and meters when they come near the viewport: scroll to where they go. */
  async function scrollToHomeInsights() {
    const anchor = page.getByTestId('home-insights-anchor');
    await anchor.waitFor({ state: 'attached' });
    await anchor.evaluate((element) => element.scrollIntoView());
  }

  /** The chart titled `title`: drawn (a canvas), with its summary. */
  async function drawnChart(title: string) {
    const chart = page.locator('[data-testid="series-chart"]', {
      has: page.getByRole('heading', { name: title }),
    });
    await chart.locator('[data-testid="chart-plot"] canvas').first().waitFor({ timeout: 30_000 });
    return chart;
  }

  it('draws earnings over time on Bonus and the home: summary, keyboard readout, 30/90 switch and the table agree', async () => {
    await openAs();
    await openRoute(page, '/dashboard/bonus', server.url);
    const chart = await drawnChart('Earnings over time');
    const summary = chart.getByTestId('chart-summary');
    expect(await summary.innerText()).toMatch(
      /^Earnings over time: \$[\d,]+\.\d\d earned in the last 30 days \(/,
    );

    // Keyboard: focus the plot, Left and Right move between the days; the readout names each.
    const plot = chart.getByTestId('chart-plot');
    await plot.focus();
    const readout = chart.getByTestId('chart-readout');
    const clientToday = formatDay(new Date().toISOString().slice(0, 10));
    // The newest bar first: today in the server's range (mock) or the browser's (provider).
    // Days as the app writes them: "Nov 27, 2026".
    await expect.poll(() => readout.innerText()).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4}: \$/);
    const newest = (await readout.innerText()).split(':')[0]!;
    if (!extensions) expect(newest).toBe(clientToday);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => readout.innerText()).not.toMatch(new RegExp(`^${newest}:`));
    await page.keyboard.press('Home');
    const first = (await readout.innerText()).split(':')[0]!;

    // The table says the same figures: its oldest row is the bar Home reached.
    await chart.getByRole('button', { name: 'Show as table' }).click();
    const rows = chart.getByTestId('chart-table').locator('tbody tr');
    expect(await rows.count()).toBe(30);
    expect(await rows.last().locator('td').first().innerText()).toBe(first);
    const totals = (await rows.locator('td:last-child').allInnerTexts()).map((cell) =>
      Number(cell.replace(/[$,]/g, '')),
    );
    const summaryTotal = Number(
      (await summary.innerText()).match(/\$([\d,]+\.\d\d) earned/)![1]!.replace(/,/g, ''),
    );
    expect(Math.round(totals.reduce((a, b) => a + b, 0) * 100) / 100).toBeCloseTo(summaryTotal, 2);
    expect(summaryTotal).toBeGreaterThan(0);

    // 90 days by keyboard: weeks.
    await chart.getByRole('button', { name: '90 days' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => summary.innerText()).toContain('in the last 90 days');
    expect(await chart.getByRole('button', { name: '90 days' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => rows.count()).toBe(13);

    if (extensions) {
      // The extension's sums are what the chart shows.
      const token = await page.evaluate(() => localStorage.getItem('jwt') ?? '');
      const served = await api<{ Success: { Days: Record<string, number>[] } }>(
        server,
        '/earning/view_daily_earnings',
        { days: 90 },
        token,
      );
      const total = served.Success.Days.reduce(
        (sum, d) => sum + d.ROI! + d.Direct! + d.Level! + d.Binary! + d.Rank!,
        0,
      );
      const shown = Number(
        (await summary.innerText()).match(/\$([\d,]+\.\d\d) earned/)![1]!.replace(/,/g, ''),
      );
      expect(shown).toBeCloseTo(Math.trunc(total * 100) / 100, 1);
    }

    // The home draws it too, last on the page, once the member scrolls near it.
    await openRoute(page, '/dashboard', server.url);
    await scrollToHomeInsights();
    await drawnChart('Earnings over time');
  });

  it("draws the legs' volumes on Volume and shows the meters: next rank on Ranks & Rewards and the home, the cap of each ACTIVE package", async () => {
    await openAs();
    await openRoute(page, '/dashboard/volume', server.url);
    const volume = page.locator('[data-testid="series-chart"]', {
      has: page.getByRole('heading', { name: 'Leg volumes over time' }),
    });
    await volume.waitFor();
    // demo's legs took volume in the last 90 days (the seed's purchases).
    await volume.getByRole('button', { name: '90 days' }).click();
    await volume.locator('[data-testid="chart-plot"] canvas').first().waitFor({ timeout: 30_000 });
    const summary = await volume.getByTestId('chart-summary').innerText();
    // The chart agrees with the Binary Volume table: each leg's sum is the rows' Volume on that Side
    // over the range, which is what the rows' own Left Volume and Right Volume columns add up to.
    const leg = (label: string) =>
      Number(summary.match(new RegExp(`${label} \\$([\\d,]+\\.\\d\\d)`))![1]!.replace(/,/g, ''));
    const token = await page.evaluate(() => localStorage.getItem('jwt') ?? '');
    const today = extensions
      ? (await api<{ Success: { To: string } }>(server, '/binary/view_daily_volume', { days: 90 }, token))
          .Success.To
      : new Date().toISOString().slice(0, 10);
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 89 * 86_400_000).toISOString().slice(0, 10);
    type Row = { Side: string; Volume: number; Left_Volume: number; Right_Volume: number };
    const rows: Row[] = [];
    for (let pageNo = 1; pageNo <= 10; pageNo++) {
      const page = (
        await api<{ Success: Row[] }>(
          server,
          '/binary/view_binary_transaction',
          { pageNo, pageSize: 100, start_date: from, end_date: today },
          token,
        )
      ).Success;
      rows.push(...page);
      if (page.length < 100) break;
    }
    const sum = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100;
    expect(leg('Left leg')).toBeGreaterThan(0);
    expect(leg('Right leg')).toBeGreaterThan(0);
    expect(leg('Left leg')).toBe(sum(rows.map((row) => row.Left_Volume)));
    expect(leg('Right leg')).toBe(sum(rows.map((row) => row.Right_Volume)));
    expect(leg('Left leg')).toBe(sum(rows.filter((row) => row.Side === '0').map((row) => row.Volume)));

    await openRoute(page, '/dashboard/rankrewards', server.url);
    const left = page.getByRole('progressbar', { name: 'Left volume' });
    await left.waitFor();
    expect(await left.getAttribute('aria-valuetext')).toMatch(/^\$[\d,]+\.\d\d of \$[\d,]+\.\d\d \(\d+%\)$/);
    expect(await page.getByRole('progressbar', { name: 'Right volume' }).count()).toBe(1);
    // Leaders are counted only where the server offers rank_progress (the provider does not).
    expect(await page.getByRole('progressbar', { name: 'Qualified leaders' }).count()).toBe(
      extensions ? 1 : 0,
    );

    await openRoute(page, '/dashboard', server.url);
    await scrollToHomeInsights();
    await page.getByTestId('next-rank-progress').getByRole('progressbar', { name: 'Left volume' }).waitFor();

    await openRoute(page, '/dashboard/package', server.url);
    const meter = page.getByRole('progressbar', { name: 'Earned of the 3x cap' }).first();
    await meter.waitFor();
    expect(await meter.getAttribute('aria-valuetext')).toMatch(/^\$[\d,]+\.\d\d of \$[\d,]+\.\d\d \(\d+%\)$/);
  });
});
