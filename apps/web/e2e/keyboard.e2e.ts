/**
 * Keyboard only, in mock mode: the sidebar and the phone menu, a paged table, a dialog
 * and the two trees are used with Tab, Enter, Escape and the arrow keys, and focus stays visible
 * and goes where it should.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { freshPagePerTest, signInWithToken } from './support.ts';

const server = inject('e2eServers').find((s) => s.mode === 'mock')!;

/** Presses Tab until `target` has focus (at most `limit` times); fails naming where focus went. */
async function tabTo(page: Page, target: Locator, limit = 40, key = 'Tab') {
  const visited: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(key);
    if (await target.evaluate((el) => el === document.activeElement)) return;
    visited.push(
      await page.evaluate(() => {
        const el = document.activeElement;
        return el
          ? `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`
          : 'none';
      }),
    );
  }
  throw new Error(`${limit} × ${key} never reached the target; focus went to: ${visited.join(', ')}`);
}

/**
 * A focus indicator is drawn: an outline of some width or a box-shadow ring, on the focused
 * element or on a box up to four levels around it (a package card outlines itself when its
 * toggle, the package name, has focus).
 */
const focusIsVisible = (page: Page) =>
  page.evaluate(() => {
    const focused = document.activeElement;
    if (!focused || focused === document.body) return false;
    const ring = (el: Element) => {
      const style = getComputedStyle(el);
      return (
        (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none'
      );
    };
    let el: Element | null = focused;
    for (let depth = 0; el && depth < 5; depth++, el = el.parentElement) if (ring(el)) return true;
    return false;
  });

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);
const focusInside = (locator: Locator) => locator.evaluate((el) => el.contains(document.activeElement));

async function open(page: Page, path: string) {
  await signInWithToken(page, server, 'demo', 'Demo@1234');
  await page.goto(`${server.url}${path}`);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
}

describe('keyboard on a desktop', () => {
  let page!: Page;
  freshPagePerTest(server, { width: 1280, height: 900 }, (fresh) => (page = fresh));

  it('moves through the sidebar with Tab, shows where focus is, and Enter opens the page', async () => {
    await open(page, '/dashboard');
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    const wallets = sidebar.getByRole('link', { name: 'Wallets' });
    await tabTo(page, sidebar.getByRole('link', { name: 'Dashboard' }));
    expect(await focusIsVisible(page)).toBe(true);
    await tabTo(page, wallets, 3);
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/dashboard/wallets`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Wallets');
    expect(await wallets.getAttribute('aria-current')).toBe('page');
  });

  it('pages a table from the keyboard: focus reaches the paging controls and Enter turns the page', async () => {
    await open(page, '/dashboard/volume');
    const pager = page.getByRole('navigation', { name: 'Pagination' });
    const indicator = page.getByTestId('page-indicator');
    await expect.poll(() => indicator.innerText()).toMatch(/^1 \/ [2-9]\d*$/);
    // The sort buttons in the column headers are on the way.
    await tabTo(page, page.getByRole('columnheader', { name: /Date/ }).getByRole('button'), 60);
    expect(await focusIsVisible(page)).toBe(true);
    await tabTo(page, pager.getByRole('button', { name: 'Next page' }), 40);
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => indicator.innerText()).toMatch(/^2 \//);
    // Previous page sits before it: Shift+Tab, Enter.
    await tabTo(page, pager.getByRole('button', { name: 'Previous page' }), 3, 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => indicator.innerText()).toMatch(/^1 \//);
    // The page jump takes a number and Enter.
    await tabTo(page, pager.getByLabel('Go to page'), 4);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    await expect.poll(() => indicator.innerText()).toMatch(/^2 \//);
  });

  it('opens the purchase dialog from the keyboard, keeps focus in it, and Escape closes it back to the opener', async () => {
    await open(page, '/dashboard/package');
    const starter = page.getByTestId('package-card-Starter').getByRole('button', { name: 'Starter' });
    await tabTo(page, starter);
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await starter.getAttribute('aria-pressed')).toBe('true');
    const select = page.getByRole('button', { name: 'Select Starter' });
    await tabTo(page, select);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect.poll(() => focusInside(dialog)).toBe(true);
    // Focus is trapped: twenty Tabs and Shift+Tabs never leave the dialog.
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let i = 0; i < 10; i++) {
        await page.keyboard.press(key);
        expect(await focusInside(dialog)).toBe(true);
      }
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(select)).toBe(true);
  });

  it('walks the level tree with the arrow keys: Right opens a member, Left closes it, Enter toggles', async () => {
    await open(page, '/dashboard/levelchart');
    const tree = page.getByRole('tree', { name: 'Level tree' });
    const rows = tree.getByRole('treeitem');
    await rows.first().waitFor();
    // One tab stop for the whole tree: the first row.
    await tabTo(page, rows.first());
    expect(await focusIsVisible(page)).toBe(true);
    // The root is open; Down reaches the first member under it.
    await page.keyboard.press('ArrowDown');
    const member = tree.locator('[role="treeitem"][aria-level="2"]').first();
    await expect.poll(() => isFocused(member)).toBe(true);
    const name = (await member.getAttribute('data-name'))!;
    const row = tree.locator(`[role="treeitem"][data-name="${name}"]`);
    expect(await row.getAttribute('aria-expanded')).toBe('false');
    const below = tree.locator('[role="treeitem"][aria-level="3"]');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => row.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => below.count()).toBeGreaterThan(0);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => row.getAttribute('aria-expanded')).toBe('false');
    expect(await below.count()).toBe(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => row.getAttribute('aria-expanded')).toBe('true');
    // Down now enters the opened member's downline.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => isFocused(below.first())).toBe(true);
    await page.keyboard.press('Home');
    await expect.poll(() => isFocused(rows.first())).toBe(true);
  });

  it('walks the binary tree with the keyboard and shows the focused member’s details', async () => {
    await open(page, '/dashboard/binarychart');
    const tree = page.getByRole('tree', { name: 'Binary tree' });
    const rows = tree.getByRole('treeitem');
    await rows.first().waitFor();
    await tabTo(page, rows.first());
    await page.keyboard.press('ArrowDown');
    const leg = tree.locator('[role="treeitem"][aria-level="2"]').first();
    await expect.poll(() => isFocused(leg)).toBe(true);
    // Focus shows the member's details as hover does; Escape hides them.
    const details = page.getByTestId('node-details');
    await expect.poll(() => details.isVisible()).toBe(true);
    expect(await details.innerText()).toContain((await leg.getAttribute('data-name'))!);
    await page.keyboard.press('Escape');
    await expect.poll(() => details.count()).toBe(0);
    await page.keyboard.press(' ');
    await expect.poll(() => leg.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => tree.locator('[role="treeitem"][aria-level="3"]').count()).toBeGreaterThan(0);
  });
});

describe('keyboard on a phone', () => {
  let page!: Page;
  freshPagePerTest(server, { width: 375, height: 812 }, (fresh) => (page = fresh));

  it('opens the menu drawer with Enter, keeps focus in it, closes it with Escape back to the menu button, and navigates from it', async () => {
    await open(page, '/dashboard');
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await tabTo(page, menuButton);
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Member Dashboard' });
    await drawer.waitFor();
    await expect.poll(() => focusInside(drawer)).toBe(true);
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInside(drawer)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(menuButton)).toBe(true);

    await page.keyboard.press('Enter');
    await drawer.waitFor();
    const history = drawer.getByRole('link', { name: 'History' });
    await tabTo(page, history, 20);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/dashboard/history`);
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('History');
  });
});
