/**
 * The phone layout and the tables in a real browser: at 375 px the stat and wallet
 * cards stand two to a row, table cards show their summary with the rest a tap away and can be
 * sorted, and the floating QA button (mock mode) covers nothing once the page is scrolled to its
 * end; at 1280 px the package table shows an EXPIRED row's Reason once and whole, no sideways scroll.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freshPagePerTest, signInWithToken } from './support.ts';

const server = inject('e2eServers').find((s) => s.mode === 'mock')!;
const PASSWORD = 'Demo@1234';

async function open(page: Page, member: string, path: string) {
  await signInWithToken(page, server, member, PASSWORD);
  await page.goto(`${server.url}${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
}

/** Top edges (rounded) of the elements, in order. */
const tops = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().top)));

/** Scrolled to the end: does the QA button's box overlap any leaf of the page's main region? */
async function coveredByQaButton(page: Page): Promise<string[]> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.getByTestId('qa-panel-toggle').waitFor();
  return page.evaluate(() => {
    const button = document.querySelector('[data-testid="qa-panel-toggle"]')!.getBoundingClientRect();
    const main = document.querySelector('main')!;
    const leaves = [...main.querySelectorAll<HTMLElement>('*')].filter(
      (element) => element.children.length === 0 && element.getClientRects().length > 0,
    );
    return leaves
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return (
          box.width > 0 &&
          box.height > 0 &&
          box.left < button.right &&
          box.right > button.left &&
          box.top < button.bottom &&
          box.bottom > button.top
        );
      })
      .map(
        (element) => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 30)}"`,
      );
  });
}

describe('at 375 px', () => {
  let page!: Page;
  freshPagePerTest(server, { width: 375, height: 812 }, (fresh) => (page = fresh));

  it('home: overview, earnings and wallet cards two to a row; the QA button covers nothing at the end', async () => {
    await open(page, 'demo', '/dashboard');
    await page.getByText('Deposit Wallet', { exact: true }).waitFor();
    for (const region of ['Overview', 'Earnings Overview', 'Wallets Overview']) {
      const rows = await tops(page, `section[aria-label="${region}"] .fs-stat-card`);
      // Cards 1 and 2 share a row, card 3 starts the next one.
      expect(rows[0], region).toBe(rows[1]);
      expect(rows[2]!, region).toBeGreaterThan(rows[0]!);
    }
    console.log(
      `home at 375 px: ${await page.evaluate(() => document.documentElement.scrollHeight)} px tall`,
    );
    expect(await coveredByQaButton(page)).toEqual([]);
  });

  it('Volume: cards show their summary with the rest behind Show details, sort by a column, and the QA button covers nothing', async () => {
    await open(page, 'demo', '/dashboard/volume');
    const card = page.getByTestId('data-card').first();
    await card.waitFor();
    expect(await card.getByText('Left Carry').count()).toBe(0);
    await card.getByRole('button', { name: /Show details/ }).click();
    await card.getByText('Left Carry').waitFor();
    console.log(
      `Volume at 375 px: ${await page.evaluate(() => document.documentElement.scrollHeight)} px tall`,
    );

    const totals = () =>
      page
        .getByTestId('data-card')
        .evaluateAll((cards) =>
          cards.map((c) => Number(c.querySelectorAll('dd')[3]?.textContent?.replace(/[$,]/g, ''))),
        );
    await page.getByLabel('Sort by').selectOption({ label: 'Left Total' });
    const ascending = await totals();
    expect(ascending.length).toBeGreaterThan(1);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await page.getByRole('button', { name: 'Sort descending' }).click();
    const descending = await totals();
    expect(descending).toEqual([...ascending].reverse());

    expect(await coveredByQaButton(page)).toEqual([]);
  });
});

describe('at 1280 px', () => {
  let page!: Page;
  freshPagePerTest(server, { width: 1280, height: 900 }, (fresh) => (page = fresh));

  it("Package transactions: an EXPIRED row's Reason shows once, whole, and the table does not scroll sideways", async () => {
    // claude_003 has a package EXPIRED at the 3x cap (README, demo members).
    await open(page, 'claude_003', '/dashboard/transactions');
    const table = page.getByTestId('data-table');
    const expired = table.getByRole('row').filter({ hasText: 'EXPIRED' });
    await expired.waitFor();
    expect(await expired.getByText('Max earnings reached (3x)').count()).toBe(1);
    const fit = await table.evaluate((element) => {
      const area = element.parentElement!;
      const areaBox = area.getBoundingClientRect();
      const last = element.querySelector('tbody tr:last-child td:last-child')!.getBoundingClientRect();
      return {
        scrolls: area.scrollWidth > area.clientWidth,
        lastCellInside: last.right <= areaBox.right + 0.5,
      };
    });
    expect(fit).toEqual({ scrolls: false, lastCellInside: true });
  });
});
