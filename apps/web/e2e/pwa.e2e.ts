/**
 * The installable app and honest offline, in the system Chromium against the production build:
 * - the manifest and the service worker meet Chrome's installability criteria (Chrome's own check
 *   over CDP, the manifest's fields, every icon fetched as a PNG of its stated size, the worker
 *   controlling the page), with the headers the server sends them;
 * - a reload without a connection shows the offline screen, with no money figure, and the app
 *   comes back by itself when the connection does; a connection lost while running does the same;
 * - the QA panel's chunk is fetched only when the QA button (or Alt+Shift+Q) asks for it;
 * - a second build deployed under a running tab brings 'A new version is available — Reload', and
 *   Reload runs the new build (its own server on a copy of the build, so the shared server keeps its own).
 */
import { execSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Page } from 'playwright-core';
import { buildApp, type App } from '../../server/src/app.ts';
import { readManifest } from '../../../scripts/bench/bundle-budget.ts';
import { browserPath } from './browser.ts';
import { workerControls } from './service-worker.ts';
import { freshPagePerTest, registerMember, signIn, uniqueName } from './support.ts';

const servers = inject('e2eServers');
const root = resolve(import.meta.dirname, '../../..');
const dist = resolve(import.meta.dirname, '../dist');

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

/** Money as the app writes it (formatMoney: "$1,234.56"). */
const MONEY = /\$\s?\d[\d,]*(\.\d+)?/;

interface WebManifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

describe.each(servers)('installable app, $mode mode', (server) => {
  let page!: Page;
  freshPagePerTest(server, { width: 375, height: 812 }, (fresh) => (page = fresh), {
    serviceWorkers: 'allow',
  });

  it('meets Chrome’s installability criteria: manifest fields, icons fetched, the worker controlling the page', async () => {
    await page.clock.install(); // workerControls moves it on
    await page.goto(`${server.url}/`);
    await page.getByLabel('Username').waitFor();
    await workerControls(page);

    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const response = await page.request.get(`${server.url}${href}`);
    expect(response.headers()['content-type']).toContain('application/manifest+json');
    expect(response.headers()['cache-control']).toBe('no-cache');
    const manifest = (await response.json()) as WebManifest;
    expect(manifest).toMatchObject({
      name: 'Member Dashboard',
      short_name: 'Members',
      start_url: '/dashboard',
      scope: '/',
      display: 'standalone',
    });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    // Light and dark browser chrome.
    expect(
      await page
        .locator('meta[name="theme-color"]')
        .evaluateAll((metas) => metas.map((m) => m.getAttribute('media'))),
    ).toEqual(['(prefers-color-scheme: light)', '(prefers-color-scheme: dark)']);

    // Chrome asks for 192 and 512 px icons (and a maskable one for its adaptive icons); iOS for 180.
    const appleTouch = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    const icons = [...manifest.icons, { src: appleTouch!, sizes: '180x180', type: 'image/png' }];
    expect(icons.map((icon) => icon.sizes)).toEqual(
      expect.arrayContaining(['192x192', '512x512', '180x180']),
    );
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
    for (const icon of icons) {
      const answer = await page.request.get(`${server.url}${icon.src}`);
      expect(answer.status()).toBe(200);
      expect(answer.headers()['content-type']).toBe('image/png');
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(pngSize(await answer.body())).toEqual({ width, height });
    }

    const worker = await page.request.get(`${server.url}/sw.js`);
    expect(worker.headers()['content-type']).toContain('javascript');
    expect(worker.headers()['cache-control']).toBe('no-cache');
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
      `${server.url}/sw.js`,
    );

    // Chrome's own verdict, in a profile on disk: a test's usual context is off the record, where
    // Chrome installs nothing and says only that.
    const profile = mkdtempSync(join(tmpdir(), 'md-pwa-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: browserPath(),
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      await context.clock.install(); // workerControls moves it on
      const installPage = await context.newPage();
      await installPage.goto(`${server.url}/`);
      await workerControls(installPage);
      const cdp = await context.newCDPSession(installPage);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: { errorId: string }[];
      };
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it('a reload without a connection shows the offline screen with no money figure, and comes back with the connection', async () => {
    const member = await registerMember(server, uniqueName('pwaoff'));
    await page.clock.install(); // workerControls moves it on
    await signIn(page, server, member.username, member.password);
    await workerControls(page);
    // The dashboard shows money while online.
    await expect
      .poll(async () => MONEY.test(await page.getByTestId('dashboard-home').innerText()))
      .toBe(true);

    const apiRequests: string[] = [];
    page.on('request', (request) => {
      if (!/\/(assets|icons)\/|\.webmanifest$|\/dashboard$/.test(request.url()))
        apiRequests.push(request.url());
    });
    await page.context().setOffline(true);
    await page.reload();
    const offline = page.getByTestId('offline-screen');
    await offline.waitFor();
    expect(await page.getByRole('heading', { name: 'You are offline' }).isVisible()).toBe(true);
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(MONEY);
    expect(await page.getByTestId('dashboard-home').count()).toBe(0);

    // The connection returns: the app starts by itself, on the page the member was on.
    await page.context().setOffline(false);
    await expect.poll(() => page.getByTestId('dashboard-home').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect
      .poll(async () => MONEY.test(await page.getByTestId('dashboard-home').innerText()))
      .toBe(true);
    // The worker answered no API call from a cache: every one went out (and failed offline, or reached the server).
    expect(apiRequests.some((url) => url.endsWith('/config.json'))).toBe(true);
  });

  it('a connection lost while running puts the offline screen in place of the page, and the page returns with it', async () => {
    const member = await registerMember(server, uniqueName('pwadrop'));
    await signIn(page, server, member.username, member.password);
    await expect
      .poll(async () => MONEY.test(await page.getByTestId('dashboard-home').innerText()))
      .toBe(true);
    await page.context().setOffline(true);
    await page.getByTestId('offline-screen').waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(MONEY);
    await page.context().setOffline(false);
    await page.getByTestId('dashboard-home').waitFor();
    await expect
      .poll(async () => MONEY.test(await page.getByTestId('dashboard-home').innerText()))
      .toBe(true);
  });
});

describe('the QA panel on demand (mock mode)', () => {
  const mock = servers.find((s) => s.mode === 'mock')!;
  let page!: Page;
  freshPagePerTest(mock, { width: 375, height: 812 }, (fresh) => (page = fresh), { serviceWorkers: 'allow' });
  /** The panel's own chunk, from the build's manifest. */
  const panelChunk = readManifest(dist)['src/features/qa-panel/qa-panel.tsx']!.file;
  /** Every request of the browsing context, the service worker's precaching included. */
  const requestsOf = (target: Page) => {
    const urls: string[] = [];
    target.context().on('request', (request) => urls.push(new URL(request.url()).pathname));
    return urls;
  };

  for (const how of ['button', 'Alt+Shift+Q'] as const) {
    it(`fetches the panel’s chunk only when asked for (${how})`, async () => {
      const urls = requestsOf(page);
      await page.clock.install(); // workerControls moves it on
      await page.goto(`${mock.url}/`);
      await page.getByTestId('qa-panel-toggle').waitFor();
      await workerControls(page);
      await page.waitForLoadState('networkidle');
      expect(urls.filter((url) => url.startsWith('/assets/') && url.endsWith('.js')).length).toBeGreaterThan(
        0,
      );
      expect(urls).not.toContain(`/${panelChunk}`);

      if (how === 'button') await page.getByTestId('qa-panel-toggle').click();
      else await page.keyboard.press('Alt+Shift+KeyQ');
      await page.getByRole('dialog', { name: 'QA panel' }).waitFor();
      expect(urls).toContain(`/${panelChunk}`);
    });
  }
});

describe('a new build deployed under a running tab', () => {
  let dir: string;
  let app: App;
  let url: string;
  let page!: Page;
  const site = () => join(dir, 'site');
  const secondBuild = () => join(dir, 'second');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'md-pwa-'));
    cpSync(dist, site(), { recursive: true });
    // The second build: the same sources with another build label (a deployment's next commit).
    execSync(`npm run build -w @md/web -- --outDir ${JSON.stringify(secondBuild())}`, {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, NODE_ENV: 'production', MD_BUILD_ID: 'second-build' },
    });
    app = await buildApp({
      databasePath: join(dir, 'app.sqlite'),
      clientMode: 'mock',
      webDist: site(),
      jwtSecret: 'e2e-pwa-secret',
      config: { rateLimits: false },
    });
    url = await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  }, 180_000);
  afterAll(async () => {
    await app?.fastify.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  freshPagePerTest(null, { width: 375, height: 812 }, (fresh) => (page = fresh), { serviceWorkers: 'allow' });

  const buildOf = (target: Page) => target.locator('meta[name="app-build"]').getAttribute('content');

  it('prompts "A new version is available — Reload", and Reload runs the new build', async () => {
    await page.clock.install(); // workerControls moves it on
    await page.goto(`${url}/`);
    await page.getByLabel('Username').waitFor();
    await workerControls(page);
    const first = await buildOf(page);
    expect(first).not.toBe('second-build');
    expect(await page.getByTestId('app-update').count()).toBe(0);

    // Deploy: the second build's files over the first's (hashed assets side by side, as a static host keeps them).
    for (const name of readdirSync(secondBuild()))
      cpSync(join(secondBuild(), name), join(site(), name), { recursive: true, force: true });
    expect(readFileSync(join(site(), 'index.html'), 'utf8')).toContain('second-build');

    // The next navigation makes the browser check the worker: the new one installs and waits,
    // and the page (still the first build, from the old worker's cache) asks.
    await page.reload();
    await page.getByLabel('Username').waitFor();
    expect(await buildOf(page)).toBe(first);
    const prompt = page.getByTestId('app-update');
    await prompt.waitFor({ timeout: 30_000 });
    expect((await prompt.innerText()).replace(/\s+/g, ' ').trim()).toBe(
      'A new version is available — Reload',
    );

    await prompt.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => buildOf(page), { timeout: 30_000 }).toBe('second-build');
    await page.getByLabel('Username').waitFor();
    expect(await page.getByTestId('app-update').count()).toBe(0);
  });
});
