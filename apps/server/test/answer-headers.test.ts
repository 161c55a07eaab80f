/**
 * What every answer carries for the tools and clients around it: an X-Request-Id the log line and
 * the QA journal name too, JSON typed exactly `application/json`, a stable `Code` beside the
 * provider's `Error`, Retry-After on a 429 or 503, and a JSON 405 naming POST for another method
 * on a contract path.
 */
import { contract, ERROR_CODES, errorCodes, isErrorCode } from '@md/shared';
import type { InjectOptions, Response as InjectResponse } from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../src/modules/docs/openapi.ts';
import { RATE_RULES } from '../src/transport/rate-limit.ts';
import { createTestApp, moneySnapshot, type TestApp } from './helpers.ts';

let t: TestApp;
let demo: string;
const logLines: { reqId?: string; msg?: string; level?: number }[] = [];
const UUID = /^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/;

beforeAll(async () => {
  t = await createTestApp({
    seed: 'demo',
    config: { qaControl: true },
    logger: {
      level: 'info',
      stream: { write: (line: string) => void logLines.push(JSON.parse(line) as (typeof logLines)[number]) },
    },
  });
  demo = await t.login('demo');
});
afterAll(() => t.close());

const inject = (options: InjectOptions): Promise<InjectResponse> => t.fastify.inject(options);
const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });

/** One answer of each kind: a call and a refusal over REST and tRPC, the QA API, the docs, the runtime config, a 404. */
const everyKindOfAnswer = async () => [
  await postJson('/user/view_profile', {}, { authorization: `Bearer ${demo}` }),
  await postJson('/user/view_profile', {}),
  await inject({
    method: 'GET',
    url: '/trpc/user.view_profile',
    headers: { authorization: `Bearer ${demo}` },
  }),
  await inject({ method: 'GET', url: '/trpc/user.view_profile' }),
  await inject({ method: 'GET', url: '/__qa/clock' }),
  await inject({ method: 'GET', url: '/docs/openapi.json' }),
  await inject({ method: 'GET', url: '/config.json' }),
  await inject({ method: 'POST', url: '/no/such/path' }),
];

describe('X-Request-Id', () => {
  it('is on every answer: a call, a refusal, tRPC, the QA API, the docs, the runtime config, a 404', async () => {
    const answers = await everyKindOfAnswer();
    const ids = answers.map((answer) => answer.headers['x-request-id']);
    for (const [i, id] of ids.entries()) expect(id, `answer ${i}`).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is the client’s own when it sends a usable one, a new one when not (too long, spaces, empty)', async () => {
    const own = 'client-7f3a.retry-2';
    expect((await postJson('/user/view_country', {}, { 'x-request-id': own })).headers['x-request-id']).toBe(
      own,
    );
    for (const sent of ['x'.repeat(129), 'two words', ''])
      expect(
        (await postJson('/user/view_country', {}, { 'x-request-id': sent })).headers['x-request-id'],
        JSON.stringify(sent),
      ).toMatch(UUID);
  });

  it('ties a client’s failure to the server’s log line and to the QA journal', async () => {
    await inject({
      method: 'POST',
      url: '/__qa/faults',
      payload: { path: '/rank/current_rank', status: 500, error: 'Injected' },
    });
    try {
      const id = 'trace-5xx-1';
      const answer = await postJson(
        '/rank/current_rank',
        {},
        { authorization: `Bearer ${demo}`, 'x-request-id': id },
      );
      expect(answer.statusCode).toBe(500);
      expect(answer.headers['x-request-id']).toBe(id);
      expect(
        logLines.filter((line) => line.reqId === id && line.msg === 'Answered 500: Injected'),
      ).toHaveLength(1);
      const journal = (await inject({ method: 'GET', url: '/__qa/journal?path=/rank/current_rank' })).json<
        { requestId: string; status: number }[]
      >();
      expect(journal.find((entry) => entry.requestId === id)).toMatchObject({ status: 500 });
    } finally {
      await inject({ method: 'DELETE', url: '/__qa/faults' });
    }
  });
});

describe('a client that sends one X-Request-Id twice', () => {
  it('gets both calls journaled, refusals before the handler included', async () => {
    await inject({ method: 'DELETE', url: '/__qa/journal' });
    const id = 'same-id-every-time';
    for (let i = 0; i < 2; i++) {
      const answer = await inject({
        method: 'POST',
        url: '/user/login',
        headers: { 'content-type': 'application/json', 'x-request-id': id },
        payload: '{"username":',
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.headers['x-request-id']).toBe(id);
    }
    const journal = (await inject({ method: 'GET', url: '/__qa/journal?path=/user/login' })).json<
      { requestId: string; status: number }[]
    >();
    expect(journal.filter((entry) => entry.requestId === id)).toEqual([
      expect.objectContaining({ status: 400 }),
      expect.objectContaining({ status: 400 }),
    ]);
  });
});

describe('content type', () => {
  it('is application/json exactly, on success and failure, REST, tRPC, QA, docs and config', async () => {
    const answers = await everyKindOfAnswer();
    for (const [i, answer] of answers.entries())
      expect(answer.headers['content-type'], `answer ${i}`).toBe('application/json');
  });
});

describe('Code', () => {
  it('names the condition beside the provider’s Error, in the REST body and in tRPC’s data', async () => {
    const cases: [string, InjectResponse, number, string][] = [
      [
        'wrong password',
        await postJson('/user/login', { username: 'demo', password: 'Wrong@1234' }),
        400,
        'INVALID_CREDENTIALS',
      ],
      [
        'a typo',
        await postJson('/user/login', { username: 'demo', password: 'Demo@1234', pasword: 1 }),
        400,
        'UNKNOWN_FIELD',
      ],
      ['a rule', await postJson('/user/login', { username: '', password: 'x' }), 400, 'INVALID_INPUT'],
      ['no token', await postJson('/user/view_profile', {}), 401, 'INVALID_AUTHENTICATION'],
      [
        'bad JSON',
        await inject({
          method: 'POST',
          url: '/user/login',
          headers: { 'content-type': 'application/json' },
          payload: '{"user',
        }),
        400,
        'INVALID_JSON',
      ],
      [
        'not JSON',
        await inject({
          method: 'POST',
          url: '/trpc/user.login',
          headers: { 'content-type': 'text/plain' },
          payload: 'x',
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        'outside the downline',
        await postJson(
          '/binary/view_path',
          { username: 'nobody_at_all' },
          { authorization: `Bearer ${demo}` },
        ),
        404,
        'NOT_FOUND',
      ],
      ['unknown route', await inject({ method: 'POST', url: '/no/such/path' }), 404, 'NOT_FOUND'],
      [
        'too much',
        await postJson(
          '/transfer_to_user',
          { username: 'gonzalo_001', amount: 99_999_999, password: 'Txn@123' },
          { authorization: `Bearer ${demo}` },
        ),
        400,
        'INSUFFICIENT_BALANCE',
      ],
    ];
    for (const [what, answer, status, code] of cases) {
      expect(answer.statusCode, what).toBe(status);
      expect(answer.json(), what).toMatchObject({ Error: expect.any(String), Code: code });
    }
    const rpc = await inject({
      method: 'POST',
      url: '/trpc/user.login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'demo', password: 'Wrong@1234' }),
    });
    expect(rpc.json()).toMatchObject({
      error: {
        message: 'Invalid username or password',
        data: { httpStatus: 400, Code: 'INVALID_CREDENTIALS' },
      },
    });
  });

  it('is one of the documented codes, each with the status it comes with', async () => {
    const document = (await t.get<OpenApiDocument>('/docs/openapi.json')).body;
    const code = (document.components.schemas.Error as { properties: { Code: { enum: string[] } } })
      .properties.Code;
    expect(code.enum).toEqual(errorCodes);
    for (const name of errorCodes) expect(ERROR_CODES[name][0]).toBeGreaterThanOrEqual(400);
    expect(isErrorCode('NOT_FOUND')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });
});

describe('Retry-After', () => {
  it('tells a rate-limited client when its window ends, on REST and tRPC', async () => {
    const from = (remoteAddress: string) => ({
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'nobody.here@example.com' }),
      remoteAddress,
    });
    // 10 a minute per client (transport/rate-limit.ts).
    const burst = await Promise.all(
      Array.from({ length: 15 }, () => inject({ ...from('10.99.0.1'), url: '/user/forgot_username' })),
    );
    const limited = burst.filter((answer) => answer.statusCode === 429);
    expect(limited).toHaveLength(5);
    for (const answer of limited) {
      expect(answer.json()).toMatchObject({ Code: 'RATE_LIMITED' });
      expect(answer.headers['retry-after']).toBe('60');
    }
    const rpc = await inject({ ...from('10.99.0.1'), url: '/trpc/user.forgot_username' });
    expect(rpc.statusCode).toBe(429);
    expect(rpc.headers['retry-after']).toBe('60');
    expect(rpc.json()).toMatchObject({ error: { data: { Code: 'RATE_LIMITED' } } });
    // The window runs on the server clock: 45 seconds on, 15 to wait.
    t.clock.advance(45_000);
    const later = await inject({ ...from('10.99.0.1'), url: '/user/forgot_username' });
    expect(later.statusCode).toBe(429);
    expect(later.headers['retry-after']).toBe('15');
    // Another client is not held.
    expect((await inject({ ...from('10.99.0.2'), url: '/user/forgot_username' })).statusCode).not.toBe(429);
  });

  it('tells a member locked out by wrong passwords when the lock ends', async () => {
    const before = moneySnapshot(t);
    let locked: InjectResponse | undefined;
    for (let i = 0; i < 12 && !locked; i++) {
      const answer = await postJson('/user/login', { username: 'allene_029', password: 'Wrong@1234' });
      if (answer.statusCode === 429) locked = answer;
    }
    expect(locked?.json()).toMatchObject({ Code: 'RATE_LIMITED' });
    const seconds = Number(locked!.headers['retry-after']);
    expect(seconds).toBeGreaterThan(60);
    expect(seconds).toBeLessThanOrEqual(15 * 60);
    expect(moneySnapshot(t)).toBe(before);
  });
});

describe('the document', () => {
  it('declares a 429 with Retry-After on every call under a rate limit, and the headers every answer has', async () => {
    const document = (await t.get<OpenApiDocument>('/docs/openapi.json')).body;
    for (const name of Object.keys(RATE_RULES) as (keyof typeof RATE_RULES)[]) {
      const responses = document.paths[contract[name].path]!.post!.responses;
      expect(responses['429'], name).toEqual({ $ref: '#/components/responses/TooManyRequests' });
      expect(responses['200'], name).toMatchObject({ headers: { 'X-Request-Id': expect.any(Object) } });
    }
    expect(document.components.responses.TooManyRequests!.headers).toHaveProperty('Retry-After');
    expect(document.components.responses.ServiceUnavailable!.headers).toHaveProperty('Retry-After');
  });
});

describe('another method on a contract path', () => {
  it('is a JSON 405 with Allow: POST, never the web app’s page', async () => {
    for (const name of ['user.login', 'earning.view_all_earning_history', 'deposit.make_payment'] as const) {
      const path = contract[name].path;
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
        const answer = await inject({ method, url: path });
        expect(answer.statusCode, `${method} ${path}`).toBe(405);
        expect(answer.headers.allow).toBe('POST');
        expect(answer.headers['content-type']).toBe('application/json');
        expect(answer.json()).toEqual({
          Error: `${method} is not allowed on ${path}: use POST`,
          Code: 'METHOD_NOT_ALLOWED',
        });
      }
    }
  });
});
