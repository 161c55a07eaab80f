/**
 * Configuration decides what one process does. The web app and /config.json
 * always; the stand-in API (STANDIN), QA control, seeding, the demo hint, the wallet-check
 * stand-in and source maps on in development and off in production unless asked. Without the
 * stand-in, /config.json sends the client to the real provider and nothing else answers.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RuntimeConfig } from '@md/shared';
import { buildApp, type App } from '../src/app.ts';
import { CONFIG_MESSAGES, ConfigError, startConfig } from '../src/config.ts';

const root = resolve(import.meta.dirname, '../../..');
const PROVIDER = {
  API_BASE_URL: 'https://api.provider.example',
  DEPOSIT_BASE_URL: 'https://pay.provider.example',
  WALLET_CHECK_URL: 'https://chain.example/wallet-stats/',
};
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('startConfig: the roles of one process', () => {
  it('development: the stand-in with everything on (QA control, demo seed and hint, wallet check, source maps, mock mode)', () => {
    expect(startConfig({}).build).toMatchObject({
      standin: true,
      seed: 'demo',
      demoHint: true,
      walletCheckStandin: true,
      sourceMaps: true,
      clientMode: 'mock',
      config: { qaControl: true },
    });
    expect(startConfig({}).databasePath).toBe('data/app.sqlite');
    expect(startConfig({ CLIENT_MODE: 'provider' }).build.clientMode).toBe('provider');
  });

  it('production: the web app alone, in provider mode, sent to the provider the variables name; nothing stored', () => {
    const config = startConfig({ NODE_ENV: 'production', ...PROVIDER });
    expect(config.build).toMatchObject({
      standin: false,
      seed: 'none',
      demoHint: false,
      walletCheckStandin: false,
      sourceMaps: false,
      clientMode: 'provider',
      corsOrigins: [],
      providerUrls: {
        apiBaseUrl: PROVIDER.API_BASE_URL,
        depositBaseUrl: PROVIDER.DEPOSIT_BASE_URL,
        walletCheckUrl: PROVIDER.WALLET_CHECK_URL,
      },
      config: { qaControl: false },
    });
    expect(config.databasePath).toBe(':memory:');
  });

  it('refuses a web app with nowhere to go: STANDIN=off needs the three provider URLs, absolute', () => {
    expect(() => startConfig({ NODE_ENV: 'production' })).toThrow(
      CONFIG_MESSAGES.providerUrls(['API_BASE_URL', 'DEPOSIT_BASE_URL', 'WALLET_CHECK_URL']),
    );
    expect(() => startConfig({ STANDIN: 'off', ...PROVIDER, DEPOSIT_BASE_URL: '/deposit' })).toThrow(
      CONFIG_MESSAGES.providerUrls(['DEPOSIT_BASE_URL']),
    );
    expect(() => startConfig({ STANDIN: 'off', ...PROVIDER, QA_CONTROL: 'on' })).toThrow(
      CONFIG_MESSAGES.qaWithoutStandin,
    );
  });

  it('production with the stand-in asked for: no demo seed, hint, wallet check or maps unless each is asked for too', () => {
    expect(() => startConfig({ NODE_ENV: 'production', STANDIN: 'on' })).toThrow(CONFIG_MESSAGES.walletCheck);
    const real = startConfig({
      NODE_ENV: 'production',
      STANDIN: 'on',
      WALLET_CHECK_URL: PROVIDER.WALLET_CHECK_URL,
    }).build;
    expect(real).toMatchObject({
      standin: true,
      seed: 'none',
      demoHint: false,
      walletCheckStandin: false,
      sourceMaps: false,
      config: { qaControl: false },
    });
    const asked = startConfig({
      NODE_ENV: 'production',
      STANDIN: 'on',
      WALLET_CHECK_STANDIN: 'on',
      SEED: 'demo',
      DEMO_HINT: 'on',
      SOURCE_MAPS: 'on',
      QA_CONTROL: 'on',
    }).build;
    expect(asked).toMatchObject({
      seed: 'demo',
      demoHint: true,
      walletCheckStandin: true,
      sourceMaps: true,
      config: { qaControl: true },
    });
  });

  it('development can switch each role off', () => {
    const off = startConfig({
      WALLET_CHECK_URL: PROVIDER.WALLET_CHECK_URL,
      WALLET_CHECK_STANDIN: 'off',
      DEMO_HINT: 'off',
      SOURCE_MAPS: 'off',
      QA_CONTROL: 'off',
      SEED: 'empty',
    }).build;
    expect(off).toMatchObject({
      standin: true,
      walletCheckStandin: false,
      demoHint: false,
      sourceMaps: false,
      seed: 'empty',
      config: { qaControl: false },
    });
  });

  it('takes on/off (and true/false, 1/0) and refuses anything else by name', () => {
    expect(startConfig({ STANDIN: 'ON', ...PROVIDER }).build.standin).toBe(true);
    expect(startConfig({ STANDIN: '0', ...PROVIDER }).build.standin).toBe(false);
    expect(() => startConfig({ STANDIN: 'maybe' })).toThrow(CONFIG_MESSAGES.onOff('STANDIN', 'maybe'));
    expect(() => startConfig({ SOURCE_MAPS: 'yes please' })).toThrow(ConfigError);
  });
});

/** A built web app in miniature: index.html, a hashed script, its source map (plain and precompressed). */
function fakeDist(dir: string): string {
  const dist = join(dir, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Member dashboard</title>');
  writeFileSync(
    join(dist, 'assets', 'app-abc123.js'),
    'console.log(1);\n//# sourceMappingURL=app-abc123.js.map\n',
  );
  writeFileSync(join(dist, 'assets', 'app-abc123.js.map'), '{"version":3,"sources":["src/secret.ts"]}');
  writeFileSync(join(dist, 'assets', 'app-abc123.js.map.br'), 'not really brotli');
  return dist;
}

describe('buildApp by role', () => {
  const dir = mkdtempSync(join(tmpdir(), 'roles-'));
  const webDist = fakeDist(dir);
  const apps: App[] = [];
  let production: App;
  let webOnly: App;
  let development: App;
  beforeAll(async () => {
    // As startConfig builds them: production with the stand-in (the e2e deployment shape), the web app alone, development.
    production = await buildApp({
      seed: 'empty',
      webDist,
      demoHint: false,
      walletCheckStandin: false,
      sourceMaps: false,
      providerUrls: { walletCheckUrl: PROVIDER.WALLET_CHECK_URL },
      config: { qaControl: false },
    });
    webOnly = await buildApp({
      seed: 'none',
      webDist,
      standin: false,
      clientMode: 'provider',
      providerUrls: {
        apiBaseUrl: PROVIDER.API_BASE_URL,
        depositBaseUrl: PROVIDER.DEPOSIT_BASE_URL,
        walletCheckUrl: PROVIDER.WALLET_CHECK_URL,
      },
      corsOrigins: ['https://app.example.com'],
    });
    development = await buildApp({ seed: 'empty', webDist });
    apps.push(production, webOnly, development);
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.fastify.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  const configOf = async (app: App) =>
    (await app.fastify.inject({ method: 'GET', url: '/config.json' })).json() as RuntimeConfig;

  it('announces the demo member only when asked, and the wallet check where it really is', async () => {
    expect((await configOf(development)).demoHint).toEqual({ username: 'demo', password: 'Demo@1234' });
    expect(await configOf(production)).not.toHaveProperty('demoHint');
    expect((await configOf(production)).walletCheckUrl).toBe(PROVIDER.WALLET_CHECK_URL);
    expect((await configOf(development)).walletCheckUrl).toBe('/__mock/bscscan/wallet-stats/');
  });

  it('serves the wallet-check stand-in only when asked (it approves any address)', async () => {
    const url = `/__mock/bscscan/wallet-stats/${ADDRESS}`;
    expect((await development.fastify.inject({ method: 'GET', url })).json()).toMatchObject({ status: '1' });
    const refused = await production.fastify.inject({ method: 'GET', url });
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('Member dashboard');
  });

  it('serves source maps only when asked, compressed or not; the scripts either way', async () => {
    const map = '/assets/app-abc123.js.map';
    expect((await development.fastify.inject({ method: 'GET', url: map })).statusCode).toBe(200);
    for (const headers of [{}, { 'accept-encoding': 'br, gzip' }]) {
      const refused = await production.fastify.inject({ method: 'GET', url: map, headers });
      expect(refused.statusCode, JSON.stringify(headers)).toBe(404);
      expect(refused.body).not.toContain('secret.ts');
    }
    expect((await production.fastify.inject({ method: 'GET', url: `${map}?v=1` })).statusCode).toBe(404);
    expect(
      (await production.fastify.inject({ method: 'GET', url: '/assets/app-abc123.js' })).statusCode,
    ).toBe(200);
    expect((await production.fastify.inject({ method: 'GET', url: '/dashboard' })).body).toContain(
      'Member dashboard',
    );
  });

  it('without the stand-in: the web app and a /config.json pointing at the provider; no contract, deposit host, tRPC, captcha, QA or docs', async () => {
    const config = await configOf(webOnly);
    expect(config).toMatchObject({
      mode: 'provider',
      apiBaseUrl: PROVIDER.API_BASE_URL,
      depositBaseUrl: PROVIDER.DEPOSIT_BASE_URL,
      walletCheckUrl: PROVIDER.WALLET_CHECK_URL,
      capabilities: [],
    });
    expect(config).not.toHaveProperty('demoHint');
    expect(config).not.toHaveProperty('captchaChallengeUrl');
    for (const url of ['/user/login', '/deposit/make_payment', '/trpc/user.login']) {
      const response = await webOnly.fastify.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', origin: 'https://app.example.com' },
        payload: { username: 'demo', password: 'Demo@1234' },
      });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['access-control-allow-origin'], url).toBeUndefined();
    }
    for (const url of [
      '/trpc/user.view_country',
      '/captcha/challenge',
      '/__qa/mailbox',
      `/__mock/bscscan/wallet-stats/${ADDRESS}`,
    ])
      expect((await webOnly.fastify.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    expect((await webOnly.fastify.inject({ method: 'GET', url: '/docs/json' })).body).not.toContain(
      'openapi',
    );
    expect((await webOnly.fastify.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await webOnly.fastify.inject({ method: 'GET', url: '/' })).body).toContain('Member dashboard');
  });
});

describe('main.ts in production', () => {
  it('with STANDIN off serves the web app and /config.json for the provider, names no demo member, stores nothing', async () => {
    const base = { ...process.env };
    for (const name of [
      'HOST',
      'QA_TOKEN',
      'QA_CONTROL',
      'PORT',
      'DATABASE_PATH',
      'SEED',
      'STANDIN',
      'CORS_ORIGINS',
      'DEMO_HINT',
      'SOURCE_MAPS',
      'WALLET_CHECK_STANDIN',
      'CLIENT_MODE',
    ])
      delete base[name];
    const child = spawn(process.execPath, [inject('serverBundle')], {
      cwd: root,
      env: {
        ...base,
        NODE_ENV: 'production',
        PORT: '0',
        JWT_SECRET: 'roles-test-secret',
        LOG_LEVEL: 'silent',
        ...PROVIDER,
      },
    });
    let output = '';
    const listening = new Promise<string>((done, fail) => {
      const read = (d: Buffer) => {
        output += d.toString();
        const port = /Member dashboard on http:\/\/localhost:(\d+)/.exec(output)?.[1];
        if (port && /Listening on:.*\n/.test(output)) done(port);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => fail(new Error(`main.ts exited (${code}):\n${output}`)));
    });
    try {
      const port = await listening;
      const config = (await (await fetch(`http://127.0.0.1:${port}/config.json`)).json()) as RuntimeConfig;
      expect(config).toMatchObject({
        mode: 'provider',
        apiBaseUrl: PROVIDER.API_BASE_URL,
        depositBaseUrl: PROVIDER.DEPOSIT_BASE_URL,
      });
      expect(config).not.toHaveProperty('demoHint');
      expect(
        (
          await fetch(`http://127.0.0.1:${port}/user/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          })
        ).status,
      ).toBe(404);
      expect(output).toContain('web app only');
      expect(output).not.toMatch(/Demo member|demo \/ Demo@1234|QA mailbox/);
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
