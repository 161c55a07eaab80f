/**
 * Layout of every screen (screens.ts: every route, every tab, one dialog of each kind) at 375, 768
 * and 1280 px wide, in mock mode: the page never scrolls sideways, and no visible element crosses
 * the viewport's left or right edge unless a box that scrolls (or clips) sideways holds it, like a
 * wide table in its own scroll area.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { layoutProblems, SCREENS, server, settle, sharedPage, signedOutFor, visit } from './screens.ts';

describe('layout of every route', () => {
  describe.each([375, 768, 1280])('layout at %i px', (width) => {
    let page!: Page;
    sharedPage({ width, theme: 'light' }, (shared) => (page = shared));
    const screens = SCREENS.filter((s) => !s.widths || s.widths.includes(width));
    it.each(screens.map((s) => [s.name, s]))('%s: no sideways scroll, nothing cut off', async (_, screen) => {
      const problems = await signedOutFor(page, screen, () =>
        visit(page, screen, (label) => layoutProblems(page, label)),
      );
      expect(problems).toEqual([]);
    });

    // Wide tables scroll in their own box; on a desktop screen the transactions table fits whole.
    // Registered at 1280 px only (runIf would report skipped tests at the other widths).
    if (width === 1280)
      it('the transactions table fits without scrolling sideways', async () => {
        await page.goto(`${server.url}/dashboard/transactions`);
        await settle(page);
        const box = page.getByTestId('data-table').locator('..');
        expect(await box.evaluate((el) => getComputedStyle(el).overflowX)).toBe('auto');
        expect(await box.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      });
  });
});
