/**
 * No white page on a phone's connection (375 px): a lazy chunk that fails to load shows a message
 * with Retry and Reload at the same address (the Chakra root's own failure drawn without Chakra),
 * and Retry works once the chunk can be fetched; a 2 s offline blip leaves a half-filled P2P form as
 * typed; during a server outage Wallets and the other pages with balances keep their figures marked
 * "as of HH:mm" with one toast for the cause, in both client modes.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freshPagePerTest, signInWithToken } from './support.ts';

const PASSWORD = 'Demo@1234';
const PHONE = { width: 375, height: 812 };
const servers = inject('e2eServers');
const mock = servers.find((server) => server.mode === 'mock')!;

/** Goes to `path` inside the app, as a link would: no page load, the router reads the new address. */
const navigateInApp = (page: Page, path: string) =>
  page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);

const errorToasts = (page: Page) =>
  page.locator('[data-scope="toast"][data-part="root"][data-type="error"]').allInnerTexts();

describe('a lazy chunk that fails to load', () => {
  let page!: Page;
  freshPagePerTest(mock, PHONE, (fresh) => (page = fresh));

  it('shows Retry and Reload at the same address, and Retry loads the screen once the chunk can be fetched', async () => {
    await signInWithToken(page, mock, 'demo', PASSWORD);

    // The Chakra root itself (its runtime and the app's system, one chunk), under a page drawn with it:
    // the message is drawn with the first screen's classes, inside the frame (drawn without Chakra).
    const chakraRoot = /\/assets\/chakra-[^/]*\.js$/;
    let chakraTries = 0;
    await page.route(chakraRoot, (route) => {
      chakraTries++;
      return route.abort('connectionrefused');
    });
    await page.goto(`${mock.url}/dashboard/wallets`);
    const message = page.getByTestId('chunk-error');
    await message.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('This screen could not be loaded');
    expect(chakraTries).toBeGreaterThanOrEqual(3);
    expect(await page.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Logout' }).count()).toBeGreaterThan(0);
    await page.unroute(chakraRoot);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('wallet-card-Deposit').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/wallets');

    // A page's chunk, reached from inside the app: the dashboard's frame stays around the message.
    const bonusChunk = /\/assets\/bonus-page-[^/]*\.js$/;
    await page.route(bonusChunk, (route) => route.abort('internetdisconnected'));
    await navigateInApp(page, '/dashboard/bonus');
    await message.waitFor();
    expect(await page.getByRole('button', { name: 'Logout' }).count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/dashboard/bonus');
    await page.unroute(bonusChunk);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('tab', { name: 'Rank Bonus' }).waitFor();
    expect(await message.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/dashboard/bonus');
  });
});

describe('an offline blip', () => {
  let page!: Page;
  freshPagePerTest(mock, PHONE, (fresh) => (page = fresh));

  it('leaves a half-filled P2P form as typed, hidden under the offline screen meanwhile', async () => {
    await signInWithToken(page, mock, 'demo', PASSWORD);
    await page.goto(`${mock.url}/dashboard/p2pTransfer`);
    const recipient = page.getByRole('textbox', { name: 'Recipient username' });
    await recipient.fill('gonzalo_001');
    await page.getByRole('button', { name: 'Verify' }).click();
    const amount = page.getByRole('spinbutton', { name: 'Amount' });
    await expect.poll(() => amount.isEnabled()).toBe(true);
    await amount.fill('1.5');

    await page.context().setOffline(true);
    await page.getByTestId('offline-screen').waitFor();
    // Nothing the page held is shown while offline.
    expect(await recipient.isVisible()).toBe(false);
    await page.waitForTimeout(2_000);
    await page.context().setOffline(false);
    await expect.poll(() => recipient.isVisible()).toBe(true);
    expect(await page.getByTestId('offline-screen').count()).toBe(0);
    expect(await recipient.inputValue()).toBe('gonzalo_001');
    expect(await amount.inputValue()).toBe('1.5');
  });
});

describe.each(servers)('Wallets while the server cannot be reached, $mode mode', (server) => {
  let page!: Page;
  freshPagePerTest(server, PHONE, (fresh) => (page = fresh));

  it('keeps the balances marked "as of HH:mm" with one toast for the cause, and Retry brings them back as current; the home, package, P2P and bonus pages mark theirs', async () => {
    await signInWithToken(page, server, 'demo', PASSWORD);
    await page.goto(`${server.url}/dashboard/wallets`);
    const deposit = page.getByTestId('wallet-available-Deposit');
    await expect.poll(() => deposit.innerText()).toMatch(/^\$[\d,]+\.\d\d$/);
    const shown = await deposit.innerText();

    // The server goes away: every call is refused. Reconnecting the phone fetches the page's reads again.
    await page.route('**/*', (route) =>
      route.request().resourceType() === 'fetch' ? route.abort('connectionrefused') : route.fallback(),
    );
    await page.context().setOffline(true);
    await page.getByTestId('offline-screen').waitFor();
    await page.context().setOffline(false);

    const asOf = page.getByTestId('as-of').first();
    await asOf.waitFor();
    expect(await asOf.innerText()).toMatch(/^as of \d\d:\d\d$/);
    expect(await deposit.innerText()).toBe(shown);
    expect(await page.getByTestId('wallets-not-current').innerText()).toContain('latest refresh failed');
    await expect
      .poll(async () => (await errorToasts(page)).join('\n'))
      .toContain('The server cannot be reached');
    // The page's reads (wallets, swap sources and destinations) failed together: one toast says so.
    await page.waitForTimeout(1_000);
    expect(await errorToasts(page)).toHaveLength(1);

    await page.unroute('**/*');
    await page.getByRole('button', { name: 'Retry: Wallet balances' }).click();
    await expect.poll(() => page.getByTestId('as-of').count()).toBe(0);
    expect(await page.getByTestId('wallets-not-current').count()).toBe(0);

    // Elsewhere in the app the same balances say so: the home's wallet cards, the package page's balance.
    const goTo = (path: string) =>
      page.evaluate((to) => {
        history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
    await goTo('/dashboard');
    const overview = page.getByRole('region', { name: 'Wallets Overview' });
    await expect.poll(() => overview.innerText()).toContain(shown);
    await page.waitForLoadState('networkidle');
    await page.route('**/*', (route) =>
      route.request().resourceType() === 'fetch' ? route.abort('connectionrefused') : route.fallback(),
    );
    await page.context().setOffline(true);
    await page.getByTestId('offline-screen').waitFor();
    await page.context().setOffline(false);
    await expect
      .poll(() => overview.getByTestId('as-of').first().innerText())
      .toMatch(/^Available as of \d\d:\d\d$/);
    await goTo('/dashboard/package');
    await expect.poll(() => page.getByTestId('package-balance').innerText()).toMatch(/as of \d\d:\d\d/);
    await goTo('/dashboard/p2pTransfer');
    await expect.poll(() => page.getByTestId('p2p-available').innerText()).toMatch(/as of \d\d:\d\d/);
    await goTo('/dashboard/bonus');
    await page.getByRole('tab', { name: 'Wallet' }).click();
    await expect
      .poll(() => page.locator('[aria-label="Reward wallets"]').getByTestId('as-of').count())
      .toBeGreaterThan(0);
  });
});
