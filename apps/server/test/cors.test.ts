/**
 * CORS like a real provider. Browser clients from the CORS_ORIGINS origins may
 * call the REST contract, the deposit host and /trpc with a bearer token (no cookies); other
 * origins get no CORS headers at all, and neither do the same-origin routes (/config.json, /__qa).
 * A preflight never spends a member's rate limits.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_MESSAGES, ConfigError, DEV_CORS_ORIGINS, startConfig } from '../src/config.ts';
import { RATE_RULES } from '../src/transport/rate-limit.ts';
import { isCrossOriginApiPath } from '../src/transport/cors.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const APP_ORIGIN = 'https://app.example.com';
const OTHER_ORIGIN = 'https://evil.example.net';

const preflight = (t: TestApp, url: string, origin: string, method = 'POST') =>
  t.fastify.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type',
    },
    remoteAddress: '10.9.9.9',
  });

const corsHeadersOf = (response: LightMyRequestResponse) =>
  Object.keys(response.headers).filter((name) => name.startsWith('access-control-'));

describe('CORS_ORIGINS lets the listed origins call the stand-in API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'empty', corsOrigins: [APP_ORIGIN] });
  });
  afterAll(() => t.close());

  it('answers a preflight from an allowed origin on the REST contract, the deposit host and /trpc: bearer headers, no credentials', async () => {
    for (const url of [
      '/user/login',
      '/wallet/view_all_wallets_details',
      '/deposit/make_payment',
      '/trpc/user.login',
    ]) {
      const response = await preflight(t, url, APP_ORIGIN);
      expect(response.statusCode, url).toBe(204);
      expect(response.headers['access-control-allow-origin'], url).toBe(APP_ORIGIN);
      expect(String(response.headers['access-control-allow-methods']).split(/,\s*/), url).toContain('POST');
      expect(
        String(response.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/),
        url,
      ).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-qa-world']));
      expect(response.headers['access-control-allow-credentials'], url).toBeUndefined();
      expect(String(response.headers.vary), url).toMatch(/origin/i);
      expect(Number(response.headers['access-control-max-age']), url).toBeGreaterThan(0);
    }
  });

  it('marks the actual call from an allowed origin, on REST and tRPC alike', async () => {
    const rest = await t.fastify.inject({
      method: 'POST',
      url: '/user/login',
      headers: { origin: APP_ORIGIN, 'content-type': 'application/json' },
      payload: { username: 'nobody', password: 'Wrong@123' },
    });
    expect(rest.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(rest.json()).toHaveProperty('Error');
    const trpc = await t.fastify.inject({
      method: 'GET',
      url: `/trpc/user.view_country?input=${encodeURIComponent('{}')}`,
      headers: { origin: APP_ORIGIN },
    });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
  });

  it('gives another origin no CORS headers: its preflight is a 404 and its answers are not shared', async () => {
    const pre = await preflight(t, '/user/login', OTHER_ORIGIN);
    expect(pre.statusCode).toBe(404);
    expect(corsHeadersOf(pre)).toEqual([]);
    const call = await t.fastify.inject({
      method: 'POST',
      url: '/user/login',
      headers: { origin: OTHER_ORIGIN, 'content-type': 'application/json' },
      payload: { username: 'nobody', password: 'Wrong@123' },
    });
    expect(corsHeadersOf(call)).toEqual([]);
    // An origin differs by scheme and port too.
    for (const near of ['http://app.example.com', 'https://app.example.com:8443'])
      expect(corsHeadersOf(await preflight(t, '/user/login', near)), near).toEqual([]);
  });

  it('keeps /config.json, /__qa and the docs same-origin even for an allowed origin', async () => {
    for (const url of ['/config.json', '/__qa/mailbox', '/docs/json']) {
      const response = await t.fastify.inject({ method: 'GET', url, headers: { origin: APP_ORIGIN } });
      expect(corsHeadersOf(response), url).toEqual([]);
      expect(corsHeadersOf(await preflight(t, url, APP_ORIGIN, 'GET')), url).toEqual([]);
    }
    expect(isCrossOriginApiPath('/user/login?x=1')).toBe(true);
    expect(isCrossOriginApiPath('/__qa/reset')).toBe(false);
  });

  it('never spends a rate limit on a preflight', async () => {
    const rule = RATE_RULES['user.login']![0]!;
    const login = () =>
      t.fastify.inject({
        method: 'POST',
        url: '/user/login',
        headers: { origin: APP_ORIGIN, 'content-type': 'application/json' },
        payload: { username: 'limited', password: 'Wrong@123' },
        remoteAddress: '10.9.9.9',
      });
    // Three times the limit in preflights from one address for one name: the call still gets through.
    for (let i = 0; i < rule.points * 3; i++)
      expect((await preflight(t, '/user/login', APP_ORIGIN)).statusCode).toBe(204);
    expect((await login()).statusCode).not.toBe(429);
    // Calls do count: the limit is reachable, so the assertion above could fail.
    const statuses: number[] = [];
    for (let i = 0; i < rule.points; i++) statuses.push((await login()).statusCode);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('without CORS_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'empty' });
  });
  afterAll(() => t.close());

  it('buildApp allows no origin: no preflight, no headers', async () => {
    const pre = await preflight(t, '/user/login', 'http://localhost:5173');
    expect(pre.statusCode).toBe(404);
    expect(corsHeadersOf(pre)).toEqual([]);
  });
});

describe('CORS_ORIGINS in startConfig', () => {
  it('defaults to none in production and to the Vite dev and preview servers in development', () => {
    expect(
      startConfig({ NODE_ENV: 'production', STANDIN: 'on', WALLET_CHECK_STANDIN: 'on' }).build.corsOrigins,
    ).toEqual([]);
    expect(startConfig({}).build.corsOrigins).toEqual(DEV_CORS_ORIGINS);
    expect(DEV_CORS_ORIGINS).toContain('http://localhost:5173');
  });

  it('takes a comma list of origins, and an empty one for none', () => {
    expect(
      startConfig({
        NODE_ENV: 'production',
        STANDIN: 'on',
        WALLET_CHECK_STANDIN: 'on',
        CORS_ORIGINS: ' https://app.example.com, http://127.0.0.1:8080 ,',
      }).build.corsOrigins,
    ).toEqual(['https://app.example.com', 'http://127.0.0.1:8080']);
    expect(startConfig({ CORS_ORIGINS: '' }).build.corsOrigins).toEqual([]);
    expect(startConfig({ CORS_ORIGINS: 'https://app.example.com/' }).build.corsOrigins).toEqual([
      'https://app.example.com',
    ]);
  });

  it('refuses what is not an origin: a path, a wildcard, no scheme', () => {
    for (const value of ['https://app.example.com/app', '*', 'app.example.com', 'ftp://files.example.com'])
      expect(() => startConfig({ CORS_ORIGINS: value }), value).toThrow(ConfigError);
    expect(() => startConfig({ CORS_ORIGINS: 'https://ok.example.com,*' })).toThrow(
      CONFIG_MESSAGES.corsOrigin('*'),
    );
  });
});
