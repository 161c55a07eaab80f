/**
 * The production deployment shape: the built web app on a real static web
 * server (Debian's nginx) on one origin, with a hand-written /config.json in provider mode, and
 * this server on another origin as the provider: the stand-in API only, production-like (no demo
 * hint, no QA control, rate limits on), CORS letting the nginx origin in. Every call of the page
 * crosses origins, as it does against the real provider.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatMoney, type RuntimeConfig } from '@md/shared';
import { buildApp, type App } from '../../server/src/app.ts';
import { freePort, nginxPath } from './nginx.ts';
import { expectToast, freshPagePerTest } from './support.ts';

const dist = resolve(import.meta.dirname, '../dist');

/**
 * The nginx configuration docs/deployment.md shows, made self-contained: its pid, logs and temp
 * files in `dir`, in the foreground (the test owns the process). The CSP lets the page call the
 * provider's origin, as the server's own policy does for the provider URLs it announces.
 */
function nginxConf(dir: string, site: string, port: number, provider: string): string {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: ${provider}`,
    "font-src 'self' data:",
    `connect-src 'self' ${provider}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  types {
    text/html html; text/javascript js mjs; text/css css; application/json json; image/svg+xml svg;
    image/png png; image/x-icon ico; font/woff2 woff2; font/woff woff; application/manifest+json webmanifest; text/plain txt;
  }
  default_type application/octet-stream;
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${site};
    gzip_static on;
    add_header Content-Security-Policy "${csp}" always;
    add_header X-Content-Type-Options nosniff always;
    add_header Referrer-Policy no-referrer always;
    # Hashed file names: cached for a year. Source maps are not published.
    location /assets/ { expires 1y; try_files $uri =404; }
    location ~ \\.map$ { return 404; }
    location = /config.json { expires -1; }
    # Same names in every build: asked again on every use, or a new build waits for them to expire.
    location = /index.html { expires -1; }
    location = /sw.js { expires -1; }
    location = /manifest.webmanifest { expires -1; }
    # Client-side routes: every other path is the app.
    location / { try_files $uri /index.html; }
  }
}
`;
}

describe('deployment: the static build on nginx, this server as the provider on another origin', () => {
  let dir: string;
  let app: App;
  let nginx: ChildProcess | undefined;
  let site: string;
  let api: string;
  let web: string;
  let page!: Page;
  const apiCalls: string[] = [];
  const blocked: string[] = [];

  beforeAll(async () => {
    const nginxBin = nginxPath();
    dir = mkdtempSync(join(tmpdir(), 'md-deploy-'));
    // nginx's workers run as nobody when the test runs as root: they must be able to read the site.
    chmodSync(dir, 0o755);
    const webPort = await freePort();
    web = `http://127.0.0.1:${webPort}`;

    // The provider: the stand-in API alone (no web app), a demo-seeded database so there is money to use.
    app = await buildApp({
      databasePath: join(dir, 'provider.sqlite'),
      seed: 'demo',
      webDist: join(dir, 'no-web-app'),
      jwtSecret: 'e2e-deployment-secret',
      demoHint: false,
      walletCheckStandin: true,
      sourceMaps: false,
      corsOrigins: [web],
      config: { qaControl: false },
    });
    api = await app.fastify.listen({ port: 0, host: '127.0.0.1' });

    // The site: a copy of the production build without its source maps, and the config.json an operator writes.
    site = join(dir, 'site');
    cpSync(dist, site, { recursive: true, filter: (source) => !source.endsWith('.map') });
    chmodSync(site, 0o755);
    const config: RuntimeConfig = {
      mode: 'provider',
      trpcUrl: '/trpc',
      apiBaseUrl: api,
      depositBaseUrl: api,
      walletCheckUrl: `${api}/__mock/bscscan/wallet-stats/`,
      depositGateway: 'nowpayments',
      requestTimeoutMs: 20_000,
      capabilities: [],
    };
    writeFileSync(join(site, 'config.json'), JSON.stringify(config, null, 2));
    for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp));
    const conf = join(dir, 'nginx.conf');
    writeFileSync(conf, nginxConf(dir, site, webPort, api));

    nginx = spawn(nginxBin, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    nginx.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    nginx.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const log = () =>
      `${output}${existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''}`;
    for (let i = 0; ; i++) {
      if (nginx.exitCode !== null) throw new Error(`nginx exited (${nginx.exitCode}):\n${log()}`);
      const ready = await fetch(`${web}/config.json`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (i >= 100) throw new Error(`nginx did not answer on ${web}:\n${log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((done) => nginx!.once('exit', done));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await app?.fastify.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  freshPagePerTest(
    null,
    { width: 1280, height: 900 },
    (fresh) => {
      page = fresh;
      page.on('request', (request) => {
        if (request.url().startsWith(api))
          apiCalls.push(`${request.method()} ${new URL(request.url()).pathname}`);
      });
      page.on('console', (message) => {
        if (/Content Security Policy|CORS/i.test(message.text())) blocked.push(message.text());
      });
    },
    { serviceWorkers: 'allow' },
  );

  /** The member's wallets as the provider keeps them (REST, from the test). */
  const wallets = async () => {
    const token = await page.evaluate(() => localStorage.getItem('jwt') ?? '');
    const response = await fetch(`${api}/wallet/view_all_wallets_details`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{}',
    });
    return ((await response.json()) as { Success: Record<string, { Available: number }> }).Success;
  };

  it('nginx serves the build as a static host would: the app on every route, config.json, no source maps', async () => {
    expect((await fetch(`${web}/dashboard/wallets`)).headers.get('content-type')).toContain('text/html');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(readFileSync(join(site, 'index.html'), 'utf8'))![1]!;
    const asset = await fetch(`${web}${script}`);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${web}${script}.map`)).status).toBe(404);
    expect(((await (await fetch(`${web}/config.json`)).json()) as RuntimeConfig).apiBaseUrl).toBe(api);
    // The service worker, the manifest and the app shell are asked for again on every use.
    for (const path of ['/sw.js', '/manifest.webmanifest', '/'])
      expect((await fetch(`${web}${path}`)).headers.get('cache-control'), path).toBe('no-cache');
    expect((await fetch(`${web}/manifest.webmanifest`)).headers.get('content-type')).toContain(
      'application/manifest+json',
    );
    expect(asset.headers.get('cache-control')).toContain('max-age=31536000');
    // The provider answers this origin's preflight, and no other's.
    const preflight = (origin: string) =>
      fetch(`${api}/user/login`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    expect((await preflight(web)).headers.get('access-control-allow-origin')).toBe(web);
    expect((await preflight('http://127.0.0.1:1')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('signs in, pages a table, deposits with a QR, buys a package, swaps, opens a tree and signs out, all across origins', async () => {
    // Sign in: no demo hint in production.
    await page.goto(`${web}/`);
    await page.getByLabel('Username').waitFor();
    expect(await page.locator('body').innerText()).not.toContain('Demo@1234');
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel('Password', { exact: true }).fill('Demo@1234');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${web}/dashboard`);
    await expect.poll(() => page.getByTestId('dashboard-home').isVisible()).toBe(true);
    expect(apiCalls).toContain('POST /user/login');
    // The service worker installed from nginx and controls the page for the rest of the journey.
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, {
      timeout: 30_000,
    });
    const start = await wallets();

    // A paged table: History, page 1 then page 2.
    await page.goto(`${web}/dashboard/history`);
    const rows = page.getByTestId('data-table').locator('tbody tr');
    const indicator = page.getByTestId('page-indicator');
    await expect.poll(() => indicator.innerText()).toMatch(/^1 \/ \d+$/);
    await expect.poll(() => rows.count()).toBe(10);
    const firstPage = await rows.allInnerTexts();
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => indicator.innerText()).toMatch(/^2 \/ \d+$/);
    await expect.poll(async () => (await rows.allInnerTexts())[0]).not.toBe(firstPage[0]);

    // A deposit: the deposit host answers cross-origin, and its QR shows.
    await page.goto(`${web}/dashboard/deposit`);
    await page.getByLabel('Amount (USDT)').fill('120');
    await page.getByRole('button', { name: 'Deposit', exact: true }).click();
    const qr = page.getByAltText('Deposit QR code');
    await qr.waitFor();
    await expect
      .poll(() =>
        qr.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    expect(await page.getByTestId('deposit-address').innerText()).toMatch(/0x[0-9a-fA-F]{40}/);
    expect(apiCalls).toContain('POST /deposit/make_payment');

    // A package purchase, paid from the wallets.
    await page.goto(`${web}/dashboard/package`);
    await page.getByTestId('package-card-Starter').click();
    await page.getByRole('button', { name: 'Select Starter' }).click();
    await page.getByRole('button', { name: 'Confirm Purchase' }).click();
    await expectToast(page, 'Starter');
    const total = (w: Record<string, { Available: number }>) =>
      Object.values(w).reduce((sum, wallet) => sum + wallet.Available, 0);
    await expect.poll(async () => total(await wallets())).toBeLessThan(total(start));

    // A wallet swap: all of Direct into Withdrawal.
    const before = await wallets();
    const direct = before.Direct!.Available;
    expect(direct).toBeGreaterThan(0);
    await page.goto(`${web}/dashboard/wallets`);
    await page.getByRole('tab', { name: 'Wallet Swap' }).click();
    await page.getByLabel('From wallet').selectOption('Direct');
    await page.getByLabel('To wallet').selectOption('Withdrawal');
    await page.getByRole('button', { name: 'MAX' }).click();
    await page.getByRole('button', { name: 'Swap', exact: true }).click();
    // A swap into Withdrawal is one-way: it is confirmed first.
    await page
      .getByRole('dialog', { name: 'Swap into Withdrawal' })
      .getByRole('button', { name: /^Swap \$/ })
      .click();
    await expect
      .poll(() => page.getByTestId('wallet-available-Direct').innerText())
      .toContain(formatMoney(0));
    const after = await wallets();
    expect(after.Direct!.Available).toBe(0);
    expect(after.Withdrawal!.Available).toBeCloseTo(before.Withdrawal!.Available + direct, 6);

    // A tree: the binary chart with demo's two legs.
    await page.goto(`${web}/dashboard/binarychart`);
    const tree = page.getByRole('tree', { name: 'Binary tree' });
    await tree.getByRole('treeitem').first().waitFor();
    await expect.poll(() => tree.locator('[role="treeitem"][aria-level="2"]').count()).toBeGreaterThan(0);
    expect(apiCalls).toContain('POST /binary/view_binary_downline');

    // Sign out: back to the sign-in page, the token gone.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${web}/`);
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();

    // Everything went to the provider's origin and nothing was refused by CORS or the CSP.
    expect(blocked).toEqual([]);
  });
});
