/**
 * Pages hold still while they load (the dashboard home, and the Bonus and Volume pages with a chart
 * above their tabs), in both client modes at 1280 and 375 px: the
 * browser's layout-shift entries (the Layout Instability API, what Lighthouse's CLS adds up),
 * recorded from the navigation until every section shows its figures, stay near zero. Sections that
 * appear or grow late above what is already on screen push it down; on a desktop that cost
 * Lighthouse 3 points (CLS 0.102).
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freshPagePerTest, signIn } from './support.ts';

const servers = inject('e2eServers');
const PASSWORD = 'Demo@1234';
/** A desktop's scrollbar takes room, and its appearing as the page grows narrows it; a phone's overlays it. */
const VIEWPORTS = [
  { width: 1280, height: 900, scrollbars: true },
  { width: 375, height: 812, scrollbars: false },
] as const;
/**
 * Near zero, far under Lighthouse's "good" 0.1. With the team glance inserted above the wallets once
 * its chunk arrived, then growing out of its skeleton, and the stat skeletons 4 px taller than the
 * figures, 1280 px measured 0.021 to 0.106 over runs in either mode, 375 px 0.009; with the wallets and
 * what follows them appended once the glance had its height, 0.003 at 1280 px (the scrollbar
 * appearing as the page grows past the window narrows it: every card moves sideways) and 0 at 375 px.
 */
const MAX_SHIFT = 0.01;

interface Shift {
  value: number;
  sources: string[];
}

/** From the next navigation on, the page keeps its layout-shift entries (not those after an input). */
const recordShifts = (page: Page) =>
  page.addInitScript(() => {
    const shifts: Shift[] = [];
    const keep = (entries: PerformanceEntryList) => {
      // LayoutShift is not in TypeScript's DOM library yet.
      for (const entry of entries as unknown as Array<{
        value: number;
        hadRecentInput: boolean;
        sources: Array<{ node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }>;
      }>) {
        if (entry.hadRecentInput) continue;
        shifts.push({
          value: entry.value,
          sources: entry.sources.map((source) => {
            const element = source.node instanceof Element ? source.node : source.node?.parentElement;
            const name = element?.getAttribute('aria-label') ?? element?.textContent?.slice(0, 40) ?? '?';
            const at = (rect: DOMRectReadOnly) => `${Math.round(rect.top)}+${Math.round(rect.height)}`;
            return `${element?.tagName.toLowerCase()} "${name}" ${at(source.previousRect)} -> ${at(source.currentRect)}`;
          }),
        });
      }
    };
    const observer = new PerformanceObserver((list) => keep(list.getEntries()));
    observer.observe({ type: 'layout-shift', buffered: true });
    Object.assign(window, {
      takeShifts: () => {
        keep(observer.takeRecords());
        return shifts;
      },
    });
  });

/** Every section of the home shows what it read: the figures, the team, the activity. */
async function homeLoaded(page: Page) {
  const home = page.getByTestId('dashboard-home');
  await home.getByText('Deposit Wallet', { exact: true }).waitFor();
  await page.getByTestId('team-numbers').waitFor();
  await page.getByTestId('run-carry').waitFor();
  await expect.poll(() => home.getByTestId('stat-skeleton').count()).toBe(0);
  await expect.poll(() => home.getByText('Loading...', { exact: true }).count()).toBe(0);
  await page.waitForLoadState('networkidle');
  // Two frames: a shift is reported with the frame that painted it.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))),
  );
}

/**
 * A page with a chart above its tabs (Bonus, Volume): the chart and the first table show what they
 * read. A chart growing out of a shorter skeleton pushed the tabs down as they were tapped.
 */
async function chartPageLoaded(page: Page) {
  const chart = page.getByTestId('series-chart');
  await chart.waitFor();
  await expect.poll(() => chart.locator('[aria-busy="true"]').count()).toBe(0);
  await expect.poll(() => page.getByText('Loading...', { exact: true }).count()).toBe(0);
  await page.waitForLoadState('networkidle');
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))),
  );
}

const PAGES = [
  { name: 'the dashboard home', path: '/dashboard', loaded: homeLoaded, user: 'demo' },
  { name: 'Bonus', path: '/dashboard/bonus', loaded: chartPageLoaded, user: 'demo' },
  { name: 'Volume', path: '/dashboard/volume', loaded: chartPageLoaded, user: 'demo' },
  // A member who has earned nothing yet: the chart's skeleton gives way to a sentence.
  {
    name: 'Bonus with no earnings',
    path: '/dashboard/bonus',
    loaded: async (page: Page) => {
      await chartPageLoaded(page);
      await page.getByTestId('chart-empty').waitFor();
    },
    user: 'allene_029',
  },
] as const;

describe.each(servers)('pages hold still while they load in $mode mode', (server) => {
  describe.each(VIEWPORTS)('at $width px', ({ scrollbars, ...viewport }) => {
    let page!: Page;
    freshPagePerTest(server, viewport, (fresh) => (page = fresh), { scrollbars });

    it.each(PAGES)(
      `$name: its layout shifts add up to less than ${MAX_SHIFT}`,
      async ({ name, path, loaded, user }) => {
        // As Lighthouse audits it: signed in through the form (the stored user is what the app
        // stores), then the page opened afresh with the session kept and the HTTP cache emptied.
        await signIn(page, server, user, PASSWORD);
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Network.clearBrowserCache');
        await recordShifts(page);
        await page.goto(`${server.url}${path}`);
        await loaded(page);
        const shifts = await page.evaluate(() =>
          (window as unknown as { takeShifts: () => Shift[] }).takeShifts(),
        );
        const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
        console.log(`${name} at ${viewport.width} px (${server.mode}): layout shift ${total.toFixed(4)}`);
        expect(total, JSON.stringify(shifts, null, 1)).toBeLessThan(MAX_SHIFT);
      },
    );
  });
});
