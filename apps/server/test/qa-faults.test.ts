import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MALFORMED_BODY, seededRandom } from '../src/modules/qa/faults.ts';
import { createTestApp, type TestApp } from './helpers.ts';

interface Rule {
  id: string;
  path: string;
  procedure: string;
  remaining?: number;
  applied: number;
}
interface Entry {
  procedure: string;
  transport: string;
  status: number | null;
  member: string | null;
  fault: { id: string; effect: string; delayMs: number } | null;
  outcome?: string;
  pending: boolean;
}

const SEED = 20260;
let t: TestApp;
let token: string;
beforeAll(async () => {
  // Rate limits off: the probability tests call one endpoint many times from one address.
  t = await createTestApp({ seed: 'demo', random: seededRandom(SEED), config: { rateLimits: false } });
  token = await t.login('demo');
});
afterAll(() => t.close());
afterEach(async () => {
  await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
});

const addRule = async (rule: unknown) => {
  const reply = await t.post<Rule & { Error?: string }>('/__qa/faults', rule);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};
const rules = async () => (await t.get<Rule[]>('/__qa/faults')).body;
const lastEntry = async () => (await t.get<Entry[]>('/__qa/journal?limit=1')).body[0]!;

/** A raw REST call (the helper's post parses JSON, which malformed and empty answers are not). */
const rest = (url: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  t.fastify.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    payload: JSON.stringify(body),
  });
const trpcGet = (procedures: string, input: unknown, headers: Record<string, string> = {}) =>
  t.fastify.inject({
    method: 'GET',
    url: `/trpc/${procedures}?input=${encodeURIComponent(JSON.stringify(input))}`,
    headers: { authorization: `Bearer ${token}`, ...headers },
  });

describe('fault rules: effects', () => {
  it('a status answers the provider envelope { Error } with the given or a default message, on REST and tRPC; the handler does not run', async () => {
    const rule = await addRule({ path: '/user/view_profile', status: 503, error: 'Provider down' });
    expect(rule).toMatchObject({
      id: expect.stringMatching(/^f\d+$/),
      path: '/user/view_profile',
      procedure: 'user.view_profile',
      status: 503,
      error: 'Provider down',
      probability: 1,
      applied: 0,
    });
    expect(await t.post('/user/view_profile', {}, { token })).toMatchObject({
      status: 503,
      body: { Error: 'Provider down' },
    });
    const rpc = await t.trpc('user.view_profile', 'query', {}, token);
    expect(rpc.status).toBe(503); // SERVICE_UNAVAILABLE: the same status as REST
    expect((rpc.body as { error: { message: string } }).error.message).toBe('Provider down');
    expect((await rules())[0]!.applied).toBe(2);

    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
    await addRule({ path: '/user/view_profile', status: 502 });
    expect(await t.post('/user/view_profile', {}, { token })).toMatchObject({
      status: 502,
      body: { Error: 'Bad Gateway' },
    });
    // error alone is a 500
    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
    await addRule({ path: '/rank/current_rank', error: 'Boom' });
    expect(await t.post('/rank/current_rank', {}, { token })).toMatchObject({
      status: 500,
      body: { Error: 'Boom' },
    });

    // A faulted mutation changes nothing: the purchase never reaches its handler.
    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
    await addRule({ path: '/subscription/buy_subscription_packages', status: 500 });
    const subscriptions = t.count('subscriptions');
    const transfers = t.count('transfers');
    expect(
      (await t.post('/subscription/buy_subscription_packages', { plan: 'Silver' }, { token })).status,
    ).toBe(500);
    expect([t.count('subscriptions'), t.count('transfers')]).toEqual([subscriptions, transfers]);
  });

  it('a body override answers that JSON (200 or the given status) on REST, and the same data over tRPC', async () => {
    await addRule({ path: '/rank/current_rank', body: { Success: { Rank: 'Diamond', Extra: [1, 2] } } });
    expect(await t.post('/rank/current_rank', {}, { token })).toEqual({
      status: 200,
      body: { Success: { Rank: 'Diamond', Extra: [1, 2] } },
    });
    const rpc = await t.trpc('rank.current_rank', 'query', {}, token);
    expect(rpc).toEqual({
      status: 200,
      body: { result: { data: { Success: { Rank: 'Diamond', Extra: [1, 2] } } } },
    });

    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
    await addRule({ path: '/rank/current_rank', status: 422, body: { error: 'lower-case error field' } });
    expect(await t.post('/rank/current_rank', {}, { token })).toEqual({
      status: 422,
      body: { error: 'lower-case error field' },
    });
    expect((await t.trpc('rank.current_rank', 'query', {}, token)).body).toMatchObject({
      error: { message: 'lower-case error field' },
    });

    // Any JSON value, e.g. a bare string or null, goes out as JSON.
    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
    await addRule({ path: '/rank/current_rank', body: null });
    const raw = await rest('/rank/current_rank');
    expect([raw.statusCode, raw.body]).toEqual([200, 'null']);
  });

  it('a fixed delay waits at least that long, then answers normally', async () => {
    await addRule({ path: '/rank/current_rank', delayMs: 150 });
    const started = performance.now();
    const reply = await t.post<{ Success: { Rank: string } }>('/rank/current_rank', {}, { token });
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect(reply.status).toBe(200);
    expect(typeof reply.body.Success.Rank).toBe('string');
    expect((await lastEntry()).fault).toEqual({ id: expect.any(String), effect: 'pass', delayMs: 150 });
  });

  it('a random delay draws from { min, max } with the injected generator and waits at least the drawn time', async () => {
    await t.post('/__qa/faults/seed', { seed: 7 });
    const expected = seededRandom(7);
    await addRule({ path: '/user/view_country', delay: { min: 20, max: 80 } });
    for (let i = 0; i < 4; i++) {
      const want = 20 + Math.floor(expected() * 61);
      const started = performance.now();
      expect((await t.post('/user/view_country', {})).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(want - 5);
      const entry = await lastEntry();
      expect(entry.fault!.delayMs).toBe(want);
      expect(want).toBeGreaterThanOrEqual(20);
      expect(want).toBeLessThanOrEqual(80);
    }
  });

  it('an empty answer is a 200 (or the given status) with no body, on REST and for a whole tRPC request', async () => {
    await addRule({ path: '/rank/current_rank', empty: true });
    const reply = await rest('/rank/current_rank');
    expect([reply.statusCode, reply.body, reply.headers['content-type']]).toMatchObject([
      200,
      '',
      'application/json',
    ]);
    const rpc = await trpcGet('rank.current_rank', {});
    expect([rpc.statusCode, rpc.body]).toEqual([200, '']);

    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
    await addRule({ path: '/rank/current_rank', empty: true, status: 504 });
    const withStatus = await rest('/rank/current_rank');
    expect([withStatus.statusCode, withStatus.body]).toEqual([504, '']);
  });

  it('a malformed answer is JSON cut short, on REST and for a whole tRPC batch that contains the call', async () => {
    await addRule({ path: '/rank/current_rank', malformed: true });
    const reply = await rest('/rank/current_rank');
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toBe(MALFORMED_BODY);
    expect(() => JSON.parse(reply.body)).toThrow();
    const batch = await t.fastify.inject({
      method: 'GET',
      url: `/trpc/user.view_profile,rank.current_rank?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: {}, 1: {} }))}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(batch.body).toBe(MALFORMED_BODY);
  });

  it('a drop destroys the connection without an answer, on REST and tRPC, and journals it', async () => {
    await addRule({ path: '/rank/current_rank', drop: true });
    await expect(rest('/rank/current_rank')).rejects.toThrow(/destroyed before completion/);
    expect(await lastEntry()).toMatchObject({
      procedure: 'rank.current_rank',
      transport: 'rest',
      status: null,
      outcome: 'dropped',
      pending: false,
      fault: { effect: 'drop' },
    });
    await expect(trpcGet('rank.current_rank', {})).rejects.toThrow(/destroyed before completion/);
    expect(await lastEntry()).toMatchObject({ transport: 'trpc', status: null, outcome: 'dropped' });
    // The server is fine afterwards.
    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
    expect((await t.post('/rank/current_rank', {}, { token })).status).toBe(200);
  });

  it('applies to the deposit host endpoint as well', async () => {
    await addRule({ path: '/deposit/make_payment', status: 503, error: 'Gateway down' });
    const deposits = t.count('deposits');
    expect(
      await t.post('/deposit/make_payment', { amount_usdt: 25, currency: 'USDT.BEP20' }, { token }),
    ).toMatchObject({ status: 503, body: { Error: 'Gateway down' } });
    expect(t.count('deposits')).toBe(deposits);
  });

  it('never applies to /__qa, /config.json or other routes, even for path "*"', async () => {
    await addRule({ path: '*', status: 500, error: 'Everything is down' });
    expect((await t.get('/__qa/clock')).status).toBe(200);
    expect((await t.get('/config.json')).status).toBe(200);
    expect((await t.get('/captcha/challenge')).status).toBe(200);
    expect(await t.post('/user/view_country', {})).toMatchObject({
      status: 500,
      body: { Error: 'Everything is down' },
    });
    expect(await t.post('/rank/current_rank', {}, { token })).toMatchObject({
      status: 500,
      body: { Error: 'Everything is down' },
    });
    expect((await rules())[0]).toMatchObject({ path: '*', procedure: '*', applied: 2 });
  });
});

describe('fault rules: matching', () => {
  it('a REST path rule also hits the same procedure over tRPC, and a procedure-name rule hits REST', async () => {
    await addRule({ path: '/wallet/view_all_wallets_details', status: 500, error: 'by path' });
    expect((await t.trpc('wallet.view_all_wallets_details', 'query', {}, token)).body).toMatchObject({
      error: { message: 'by path' },
    });
    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
    const rule = await addRule({ path: 'wallet.view_all_wallets_details', status: 500, error: 'by name' });
    expect(rule.path).toBe('/wallet/view_all_wallets_details');
    expect((await t.post('/wallet/view_all_wallets_details', {}, { token })).body).toMatchObject({
      Error: 'by name',
    });
    // Other endpoints are untouched, and in a batch only the faulted call fails.
    const batch = await t.fastify.inject({
      method: 'GET',
      url: `/trpc/rank.current_rank,wallet.view_all_wallets_details?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: {}, 1: {} }))}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const items = batch.json() as [{ result?: { data: unknown } }, { error?: { message: string } }];
    expect(items[0].result?.data).toMatchObject({ Success: { Rank: expect.any(String) } });
    expect(items[1].error?.message).toBe('by name');
  });

  it('matches a member by the token, or by the username a sign-in names; other members pass', async () => {
    await addRule({ path: '/user/view_profile', member: 'DEMO', status: 500, error: 'only demo' });
    expect(await t.post('/user/view_profile', {}, { token })).toMatchObject({
      status: 500,
      body: { Error: 'only demo' },
    });
    // The token in the body (the provider's jwt field) counts too.
    expect((await t.post('/user/view_profile', { jwt: token })).body).toMatchObject({ Error: 'only demo' });
    const other = await t.login('gonzalo_001');
    expect((await t.post('/user/view_profile', {}, { token: other })).status).toBe(200);
    expect((await t.post('/user/view_profile', {})).status).toBe(401);

    await addRule({ path: '/user/login', member: 'gonzalo_001', status: 503 });
    expect(
      (await t.post('/user/login', { username: 'Gonzalo_001', password: 'Demo@1234' }, { ip: '10.9.0.1' }))
        .status,
    ).toBe(503);
    expect(
      (await t.post('/user/login', { username: 'demo', password: 'Demo@1234' }, { ip: '10.9.0.2' })).status,
    ).toBe(200);
    expect(await lastEntry()).toMatchObject({
      procedure: 'user.login',
      member: 'demo',
      fault: null,
      status: 200,
    });
  });

  it('probability draws from the seeded generator; 0 never fires; POST /__qa/faults/seed replays a sequence', async () => {
    await t.post('/__qa/faults/seed', { seed: 99 });
    await addRule({ path: '/user/view_country', probability: 0.4, status: 500 });
    const outcomes: number[] = [];
    for (let i = 0; i < 30; i++) outcomes.push((await t.post('/user/view_country', {})).status);
    const expected = seededRandom(99);
    expect(outcomes).toEqual(Array.from({ length: 30 }, () => (expected() < 0.4 ? 500 : 200)));
    expect(outcomes).toContain(500);
    expect(outcomes).toContain(200);

    await t.post('/__qa/faults/seed', { seed: 99 });
    const replay: number[] = [];
    for (let i = 0; i < 30; i++) replay.push((await t.post('/user/view_country', {})).status);
    expect(replay).toEqual(outcomes);

    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
    await addRule({ path: '/user/view_country', probability: 0, status: 500 });
    for (let i = 0; i < 10; i++) expect((await t.post('/user/view_country', {})).status).toBe(200);
  });

  it('a rule that does not fire lets the next matching rule try', async () => {
    await addRule({ path: '/user/view_country', probability: 0, status: 500, error: 'first' });
    await addRule({ path: '/user/view_country', status: 500, error: 'second' });
    expect((await t.post('/user/view_country', {})).body).toMatchObject({ Error: 'second' });
  });

  it('times: the next N applications, then the rule is used up and leaves the list', async () => {
    const rule = await addRule({ path: '/rank/current_rank', status: 500, times: 2 });
    expect(rule.remaining).toBe(2);
    expect((await t.post('/rank/current_rank', {}, { token })).status).toBe(500);
    expect((await rules()).find((r) => r.id === rule.id)).toMatchObject({ remaining: 1, applied: 1 });
    expect((await t.post('/rank/current_rank', {}, { token })).status).toBe(500);
    expect(await rules()).toEqual([]);
    expect((await t.post('/rank/current_rank', {}, { token })).status).toBe(200);
  });

  it('lists, deletes one by id (404 for an unknown id) and deletes all', async () => {
    const a = await addRule({ path: '/rank/current_rank', status: 500 });
    const b = await addRule({ path: '/rank/view_all_ranks', delayMs: 10 });
    expect((await rules()).map((r) => r.id)).toEqual([a.id, b.id]);
    expect((await t.fastify.inject({ method: 'DELETE', url: `/__qa/faults/${a.id}` })).json()).toEqual({
      deleted: 1,
    });
    expect((await rules()).map((r) => r.id)).toEqual([b.id]);
    const missing = await t.fastify.inject({ method: 'DELETE', url: `/__qa/faults/${a.id}` });
    expect([missing.statusCode, typeof missing.json().Error]).toEqual([404, 'string']);
    expect((await t.post('/rank/current_rank', {}, { token })).status).toBe(200);
    await addRule({ path: '/rank/current_rank', status: 500 });
    expect((await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' })).json()).toEqual({
      deleted: 2,
    });
    expect(await rules()).toEqual([]);
  });
});

describe('X-QA-Fault: a rule for one request', () => {
  it('applies to the request that carries it only, on REST and tRPC, without a stored rule', async () => {
    const faulted = await rest(
      '/rank/current_rank',
      {},
      { 'x-qa-fault': JSON.stringify({ status: 500, error: 'Boom' }) },
    );
    expect([faulted.statusCode, faulted.json()]).toMatchObject([500, { Error: 'Boom' }]);
    expect((await lastEntry()).fault).toMatchObject({ id: 'header', effect: 'error' });
    expect((await rest('/rank/current_rank')).statusCode).toBe(200);
    const rpc = await trpcGet(
      'rank.current_rank',
      {},
      { 'X-QA-Fault': '{"body":{"Success":{"Rank":"Header"}}}' },
    );
    expect(rpc.json()).toEqual({ result: { data: { Success: { Rank: 'Header' } } } });
    const malformed = await rest('/rank/current_rank', {}, { 'x-qa-fault': '{"malformed":true}' });
    expect(malformed.body).toBe(MALFORMED_BODY);
    expect(await rules()).toEqual([]);
  });

  it('wins over stored rules and honours member', async () => {
    await addRule({ path: '/rank/current_rank', status: 500, error: 'stored' });
    expect(
      (await rest('/rank/current_rank', {}, { 'x-qa-fault': '{"status":503,"error":"header"}' })).json(),
    ).toMatchObject({ Error: 'header' });
    expect(
      (
        await rest(
          '/rank/current_rank',
          {},
          { 'x-qa-fault': '{"status":503,"error":"header","member":"someone_else"}' },
        )
      ).json(),
    ).toMatchObject({ Error: 'stored' });
  });

  it('a bad header is a 400 naming the problem, and the request does nothing else', async () => {
    const subscriptions = t.count('subscriptions');
    for (const [header, message] of [
      ['not json', /not valid JSON/],
      ['{"status":"x"}', /status/],
      ['{"path":"/user/login","status":500}', /Unrecognized key/],
      ['{"times":2,"status":500}', /Unrecognized key/],
      ['{"hang":true,"drop":true}', /Choose one/],
      ['{}', /needs an effect/],
    ] as const) {
      const reply = await rest(
        '/subscription/buy_subscription_packages',
        { plan: 'Silver' },
        { 'x-qa-fault': header },
      );
      expect(reply.statusCode, header).toBe(400);
      expect(reply.json().Error, header).toMatch(/^X-QA-Fault/);
      expect(reply.json().Error, header).toMatch(message);
    }
    expect(t.count('subscriptions')).toBe(subscriptions);
  });
});

describe('bad rule bodies', () => {
  it('are a 400 with a clear Error and add nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /path is required/],
      [{ path: '/nope', status: 500 }, /Unknown endpoint '\/nope'/],
      [{ path: '/user/login' }, /needs an effect/],
      [{ path: '/user/login', status: 99 }, /200–599/],
      [{ path: '/user/login', status: 600 }, /200–599/],
      [{ path: '/user/login', status: 200 }, /below 400 needs body/],
      [{ path: '/user/login', status: 201, error: 'x' }, /below 400 needs body/],
      [{ path: '/user/login', error: '' }, /error must not be empty/],
      [{ path: '/user/login', error: 'x', body: {} }, /Choose one/],
      [{ path: '/user/login', hang: true, drop: true }, /Choose one/],
      [{ path: '/user/login', hang: true, delayMs: 10 }, /hang never answers/],
      [{ path: '/user/login', drop: true, status: 500 }, /status has no meaning with drop/],
      [{ path: '/user/login', delayMs: 5, delay: { min: 1, max: 2 } }, /either delayMs/],
      [{ path: '/user/login', delay: { min: 9, max: 2 } }, /delay.min must not be above/],
      [{ path: '/user/login', delay: { min: 1 } }, /delays are numbers/],
      [{ path: '/user/login', delayMs: -1 }, /cannot be negative/],
      [{ path: '/user/login', delayMs: 1.5 }, /whole milliseconds/],
      [{ path: '/user/login', delayMs: 10_000_000 }, /at most/],
      [{ path: '/user/login', status: 500, probability: 2 }, /probability/],
      [{ path: '/user/login', status: 500, times: 0 }, /times must be at least 1/],
      [{ path: '/user/login', status: 500, member: '' }, /member/],
      [{ path: '/user/login', status: 500, hang: 'yes' }, /hang must be true or false/],
      [{ path: '/user/login', status: 500, statuss: 1 }, /Unrecognized key/],
      [[{ path: '/user/login', status: 500 }], /JSON object/],
    ];
    for (const [body, message] of cases) {
      const reply = await t.post<{ Error: string }>('/__qa/faults', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.Error, JSON.stringify(body)).toMatch(message);
    }
    expect((await t.post('/__qa/faults', undefined, { raw: '{"path":' })).status).toBe(400);
    const noBody = await t.fastify.inject({ method: 'POST', url: '/__qa/faults' });
    expect(noBody.statusCode).toBe(400);
    expect((await t.post('/__qa/faults/seed', { seed: 'x' })).status).toBe(400);
    expect(await rules()).toEqual([]);
  });
});

describe('hang, drop and close over a real connection', () => {
  it('a hang answers nothing until the client gives up; a drop resets the socket; close() ends held calls', async () => {
    const app = await createTestApp({ seed: 'empty' });
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.fastify.server.address() as { port: number }).port}`;
    const call = (path: string, signal?: AbortSignal) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        ...(signal ? { signal } : {}),
      });
    const journal = async () => (await app.get<Entry[]>('/__qa/journal')).body;
    try {
      await app.post('/__qa/faults', { path: '/user/view_country', hang: true });
      const controller = new AbortController();
      const started = performance.now();
      setTimeout(() => controller.abort(), 300);
      await expect(call('/user/view_country', controller.signal)).rejects.toThrow(/abort/i);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      // The server hears of the client's close when its event loop gets to the socket: on a busy
      // machine, later than the default poll's second.
      await expect
        .poll(async () => (await journal())[0], { timeout: 10_000 })
        .toMatchObject({
          procedure: 'user.view_country',
          status: null,
          pending: false,
          outcome: 'client closed',
          fault: { effect: 'hang' },
        });

      // Over tRPC the same rule hangs the procedure.
      const trpcController = new AbortController();
      setTimeout(() => trpcController.abort(), 100);
      await expect(
        fetch(`${base}/trpc/user.view_country?input=%7B%7D`, { signal: trpcController.signal }),
      ).rejects.toThrow(/abort/i);
      await expect
        .poll(async () => (await journal())[0])
        .toMatchObject({ transport: 'trpc', outcome: 'client closed' });

      await app.post('/__qa/faults', { path: '/user/check_username_available', drop: true });
      await expect(call('/user/check_username_available')).rejects.toThrow(/fetch failed/);

      // A hung and a delayed call are outstanding when the server closes: close() still finishes.
      await app.post('/__qa/faults', { path: '/user/forgot_username', delayMs: 120_000 });
      const hung = call('/user/view_country').then(
        () => 'answered',
        () => 'failed',
      );
      const delayed = call('/user/forgot_username').then(
        () => 'answered',
        () => 'failed',
      );
      await expect
        .poll(async () => (await journal()).filter((e) => e.pending).length, { timeout: 10_000 })
        .toBe(2);
      await app.close();
      expect(await hung).toBe('failed');
      expect(await delayed).toBe('failed');
      expect(app.fastify.server.listening).toBe(false);
    } finally {
      await app.close();
    }
  }, 30_000);
});
