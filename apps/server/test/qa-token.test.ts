/**
 * QA control is not reachable from the network by default. The server binds to
 * loopback unless HOST is set; elsewhere QA control needs a QA_TOKEN, and with one every /__qa
 * call and every X-QA-Fault header must present it in X-QA-Token.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CONFIG_MESSAGES, ConfigError, DEFAULT_HOST, isLoopback, startConfig } from '../src/config.ts';
import type { OpenApiDocument } from '../src/modules/docs/openapi.ts';
import { REDACTED } from '../src/modules/qa/journal.ts';
import { QA_TOKEN_MESSAGES } from '../src/modules/qa/token.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const TOKEN = 'qa-token-for-tests-0123456789abcdef';
const root = resolve(import.meta.dirname, '../../..');

describe('startConfig: where the server listens and whether QA control may be reached', () => {
  it('binds to 127.0.0.1 unless HOST is set (an empty HOST counts as unset)', () => {
    expect(DEFAULT_HOST).toBe('127.0.0.1');
    expect(startConfig({}).host).toBe('127.0.0.1');
    expect(startConfig({ HOST: '' }).host).toBe('127.0.0.1');
    expect(startConfig({ HOST: '  ' }).host).toBe('127.0.0.1');
    expect(startConfig({ HOST: '::1' }).host).toBe('::1');
  });

  it('refuses a non-loopback HOST with QA control on and no QA_TOKEN, saying how to fix it', () => {
    for (const env of [
      { HOST: '0.0.0.0' },
      { HOST: '::' },
      { HOST: '192.168.1.20', NODE_ENV: 'development' },
      { HOST: '0.0.0.0', NODE_ENV: 'production', QA_CONTROL: 'on' },
    ]) {
      expect(() => startConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
    expect(() => startConfig({ HOST: '0.0.0.0' })).toThrow(CONFIG_MESSAGES.tokenRequired('0.0.0.0'));
    expect(CONFIG_MESSAGES.tokenRequired('0.0.0.0')).toMatch(/QA_TOKEN.*QA_CONTROL=off.*loopback/s);
  });

  it('starts on the network with QA control off (QA_CONTROL=off or production) or with a QA_TOKEN', () => {
    expect(startConfig({ HOST: '0.0.0.0', QA_CONTROL: 'off' })).toMatchObject({
      host: '0.0.0.0',
      build: { config: { qaControl: false } },
    });
    expect(
      startConfig({ HOST: '0.0.0.0', NODE_ENV: 'production', STANDIN: 'on', WALLET_CHECK_STANDIN: 'on' })
        .build.config.qaControl,
    ).toBe(false);
    const withToken = startConfig({ HOST: '0.0.0.0', QA_TOKEN: TOKEN });
    expect(withToken).toMatchObject({
      host: '0.0.0.0',
      build: { qaToken: TOKEN, config: { qaControl: true } },
    });
    // No QA control, nothing to guard: the token is not passed on.
    expect(
      startConfig({ HOST: '0.0.0.0', QA_CONTROL: 'off', QA_TOKEN: TOKEN }).build.qaToken,
    ).toBeUndefined();
  });

  it('asks for the token on loopback too when QA_TOKEN is set, and refuses a short one', () => {
    expect(startConfig({ QA_TOKEN: TOKEN }).build.qaToken).toBe(TOKEN);
    expect(startConfig({}).build.qaToken).toBeUndefined();
    expect(() => startConfig({ QA_TOKEN: 'short' })).toThrow(CONFIG_MESSAGES.tokenTooShort);
  });

  it('knows loopback addresses from the rest', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      'localhost',
      'LOCALHOST',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
    ])
      expect(isLoopback(host), host).toBe(true);
    for (const host of [
      '0.0.0.0',
      '::',
      '192.168.1.20',
      '10.0.0.1',
      'example.com',
      'localhost.example.com',
      '::ffff:10.0.0.1',
      '128.0.0.1',
    ])
      expect(isLoopback(host), host).toBe(false);
  });

  it('keeps the other variables as main.ts read them', () => {
    const config = startConfig({
      PORT: '0',
      DATABASE_PATH: ':memory:',
      PUBLIC_URL: 'https://example.com',
      DEMO_AUTOPAY_SECONDS: '20',
      REQUEST_TIMEOUT_MS: '5000',
      LOG: '1',
    });
    expect(config).toMatchObject({
      port: 0,
      databasePath: ':memory:',
      build: {
        logger: { level: 'debug' },
        config: {
          publicUrl: 'https://example.com',
          demoAutopaySeconds: 20,
          requestTimeoutMs: 5000,
          qaControl: true,
        },
      },
    });
    expect(startConfig({}).build.config).toEqual({
      qaControl: true,
      publicUrl: 'http://localhost:3000',
      pushLoopback: false,
    });
  });
});

/** The server bundle (dist/main.js) with `env` over a clean QA environment; resolves on exit or on the line matching `until`. */
function runMain(
  env: Record<string, string>,
  until?: RegExp,
): Promise<{ code: number | null; output: string }> {
  const base = { ...process.env };
  for (const name of [
    'HOST',
    'QA_TOKEN',
    'QA_CONTROL',
    'NODE_ENV',
    'PORT',
    'DATABASE_PATH',
    'JWT_SECRET',
    'STANDIN',
    'CORS_ORIGINS',
  ])
    delete base[name];
  const child = spawn(process.execPath, [inject('serverBundle')], {
    cwd: root,
    env: { ...base, NODE_ENV: 'development', JWT_SECRET: 'qa-token-test-secret', ...env },
  });
  let output = '';
  return new Promise((done) => {
    const read = (d: Buffer) => {
      output += d.toString();
      if (until?.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => done({ code, output }));
  });
}

describe('main.ts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qa-token-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses to start on 0.0.0.0 with QA control on and no QA_TOKEN: exit 1, the fix in the message, no database opened', async () => {
    const databasePath = join(dir, 'refused.sqlite');
    const { code, output } = await runMain({ HOST: '0.0.0.0', PORT: '0', DATABASE_PATH: databasePath });
    expect(code, output).toBe(1);
    expect(output).toContain(CONFIG_MESSAGES.tokenRequired('0.0.0.0'));
    expect(existsSync(databasePath)).toBe(false);
  });

  it('listens on 127.0.0.1 when HOST is unset', async () => {
    const { output } = await runMain(
      { PORT: '0', DATABASE_PATH: join(dir, 'default.sqlite') },
      /Listening on:.*\n/,
    );
    expect(output, output).toMatch(/Member dashboard on http:\/\/localhost:\d+/);
    expect(output, output).toMatch(/Listening on: +127\.0\.0\.1\n/);
  });
});

describe('/__qa with a QA_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'empty', qaToken: TOKEN });
  });
  afterAll(() => t.close());

  const qa = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, token?: string) =>
    t.fastify.inject({
      method,
      url,
      headers: {
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token === undefined ? {} : { 'x-qa-token': token }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });

  it('answers 401 with a clear Error without the token or with a wrong one', async () => {
    const missing = await qa('GET', '/__qa/clock');
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ Error: QA_TOKEN_MESSAGES.missing });
    for (const wrong of ['', 'nope', `${TOKEN}x`, TOKEN.slice(0, -1), TOKEN.toUpperCase()]) {
      const reply = await qa('GET', '/__qa/clock', undefined, wrong);
      expect(reply.statusCode, wrong).toBe(401);
      expect(reply.json(), wrong).toMatchObject({ Error: QA_TOKEN_MESSAGES.wrong });
    }
    // The member's bearer header is not the QA token.
    const bearer = await t.fastify.inject({
      method: 'GET',
      url: '/__qa/mailbox',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(bearer.statusCode).toBe(401);
  });

  it('does nothing when refused: the clock does not move, the database is not reset, no rule is added', async () => {
    const before = t.clock.now();
    expect((await qa('POST', '/__qa/clock?wait=true', { advance: 'P1D' })).statusCode).toBe(401);
    expect(
      (await qa('POST', '/__qa/clock?wait=true', { advance: 'P1D' }, 'wrong-token-wrong-token')).statusCode,
    ).toBe(401);
    expect(t.clock.now()).toBe(before);

    expect((await qa('POST', '/__qa/reset', { scenario: 'demo' })).statusCode).toBe(401);
    expect(t.count('members')).toBe(0);

    expect((await qa('POST', '/__qa/faults', { path: '*', status: 500 })).statusCode).toBe(401);
    expect((await qa('GET', '/__qa/faults', undefined, TOKEN)).json()).toEqual([]);
  });

  it('guards every /__qa route, however the path is spelled', async () => {
    for (const [method, url] of [
      ['GET', '/__qa/mailbox'],
      ['GET', '/__qa/totp/demo2fa'],
      ['POST', '/__qa/deposits/1/pay'],
      ['POST', '/__qa/withdrawals/1/approve'],
      ['GET', '/__qa/journal'],
      ['POST', '/__qa/snapshots'],
      ['GET', '/%5F%5Fqa/clock'],
      ['GET', '/__qa/clock?x=1'],
    ] as const)
      expect(
        (await qa(method, url, method === 'POST' ? {} : undefined)).statusCode,
        `${method} ${url}`,
      ).not.toBe(200);
    expect((await qa('GET', '/%5F%5Fqa/clock')).statusCode).toBe(401);
  });

  it('works with the right token', async () => {
    const before = t.clock.now();
    const moved = await qa('POST', '/__qa/clock?wait=true', { advance: 'PT1H' }, TOKEN);
    expect(moved.statusCode).toBe(200);
    expect(t.clock.now()).toBe(before + 3_600_000);
    const reset = await qa('POST', '/__qa/reset', { scenario: 'empty' }, TOKEN);
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ scenario: 'empty', members: 0 });
    expect((await qa('GET', '/__qa/scenarios', undefined, TOKEN)).statusCode).toBe(200);
  });

  it('ignores X-QA-Fault without the token (not even a malformed one answers 400) and applies it with the token', async () => {
    const call = (headers: Record<string, string>) =>
      t.fastify.inject({
        method: 'POST',
        url: '/user/view_country',
        headers: { 'content-type': 'application/json', ...headers },
        payload: '{}',
      });
    const fault = JSON.stringify({ status: 503, error: 'Boom' });
    const ignored: Record<string, string>[] = [
      { 'x-qa-fault': fault },
      { 'x-qa-fault': fault, 'x-qa-token': 'wrong-token-wrong-token' },
      { 'x-qa-fault': 'not json' },
    ];
    for (const headers of ignored) {
      const reply = await call(headers);
      expect(reply.statusCode, JSON.stringify(headers)).toBe(200);
      expect(reply.json(), JSON.stringify(headers)).toHaveProperty('Success');
    }
    const trpc = await t.fastify.inject({
      method: 'GET',
      url: `/trpc/user.view_country?input=${encodeURIComponent('{}')}`,
      headers: { 'x-qa-fault': fault },
    });
    expect(trpc.statusCode).toBe(200);

    const faulted = await call({ 'x-qa-fault': fault, 'x-qa-token': TOKEN });
    expect(faulted.statusCode).toBe(503);
    expect(faulted.json()).toMatchObject({ Error: 'Boom' });
  });

  it('keeps the token out of the journal', async () => {
    await t.fastify.inject({
      method: 'POST',
      url: '/user/view_country',
      headers: { 'content-type': 'application/json', 'x-qa-token': TOKEN },
      payload: '{}',
    });
    const [entry] = (await qa('GET', '/__qa/journal?limit=1', undefined, TOKEN)).json() as {
      requestHeaders: Record<string, unknown>;
    }[];
    expect(entry?.requestHeaders['x-qa-token']).toBe(REDACTED);
  });

  it('describes the token in the OpenAPI document: a security scheme on every QA call, and its 401', async () => {
    const doc = (await t.get<OpenApiDocument>('/docs/openapi.json')).body;
    await expect(validate(structuredClone(doc) as never)).resolves.toMatchObject({ valid: true });
    expect(doc.components.securitySchemes.qaToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-QA-Token',
    });
    const qaOperations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/__qa'))
      .flatMap(([, ops]) => Object.values(ops));
    expect(qaOperations.length).toBeGreaterThan(10);
    for (const op of qaOperations) {
      expect(op.security, op.operationId).toEqual([{ qaToken: [] }]);
      expect(op.responses, op.operationId).toHaveProperty('401');
    }
    // Contract calls keep the member's scheme.
    expect(doc.paths['/user/view_profile']?.post?.security).toEqual([{ bearerAuth: [] }, {}]);
    expect(doc.components.parameters.QaFault?.description).toContain('X-QA-Token');
  });
});

describe('/__qa without a QA_TOKEN (loopback development)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'empty' });
  });
  afterAll(() => t.close());

  it('needs no token, and the document names no QA scheme', async () => {
    expect((await t.get('/__qa/clock')).status).toBe(200);
    const doc = (await t.get<OpenApiDocument>('/docs/openapi.json')).body;
    expect(doc.components.securitySchemes).not.toHaveProperty('qaToken');
    expect(doc.paths['/__qa/clock']?.get?.security).toEqual([]);
  });
});
