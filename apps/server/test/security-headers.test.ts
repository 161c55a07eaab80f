/** Security headers and the Content-Security-Policy on the web app, its assets, /config.json, the API and /docs. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

const webDist = mkdtempSync(join(tmpdir(), 'headers-web-'));
mkdirSync(join(webDist, 'assets'));
writeFileSync(
  join(webDist, 'index.html'),
  '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>',
);
writeFileSync(join(webDist, 'assets/app.js'), 'export {};');

/** The policy as a map of directive → sources. */
function policy(response: LightMyRequestResponse): Map<string, string[]> {
  const header = response.headers['content-security-policy'];
  expect(typeof header, 'content-security-policy').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectCommonHeaders(response: LightMyRequestResponse) {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(response.headers['x-powered-by']).toBeUndefined();
  expect(response.headers.server).toBeUndefined();
}

/** OWASP's set for a JSON API, and none of a document's. */
function expectApiHeaders(response: LightMyRequestResponse) {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['cross-origin-resource-policy']).toBe('same-site');
  expect(response.headers['x-powered-by']).toBeUndefined();
  // Opened as a page, a JSON answer loads and runs nothing, and no page may frame it.
  expect(Object.fromEntries(policy(response))).toEqual({
    'default-src': ["'none'"],
    'frame-ancestors': ["'none'"],
  });
  // A document's headers stay off JSON (they were ~400 bytes on every call).
  for (const name of ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control'])
    expect(response.headers[name], name).toBeUndefined();
}

function expectWebAppPolicy(response: LightMyRequestResponse, providerOrigins: string[] = []) {
  const csp = policy(response);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  // No inline or eval'd script: only files from this origin.
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('connect-src')).toEqual(["'self'", ...providerOrigins]);
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 'empty', webDist });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('over http (local)', () => {
  it.each([
    ['the web app', '/'],
    ['a client route (SPA fallback)', '/dashboard/profile'],
    ['an asset', '/assets/app.js'],
    ['/config.json', '/config.json'],
  ])('%s carries the headers and the policy', async (_label, url) => {
    const response = await t.fastify.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expectCommonHeaders(response);
    expectWebAppPolicy(response);
    // HSTS only for an https deployment; upgrade-insecure-requests would break http://localhost.
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(policy(response).has('upgrade-insecure-requests')).toBe(false);
  });

  it('a missing asset is a 404 with the headers, not index.html (a stale tab must not run HTML as a script)', async () => {
    const response = await t.fastify.inject({ method: 'GET', url: '/assets/gone-1234.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ Error: 'Not found' });
    expectCommonHeaders(response);
  });

  it('API answers carry the API set: REST, its errors and wrong methods, tRPC', async () => {
    const rest = await t.fastify.inject({
      method: 'POST',
      url: '/user/login',
      payload: { username: 'nobody', password: 'Wrong@1234' },
    });
    expect(rest.statusCode).toBe(400);
    const broken = await t.fastify.inject({
      method: 'POST',
      url: '/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(broken.statusCode).toBe(400);
    const wrongMethod = await t.fastify.inject({ method: 'GET', url: '/user/login' });
    expect(wrongMethod.statusCode).toBe(405);
    const trpc = await t.fastify.inject({ method: 'GET', url: '/trpc/user.view_country?input=%7B%7D' });
    expect(trpc.statusCode).toBe(200);
    const trpcHead = await t.fastify.inject({ method: 'HEAD', url: '/trpc/user.view_country?input=%7B%7D' });
    // Refused by a hook of the tRPC scope before the route runs.
    const trpcText = await t.fastify.inject({
      method: 'POST',
      url: '/trpc/user.view_country',
      headers: { 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    expect(trpcText.statusCode).toBe(415);
    for (const response of [rest, broken, wrongMethod, trpc, trpcHead, trpcText]) expectApiHeaders(response);
  });

  it('JSON the web app reads (/config.json) and an unknown path keep the document set', async () => {
    for (const url of ['/config.json', '/no/such/path']) {
      const response = await t.fastify.inject({ method: 'GET', url });
      expectCommonHeaders(response);
      expect(response.headers['origin-agent-cluster']).toBe('?1');
      expectWebAppPolicy(response);
    }
    const unknownPost = await t.fastify.inject({
      method: 'POST',
      url: '/no/such/path',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(unknownPost.statusCode).toBe(400);
    expectCommonHeaders(unknownPost);
  });

  it('/docs keeps Swagger UI working under its own policy (still no inline script)', async () => {
    const page = await t.fastify.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)|<script(?![^>]*\bsrc=)[^>]*>\s*\S/);
    expectCommonHeaders(page);
    const csp = policy(page);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    // Its own policy, not the web app's (which lets workers run from blob: URLs).
    expect(csp.has('worker-src')).toBe(false);
    const initializer = await t.fastify.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(initializer.statusCode).toBe(200);
    expect(policy(initializer).get('script-src')).toEqual(["'self'"]);
    expect(policy(initializer).has('worker-src')).toBe(false);
  });
});

describe('a deployment behind https with a real provider', () => {
  let deployed: TestApp;
  beforeAll(async () => {
    deployed = await createTestApp({
      seed: 'empty',
      webDist,
      clientMode: 'provider',
      config: { publicUrl: 'https://members.example.com' },
      providerUrls: {
        apiBaseUrl: 'https://api.provider.example/v1',
        depositBaseUrl: 'https://pay.provider.example',
        walletCheckUrl: 'https://chain.example/wallet-stats/',
      },
    });
  });
  afterAll(() => deployed.close());

  it('announces the provider URLs and lets the page call (only) their origins', async () => {
    const config = await deployed.fastify.inject({ method: 'GET', url: '/config.json' });
    expect(config.json()).toMatchObject({
      mode: 'provider',
      apiBaseUrl: 'https://api.provider.example/v1',
      depositBaseUrl: 'https://pay.provider.example',
      walletCheckUrl: 'https://chain.example/wallet-stats/',
    });
    const page = await deployed.fastify.inject({ method: 'GET', url: '/' });
    expectWebAppPolicy(page, [
      'https://api.provider.example',
      'https://pay.provider.example',
      'https://chain.example',
    ]);
  });

  it('asks for HSTS and upgrades insecure requests', async () => {
    const page = await deployed.fastify.inject({ method: 'GET', url: '/' });
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(policy(page).has('upgrade-insecure-requests')).toBe(true);
  });
});
