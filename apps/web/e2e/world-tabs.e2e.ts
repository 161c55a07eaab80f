/**
 * A QA world per tab: two tabs of one browser enter two worlds through the doors and stay there
 * side by side (reloads, sign-ins, one world's clock moved, one tab leaving); every page shows the
 * world's badge; a shared enter link opens the world signed out in another browser, without an
 * error; a tab that entered no world keeps its page's world and session while another tab enters
 * one; a tab whose world was deleted says so and offers the way out. The QA panel builds a world
 * from a declared state (a wrong one refused fault by fault) and gives its 2FA member's code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, onTestFailed } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newTestContext, traceContext } from './browser.ts';
import { signIn, toastTexts } from './support.ts';
import type { E2eServer } from './global-setup.ts';

const servers = inject('e2eServers');

describe.each(servers)('a QA world per tab in $mode mode', (server: E2eServer) => {
  let browser: Browser;
  let context: BrowserContext;
  const made: string[] = [];

  const create = async (name: string) => {
    const response = await fetch(`${server.url}/__qa/worlds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'demo', name, clientMode: server.mode }),
    });
    const world = (await response.json()) as { id: string; enter: string };
    expect(response.status).toBe(201);
    made.push(world.id);
    return world;
  };
  const inWorld = (world: string, path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { 'x-qa-world': world, ...init.headers } });
  /** A context for the running test, what its pages did printed if the test fails. */
  const openContext = async (viewport: { width: number; height: number }) => {
    context = await newTestContext(browser, { viewport });
    const trace = traceContext(context);
    onTestFailed(() => trace.print('the test failed'));
    return context;
  };
  const badge = (page: Page) => page.getByTestId('qa-world-badge');
  const roi = (page: Page) => page.getByTestId('wallet-available-ROI').innerText();
  /** The tab's wallets page once its figures are in. */
  async function roiOf(page: Page) {
    await page.goto(`${server.url}/dashboard/wallets`);
    await expect.poll(() => roi(page)).toMatch(/\$/);
    return roi(page);
  }

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });
  afterEach(async () => {
    await context?.close();
    for (const id of made.splice(0)) await fetch(`${server.url}/__qa/worlds/${id}`, { method: 'DELETE' });
  });

  it('keeps two tabs in two worlds: each signs in, one world’s clock moves, one tab leaves alone', async () => {
    context = await openContext({ width: 375, height: 800 });
    const [one, two] = [await create('Tab one'), await create('Tab two')];
    const [a, b] = [await context.newPage(), await context.newPage()];

    // Entering lands on sign-in, signed out, with no error; the address keeps nothing of the door.
    await a.goto(`${server.url}${one.enter}`);
    await expect.poll(() => badge(a).innerText()).toContain('Tab one');
    expect(a.url()).toBe(`${server.url}/`);
    await a.waitForLoadState('networkidle');
    expect(await toastTexts(a)).toEqual([]);
    await b.goto(`${server.url}${two.enter}`);
    await expect.poll(() => badge(b).innerText()).toContain('Tab two');
    await signIn(a, server, 'demo', 'Demo@1234');
    await signIn(b, server, 'demo', 'Demo@1234');

    // B entered last (the browser's cookie names its world); A reloads and is still in its own, signed in.
    await a.reload();
    await expect.poll(() => a.getByTestId('dashboard-home').isVisible()).toBe(true);
    expect(await badge(a).innerText()).toContain('Tab one');
    const [roiA, roiB] = [await roiOf(a), await roiOf(b)];
    expect(roiA).toBe(roiB);

    // World one's clock moves three days: its daily runs pay ROI there and nowhere else.
    const moved = await inWorld(one.id, '/__qa/clock?wait=true', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance: 'P3D' }),
    });
    expect(moved.status).toBe(200);
    // Three days on, A's session has expired by its world's clock: A signs in again; B's has not.
    await signIn(a, server, 'demo', 'Demo@1234');
    expect(await roiOf(a)).not.toBe(roiA);
    expect(await roiOf(b)).toBe(roiB);

    // A leaves by its badge: the default world, signed out; B stays in its world, signed in.
    await badge(a).getByRole('link', { name: 'Leave' }).click();
    await a.waitForURL(`${server.url}/`);
    await a.getByLabel('Username').waitFor();
    expect(await badge(a).count()).toBe(0);
    await b.reload();
    await expect.poll(() => b.getByTestId('wallet-available-ROI').isVisible()).toBe(true);
    expect(await badge(b).innerText()).toContain('Tab two');
  });

  it('opens a shared enter link in another browser signed out, with no error from its old session', async () => {
    context = await openContext({ width: 1280, height: 900 });
    const world = await create('Shared');
    const page = await context.newPage();
    // This browser was signed in to the default world: that session is not the world's.
    await signIn(page, server, 'demo', 'Demo@1234');
    await page.goto(new URL(world.enter, server.url).href);
    await page.getByLabel('Username').waitFor();
    await expect.poll(() => badge(page).innerText()).toContain('Shared');
    await page.waitForLoadState('networkidle');
    expect(await toastTexts(page)).toEqual([]);
    // Its own sign-in, then the default world's session is still there once the tab leaves.
    await signIn(page, server, 'demo', 'Demo@1234');
    await badge(page).getByRole('link', { name: 'Leave' }).click();
    // The door's redirect has landed and the app has read its ?qa_world= (a signed-in tab may be sent
    // on from `/` to the dashboard before an exact `/` could be seen).
    await page.waitForURL(
      (url) => url.pathname !== '/__qa/worlds/leave' && !url.searchParams.has('qa_world'),
    );
    await expect.poll(() => badge(page).count()).toBe(0);
    await page.goto(`${server.url}/dashboard`);
    await expect.poll(() => page.getByTestId('dashboard-home').isVisible()).toBe(true);
  });

  it('keeps a tab that never entered a world in the one it was loaded in while another tab enters one', async () => {
    context = await openContext({ width: 1280, height: 900 });
    const world = await create('Next door');
    const [a, b] = [await context.newPage(), await context.newPage()];
    // A signs in to the default world: it holds no world, its page was loaded by the browser's cookie.
    await signIn(a, server, 'demo', 'Demo@1234');
    // B enters a world: the door sets the browser's cookie under A's page.
    await b.goto(new URL(world.enter, server.url).href);
    await expect.poll(() => badge(b).innerText()).toContain('Next door');
    // A's next calls still go to the default world with its session (in the world they were refused
    // 401, and that ended A's session): A stays signed in, on its screen, with its figures.
    await a.getByRole('link', { name: 'Wallets' }).first().click();
    await expect.poll(() => roi(a)).toMatch(/\$/);
    expect(a.url()).toBe(`${server.url}/dashboard/wallets`);
    expect(await a.evaluate(() => localStorage.getItem('jwt'))).not.toBeNull();
    expect(await badge(a).count()).toBe(0);
  });

  it('says when the world a tab is in is gone, and takes it back to the default world', async () => {
    context = await openContext({ width: 375, height: 800 });
    const world = await create('Short-lived');
    const page = await context.newPage();
    await page.goto(`${server.url}${world.enter}`);
    await expect.poll(() => badge(page).innerText()).toContain('Short-lived');
    expect((await fetch(`${server.url}/__qa/worlds/${world.id}`, { method: 'DELETE' })).status).toBe(200);
    made.splice(made.indexOf(world.id), 1);
    await page.reload();
    await expect
      .poll(() => page.locator('main').innerText())
      .toContain(`This tab's QA world ${world.id} is gone`);
    await page.getByRole('link', { name: 'Go back to the default world' }).click();
    await page.getByLabel('Username').waitFor();
    expect(await badge(page).count()).toBe(0);
  });
});

// The QA panel is the mock mode's (a provider-mode world has its badge alone).
describe('the QA panel makes a world from a declared state, and shows its 2FA member’s code', () => {
  const server = servers.find((s) => s.mode === 'mock')!;
  let browser: Browser;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await context?.close();
    await browser.close();
  });

  it('refuses a wrong document naming each fault by path, builds a right one, and its member signs in with the code', async () => {
    context = await newTestContext(browser, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    const openWorlds = async () => {
      await page.getByRole('button', { name: 'QA panel' }).click();
      const panel = page.getByTestId('qa-panel');
      await panel.getByRole('tab', { name: 'Worlds' }).click();
      return panel;
    };
    let panel = await openWorlds();
    const form = panel.getByRole('form', { name: 'Make a world' });
    await form.getByLabel('From').selectOption(':state');
    const state = form.getByLabel('Declared state (JSON)');
    await state.fill(JSON.stringify({ members: [{ username: 'Bad Name!' }] }));
    await form.getByRole('button', { name: 'Build' }).click();
    await expect.poll(() => panel.innerText()).toContain('state.date: Must be an ISO-8601 date-time');
    expect(await panel.innerText()).toContain(
      'state.members[0].username: Lowercase letters, digits and _ only',
    );

    await state.fill(
      readFileSync(join(import.meta.dirname, '../../../world-states/two-factor.json'), 'utf8'),
    );
    await form.getByRole('button', { name: 'Build' }).click();
    const built = panel.getByTestId('qa-world-built');
    await built.waitFor({ timeout: 60_000 });
    const id = /w-[A-Za-z0-9_.-]+/.exec(await built.innerText())![0];
    await built.getByRole('button', { name: 'Enter the new world' }).click();
    await expect.poll(() => page.getByTestId('qa-world-badge').innerText()).toContain(id);

    // The world's clock is the state's date: the panel gives the code a phone would not.
    panel = await openWorlds();
    const codes = panel.getByTestId('qa-world-totp');
    await expect.poll(() => codes.innerText()).toMatch(/secured's 2FA code by this world's clock: \d{6}/);
    const code = /(\d{6})/.exec(await codes.innerText())![1]!;
    await page.keyboard.press('Escape');
    await signIn(page, server, 'secured', 'Secure@2026', async () => code);
    expect(await page.getByTestId('qa-world-badge').innerText()).toContain(id);
    await fetch(`${server.url}/__qa/worlds/${id}`, { method: 'DELETE' });
  });
});
