/**
 * The provider gateway end to end: two instances of this server on loopback, one
 * playing the provider (its fault rules with `body` make drifted answers), the other with
 * PROVIDER_URL at it. Calls reach the gateway over real HTTP, as the client's would.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { members } from '@md/db';
import { buildApp, type App, type BuildOptions } from '../src/app.ts';
import { CONFIG_MESSAGES, startConfig } from '../src/config.ts';
import { manualClock } from '../src/core/clock.ts';
import { solveCaptcha } from './helpers.ts';

interface Answer {
  status: number;
  text: string;
  type: string | null;
  json: unknown;
}

async function post(
  base: string,
  path: string,
  body: unknown = {},
  token?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, type: response.headers.get('content-type'), json };
}
const get = async <T = unknown>(base: string, path: string): Promise<{ status: number; body: T }> => {
  const response = await fetch(`${base}${path}`);
  return { status: response.status, body: (await response.json()) as T };
};
const del = (base: string, path: string) => fetch(`${base}${path}`, { method: 'DELETE' });
/** A tRPC query over HTTP, as the web app's httpBatchLink sends one call. */
async function trpcQuery(base: string, name: string, input: unknown, token?: string) {
  const response = await fetch(`${base}/trpc/${name}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      result?: { data: unknown };
      error?: { message: string; data: { httpStatus: number } };
    },
  };
}

interface JournalRow {
  procedure: string;
  status: number | null;
  source: string | null;
  providerMs: number | null;
  member: string | null;
  fault: { id: string } | null;
  responseBody: unknown;
}
const journal = async (base: string, path: string) =>
  (await get<JournalRow[]>(base, `/__qa/journal?path=${encodeURIComponent(path)}&limit=5`)).body;

const started: App[] = [];
async function start(options: BuildOptions): Promise<{ app: App; url: string }> {
  const app = await buildApp({
    databasePath: ':memory:',
    clock: manualClock(),
    config: { rateLimits: false },
    ...options,
  });
  started.push(app);
  return { app, url: await app.fastify.listen({ port: 0, host: '127.0.0.1' }) };
}
afterAll(async () => {
  // Some were closed by their test (a provider gone): allSettled.
  await Promise.allSettled(started.map((app) => app.fastify.close()));
});

let provider: { app: App; url: string };
let gateway: { app: App; url: string };
/** A session token the provider signed (obtained through the gateway). */
let token: string;

beforeAll(async () => {
  provider = await start({ seed: 'demo', jwtSecret: 'provider-secret' });
  gateway = await start({
    seed: 'empty',
    jwtSecret: 'gateway-secret',
    provider: { url: provider.url, timeoutMs: 5_000 },
  });
  const login = await post(gateway.url, '/user/login', { username: 'demo', password: 'Demo@1234' });
  expect(login.status).toBe(200);
  token = (login.json as { JWT: string }).JWT;
});

describe('pass-through', () => {
  it('answers REST calls with the provider’s status, content type and bytes, unchanged', async () => {
    for (const [path, body, auth] of [
      ['/user/view_profile', {}, true],
      ['/wallet/view_all_wallets_details', {}, true],
      ['/user/view_country', {}, false],
      ['/user/view_profile', {}, false], // 401 Invalid Authentication
      ['/level/view_downline', { username: '' }, true], // 400
    ] as const) {
      const direct = await post(provider.url, path, body, auth ? token : undefined);
      const through = await post(gateway.url, path, body, auth ? token : undefined);
      expect(through.status, path).toBe(direct.status);
      expect(through.type, path).toBe(direct.type);
      expect(through.text, path).toBe(direct.text);
    }
    // The gateway's own database knows nobody: the answer can only have come from the provider.
    expect((await post(gateway.url, '/user/view_profile', {}, token)).json).toMatchObject({
      Success: [{ Username: 'demo' }],
    });
  });

  it('passes a drifted answer through byte for byte (a gateway never edits an answer)', async () => {
    const drifted = '{"Success":[{"Username":"demo","Side":"L","Extra":1}],"note":"é"}';
    await post(provider.url, '/__qa/faults', {
      path: '/user/view_profile',
      body: JSON.parse(drifted),
      status: 207,
      times: 1,
    });
    const through = await post(gateway.url, '/user/view_profile', {}, token);
    expect(through.status).toBe(207);
    expect(through.text).toBe(JSON.stringify(JSON.parse(drifted)));
  });

  it('answers tRPC calls with the provider’s answer as the result, and its errors as the same tRPC errors', async () => {
    const direct = await post(provider.url, '/wallet/view_all_wallets_details', {}, token);
    const viaTrpc = await trpcQuery(gateway.url, 'wallet.view_all_wallets_details', {}, token);
    expect(viaTrpc.status).toBe(200);
    expect(viaTrpc.body.result?.data).toEqual(direct.json);

    const refused = await trpcQuery(gateway.url, 'user.view_profile', {}, 'not-a-token');
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({
      message: 'Invalid Authentication',
      data: { httpStatus: 401 },
    });

    await post(provider.url, '/__qa/faults', {
      path: '/rank/current_rank',
      status: 500,
      error: 'Provider broke',
      times: 1,
    });
    const broken = await trpcQuery(gateway.url, 'rank.current_rank', {}, token);
    expect(broken.body.error).toMatchObject({ message: 'Provider broke', data: { httpStatus: 500 } });
  });

  it('journals every forwarded call with its source, the provider’s status and latency', async () => {
    await post(gateway.url, '/rank/current_rank', {}, token);
    const [entry] = await journal(gateway.url, '/rank/current_rank');
    expect(entry).toMatchObject({
      source: 'provider',
      status: 200,
      member: 'demo',
      responseBody: { Success: expect.anything() },
    });
    expect(entry!.providerMs).toEqual(expect.any(Number));
  });

  it('turns a body that is not JSON into a provider-shaped 502, and journals it', async () => {
    await post(provider.url, '/__qa/faults', { path: '/rank/view_all_ranks', malformed: true, times: 1 });
    const malformed = await post(gateway.url, '/rank/view_all_ranks', {}, token);
    expect(malformed.status).toBe(502);
    expect((malformed.json as { Error: string }).Error).toMatch(
      /^The provider answered \/rank\/view_all_ranks with HTTP 200 and a body that is not JSON/,
    );

    await post(provider.url, '/__qa/faults', {
      path: '/rank/view_all_ranks',
      empty: true,
      status: 200,
      times: 1,
    });
    const empty = await post(gateway.url, '/rank/view_all_ranks', {}, token);
    expect(empty.status).toBe(502);
    expect((empty.json as { Error: string }).Error).toContain('an empty body');
    const [entry] = await journal(gateway.url, '/rank/view_all_ranks');
    expect(entry).toMatchObject({
      source: 'provider',
      status: 502,
      responseBody: { Error: expect.stringContaining('an empty body') },
    });
  });

  it('answers 504 when the provider does not answer in time, and 502 when it cannot be reached', async () => {
    const impatient = await start({ seed: 'empty', provider: { url: provider.url, timeoutMs: 200 } });
    await post(provider.url, '/__qa/faults', { path: '/rank/current_rank', hang: true, times: 1 });
    const late = await post(impatient.url, '/rank/current_rank', {}, token);
    expect(late.status).toBe(504);
    expect(late.json).toMatchObject({
      Error: 'The provider did not answer /rank/current_rank within 200 ms',
    });
    expect((await journal(impatient.url, '/rank/current_rank'))[0]).toMatchObject({
      source: 'provider',
      status: 504,
      providerMs: expect.any(Number),
    });
    // Over tRPC the same message and status, as the error the client reads (GATEWAY_TIMEOUT).
    await post(provider.url, '/__qa/faults', { path: '/rank/current_rank', hang: true, times: 1 });
    const lateTrpc = await trpcQuery(impatient.url, 'rank.current_rank', {}, token);
    expect(lateTrpc.body.error?.message).toBe('The provider did not answer /rank/current_rank within 200 ms');
    expect(lateTrpc.body.error?.data).toMatchObject({ httpStatus: 504, code: 'GATEWAY_TIMEOUT' });

    // A port nothing listens on (one that was just closed).
    const closed = await start({ seed: 'empty' });
    await closed.app.fastify.close();
    const nowhere = await start({ seed: 'empty', provider: { url: closed.url } });
    const refused = await post(nowhere.url, '/user/view_country', {});
    expect(refused.status).toBe(502);
    expect((refused.json as { Error: string }).Error).toBe(
      'The provider could not be reached for /user/view_country (ECONNREFUSED)',
    );
    expect((await journal(nowhere.url, '/user/view_country'))[0]).toMatchObject({
      source: 'provider',
      status: 502,
    });
  });

  it('serves the provider’s captcha challenge while forgot_username goes to the provider, else its own', async () => {
    const forgot = async () =>
      post(gateway.url, '/user/forgot_username', {
        email: 'demo@example.com',
        captcha: await solveCaptcha((path) => get(gateway.url, path) as never),
      });
    // Solved from the gateway's challenge, checked by the provider: accepted.
    const answer = await forgot();
    expect(answer.status, answer.text).toBe(200);
    // Routed to the stand-in, the stand-in signs and checks it.
    await post(gateway.url, '/__qa/routing', { path: 'user.forgot_username', target: 'mock' });
    try {
      expect((await forgot()).status).toBe(200);
    } finally {
      await post(gateway.url, '/__qa/routing', { path: 'user.forgot_username', target: 'provider' });
    }
  });

  it('passes a burst of 50 concurrent calls, each answer matched to its own request', async () => {
    const pages = Array.from({ length: 50 }, (_, i) => i + 1);
    const answers = await Promise.all(
      pages.map((page) =>
        post(gateway.url, '/level/view_downline_page', { username: 'demo', page, per_page: 1 }, token),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(pages.map(() => 200));
    expect(answers.map((a) => (a.json as { Success: { Page: number } }).Success.Page)).toEqual(pages);
  });
});

describe('faults, latency and the journal on top', () => {
  it('applies the gateway’s fault rules whatever answers, a member rule matching the provider’s member', async () => {
    const rule = await post(gateway.url, '/__qa/faults', {
      path: '/user/view_profile',
      member: 'demo',
      status: 503,
      error: 'Gateway says no',
      times: 1,
    });
    expect(rule.status).toBe(201);
    const before = (await get<unknown[]>(provider.url, '/__qa/journal?path=/user/view_profile&limit=500'))
      .body.length;
    const faulted = await post(gateway.url, '/user/view_profile', {}, token);
    expect(faulted).toMatchObject({ status: 503, json: { Error: 'Gateway says no' } });
    // The fault answered alone: the provider was not asked.
    expect(
      (await get<unknown[]>(provider.url, '/__qa/journal?path=/user/view_profile&limit=500')).body.length,
    ).toBe(before);
    expect((await journal(gateway.url, '/user/view_profile'))[0]).toMatchObject({
      status: 503,
      source: null,
      fault: { id: expect.any(String) },
    });

    // A latency rule waits, then the provider answers.
    await post(gateway.url, '/__qa/faults', { path: '/user/view_profile', delayMs: 20, times: 1 });
    expect((await post(gateway.url, '/user/view_profile', {}, token)).json).toMatchObject({
      Success: [{ Username: 'demo' }],
    });
    expect((await journal(gateway.url, '/user/view_profile'))[0]).toMatchObject({
      status: 200,
      source: 'provider',
      fault: { effect: 'pass' },
    });
  });
});

describe('routing per endpoint', () => {
  it('lists every contract endpoint with its target, provider by default with PROVIDER_URL', async () => {
    const { body } = await get<{
      default: string;
      endpoints: { path: string; procedure: string; target: string }[];
    }>(gateway.url, '/__qa/routing');
    expect(body.default).toBe('provider');
    expect(body.endpoints.length).toBeGreaterThan(40);
    expect(body.endpoints.every((e) => e.target === 'provider')).toBe(true);
    expect(body.endpoints).toContainEqual({
      path: '/user/view_profile',
      procedure: 'user.view_profile',
      target: 'provider',
    });
    // Without PROVIDER_URL, everything is the stand-in's.
    const standalone = await start({ seed: 'empty' });
    const { body: mock } = await get<{ default: string; endpoints: { target: string }[] }>(
      standalone.url,
      '/__qa/routing',
    );
    expect(mock.default).toBe('mock');
    expect(mock.endpoints.every((e) => e.target === 'mock')).toBe(true);
    expect(await post(standalone.url, '/__qa/routing', { path: '*', target: 'provider' })).toMatchObject({
      status: 400,
      json: { Error: 'PROVIDER_URL is not set: there is no provider to route to' },
    });
  });

  it('refuses bad input with a clear 400 and changes nothing', async () => {
    const before = (await get(gateway.url, '/__qa/routing')).body;
    for (const [body, message] of [
      [{ path: '/no/such', target: 'mock' }, "Unknown endpoint '/no/such'"],
      [
        { path: '/user/view_profile', target: 'elsewhere' },
        "target must be 'provider', 'mock' or 'recording:<name>'",
      ],
      [
        { path: '/user/view_profile', target: 'recording:../etc' },
        "target must be 'provider', 'mock' or 'recording:<name>'",
      ],
      [{ path: '/user/view_profile', target: 'recording:never-made' }, "No recording named 'never-made'"],
      [{ path: '/user/view_profile' }, 'target is required'],
      [{ path: '*', target: 'mock', extra: 1 }, 'Unrecognized key'],
      [[], 'The body must be a JSON object'],
    ] as const) {
      const answer = await post(gateway.url, '/__qa/routing', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.json as { Error: string }).Error, JSON.stringify(body)).toContain(message);
    }
    expect((await get(gateway.url, '/__qa/routing')).body).toEqual(before);
  });

  it('answers a mock-routed call for a member signed in at the provider as its shadow member, which QA can fund', async () => {
    const wallets = '/wallet/view_all_wallets_details';
    const routed = await post(gateway.url, '/__qa/routing', { path: wallets, target: 'mock' });
    expect(routed.status).toBe(200);
    expect(
      (routed.json as { endpoints: { path: string; target: string }[] }).endpoints.find(
        (e) => e.path === wallets,
      )?.target,
    ).toBe('mock');
    await post(gateway.url, '/__qa/routing', { path: 'deposit.make_payment', target: 'mock' });
    const member = () =>
      gateway.app.services.sqlite
        .prepare(
          "select username, password_hash as hash, sponsor_id as sponsor from members where username = 'demo'",
        )
        .get() as { username: string; hash: string; sponsor: number | null } | undefined;
    expect(member()).toBeUndefined();

    const mine = await post(gateway.url, wallets, {}, token);
    expect(mine.status).toBe(200);
    const balances = (mine.json as { Success: Record<string, { Available: number }> }).Success;
    expect(Object.values(balances).every((w) => w.Available === 0)).toBe(true);
    // Created on first sight, as a root of its own, with no password that can sign in at the stand-in.
    expect(member()).toMatchObject({ username: 'demo', sponsor: null });
    expect((await journal(gateway.url, wallets))[0]).toMatchObject({
      source: 'mock',
      member: 'demo',
      status: 200,
    });
    // The body token works as the bearer does.
    expect((await post(gateway.url, wallets, { jwt: token })).status).toBe(200);

    // QA funds it: a deposit window at the stand-in, paid through /__qa.
    const window = await post(
      gateway.url,
      '/deposit/make_payment',
      { amount_usdt: 50, currency: 'USDT.BEP20', gateway: 'nowpayments' },
      token,
    );
    expect(window.status).toBe(200);
    const transId = (window.json as { Success: { TransID: string } }).Success.TransID;
    expect((await post(gateway.url, `/__qa/deposits/${transId}/pay`, {})).status).toBe(200);
    const funded = (await post(gateway.url, wallets, {}, token)).json as {
      Success: Record<string, { Available: number }>;
    };
    expect(Math.max(...Object.values(funded.Success).map((w) => w.Available))).toBe(50);
    // The provider's own member is untouched: provider-routed calls still see the provider's figures.
    expect((await post(gateway.url, '/__qa/routing', { path: wallets, target: 'provider' })).status).toBe(
      200,
    );
    expect((await post(gateway.url, wallets, {}, token)).text).toBe(
      (await post(provider.url, wallets, {}, token)).text,
    );
    await post(gateway.url, '/__qa/routing', { path: '*', target: 'provider' });
  });

  it('knows a provider token it never saw only once the provider vouches for it, and never an unknown one', async () => {
    await post(gateway.url, '/__qa/routing', { path: '/rank/current_rank', target: 'mock' });
    try {
      // Signed in directly at the provider: the gateway asks the provider whose it is (a profile read).
      const direct = (
        await post(provider.url, '/user/login', {
          username: 'demo2fa',
          password: 'Demo@1234',
          totp: (await get<{ code: string }>(provider.url, '/__qa/totp/demo2fa')).body.code,
        })
      ).json as { JWT: string };
      const known = await post(gateway.url, '/rank/current_rank', {}, direct.JWT);
      expect(known.status).toBe(200);
      expect((await journal(gateway.url, '/rank/current_rank'))[0]).toMatchObject({
        source: 'mock',
        member: 'demo2fa',
      });

      // A token nobody signed: refused as the stand-in refuses any bad token, and no member appears.
      const count = () =>
        (gateway.app.services.sqlite.prepare('select count(*) as n from members').get() as { n: number }).n;
      const before = count();
      const forged = await post(
        gateway.url,
        '/rank/current_rank',
        {},
        'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VybmFtZSI6ImRlbW8ifQ.forged',
      );
      expect(forged).toMatchObject({ status: 401, json: { Error: 'Invalid Authentication' } });
      expect(count()).toBe(before);
    } finally {
      await post(gateway.url, '/__qa/routing', { path: '*', target: 'provider' });
    }
  });
});

describe('gateway identity', () => {
  it('a provider account named like a stand-in member acts as a shadow of its own, never as that member', async () => {
    // The gateway's own database holds a `demo` with money; the provider's `demo` is another account.
    const seeded = await start({
      seed: 'demo',
      jwtSecret: 'gateway-demo-secret',
      provider: { url: provider.url, timeoutMs: 5_000 },
    });
    const wallets = '/wallet/view_all_wallets_details';
    const standinDemo = () =>
      seeded.app.services.sqlite
        .prepare(
          "select count(*) as n, sum(a.balance) as total from accounts a join members m on m.id = a.member_id where m.username = 'demo'",
        )
        .get();
    const before = standinDemo();
    const login = await post(seeded.url, '/user/login', { username: 'demo', password: 'Demo@1234' });
    const providerToken = (login.json as { JWT: string }).JWT;
    await post(seeded.url, '/__qa/routing', { path: wallets, target: 'mock' });
    await post(seeded.url, '/__qa/routing', { path: 'user.view_profile', target: 'mock' });

    const mine = await post(seeded.url, wallets, {}, providerToken);
    expect(mine.status).toBe(200);
    // A shadow of the provider's account: empty wallets, not the stand-in demo's balances.
    expect(
      Object.values((mine.json as { Success: Record<string, { Available: number }> }).Success).every(
        (w) => w.Available === 0,
      ),
    ).toBe(true);
    const profile = (await post(seeded.url, '/user/view_profile', {}, providerToken)).json as {
      Success: { Username: string; Email: string }[];
    };
    expect(profile.Success[0]!.Email).toBe('demo@provider.invalid');
    expect(profile.Success[0]!.Username).not.toBe('demo');
    // The stand-in's demo is untouched.
    expect(standinDemo()).toEqual(before);
    // A token the stand-in signs for its own demo still reads that member.
    const ownDemo = seeded.app.services.db.select().from(members).where(eq(members.username, 'demo')).get()!;
    expect(
      (await post(seeded.url, '/user/view_profile', {}, seeded.app.services.tokens.sign(ownDemo))).json,
    ).toMatchObject({ Success: [{ Username: 'demo', Email: 'demo@example.com' }] });
    expect((await journal(seeded.url, wallets))[0]).toMatchObject({ source: 'mock' });
  });
});

describe('drift through the gateway', () => {
  it('reports each drift of a provider answer once, with its kind and field path, counting repeats', async () => {
    await del(gateway.url, '/__qa/drift');
    const profile = (
      (await post(provider.url, '/user/view_profile', {}, token)).json as {
        Success: Record<string, unknown>[];
      }
    ).Success[0]!;
    const { Country, ...rest } = profile;
    const drifted = { Success: [{ ...rest, Country_Name: Country, Side: 'L', Subscription: 'true' }] };
    await post(provider.url, '/__qa/faults', { path: '/user/view_profile', body: drifted, times: 2 });
    await post(gateway.url, '/user/view_profile', {}, token);
    await post(gateway.url, '/user/view_profile', {}, token);
    type Drift = { path: string; field: string; kind: string; count: number };
    await expect
      .poll(async () =>
        (await get<Drift[]>(gateway.url, '/__qa/drift')).body.reduce((n, d) => n + d.count, 0),
      )
      .toBe(8);
    const found = (await get<Drift[]>(gateway.url, '/__qa/drift')).body.map(
      ({ path, field, kind, count }) => ({ path, field, kind, count }),
    );
    expect(found).toHaveLength(4);
    expect(found).toEqual(
      expect.arrayContaining([
        { path: '/user/view_profile', field: 'Success[].Country', kind: 'missing', count: 2 },
        { path: '/user/view_profile', field: 'Success[].Country_Name', kind: 'extra', count: 2 },
        { path: '/user/view_profile', field: 'Success[].Side', kind: 'value', count: 2 },
        { path: '/user/view_profile', field: 'Success[].Subscription', kind: 'type', count: 2 },
      ]),
    );
  });
});

describe('record and replay', () => {
  let dir: string;
  let source: { app: App; url: string };
  let recorder: { app: App; url: string };
  let sourceToken: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'md-gateway-'));
    source = await start({ seed: 'demo', jwtSecret: 'source-secret' });
    recorder = await start({
      seed: 'empty',
      databasePath: join(dir, 'gateway.sqlite'),
      provider: { url: source.url },
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('records provider exchanges as a redacted HAR 1.2 file beside the database', async () => {
    expect((await post(recorder.url, '/__qa/recordings', { name: 'day-1' })).status).toBe(201);
    const login = await post(recorder.url, '/user/login', { username: 'demo', password: 'Demo@1234' });
    sourceToken = (login.json as { JWT: string }).JWT;
    await post(recorder.url, '/user/view_profile', {}, sourceToken);
    await post(recorder.url, '/level/view_downline', { username: 'demo', jwt: sourceToken });
    // An OTP mailed, then a wrong one checked: the code must not be kept either.
    await post(recorder.url, '/user/verify_otp', {
      page: 'Email Verification',
      username: 'harry',
      email: 'harry@example.com',
      otp: '123456',
    });
    const stopped = await post(recorder.url, '/__qa/recordings/day-1/stop', {});
    expect(stopped).toMatchObject({ status: 200, json: { name: 'day-1', entries: 4, recording: false } });
    expect((await get(recorder.url, '/__qa/recordings')).body).toMatchObject([
      { name: 'day-1', entries: 4, recording: false },
    ]);

    const file = join(dir, 'gateway.sqlite.recordings', 'day-1.har');
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    const har = JSON.parse(text) as {
      log: {
        version: string;
        entries: {
          request: { url: string; headers: { name: string; value: string }[] };
          response: { status: number };
        }[];
      };
    };
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e) => e.request.url)).toEqual(
      ['/user/login', '/user/view_profile', '/level/view_downline', '/user/verify_otp'].map(
        (p) => `${source.url}${p}`,
      ),
    );
    for (const secret of ['Demo@1234', sourceToken, sourceToken.split('.')[1]!, '123456', 'Bearer'])
      expect(text, secret).not.toContain(secret);
    expect(har.log.entries[1]!.request.headers).toContainEqual({
      name: 'authorization',
      value: '[redacted]',
    });
  });

  it('replays the recording with the provider closed, and names what was not recorded', async () => {
    const recordedProfile = (await post(recorder.url, '/user/view_profile', {}, sourceToken)).text;
    expect((await post(recorder.url, '/__qa/routing', { path: '*', target: 'recording:day-1' })).status).toBe(
      200,
    );
    await source.app.fastify.close();

    // Token fields are ignored: any token (or none) gets the recorded answer, as recorded.
    const profile = await post(recorder.url, '/user/view_profile', {}, 'another-token');
    expect(profile.status).toBe(200);
    expect(profile.text).toBe(recordedProfile);
    const downline = await post(recorder.url, '/level/view_downline', { username: 'demo', jwt: 'whatever' });
    expect(downline.json).toMatchObject({ Success: { Username: 'demo' } });
    expect(
      (await trpcQuery(recorder.url, 'level.view_downline', { username: 'demo' })).body.result?.data,
    ).toEqual(downline.json);
    // The sign-in answers as recorded, its token redacted.
    expect(
      (await post(recorder.url, '/user/login', { username: 'demo', password: 'Demo@1234' })).json,
    ).toMatchObject({ JWT: '[redacted]' });
    expect((await journal(recorder.url, '/level/view_downline'))[0]).toMatchObject({
      source: 'recording:day-1',
      status: 200,
    });

    const unmatched = await post(recorder.url, '/level/view_downline', { username: 'somebody' });
    expect(unmatched.status).toBe(502);
    expect(unmatched.json).toMatchObject({
      Error: `Recording 'day-1' holds no /level/view_downline call with the body {"username":"somebody"} (it holds 1 with other bodies)`,
    });
    const never = await post(recorder.url, '/rank/current_rank', {});
    expect((never.json as { Error: string }).Error).toBe(
      "Recording 'day-1' holds no /rank/current_rank call with the body {} (it holds none of that endpoint)",
    );
  });

  it('validates recording names and answers 404 for unknown ones', async () => {
    for (const body of [
      { name: '../evil' },
      { name: '' },
      { name: 'a'.repeat(65) },
      {},
      { name: 'x', other: 1 },
    ])
      expect((await post(recorder.url, '/__qa/recordings', body)).status, JSON.stringify(body)).toBe(400);
    expect((await post(recorder.url, '/__qa/recordings/nope/stop', {})).status).toBe(404);
    expect((await del(recorder.url, '/__qa/recordings/nope')).status).toBe(404);
    expect((await del(recorder.url, '/__qa/recordings/bad%20name')).status).toBe(400);
    expect((await del(recorder.url, '/__qa/recordings/day-1')).status).toBe(200);
    expect((await get(recorder.url, '/__qa/recordings')).body).toEqual([]);
    // Routed to a recording that is gone: a clear provider-shaped error, not a 500.
    expect(await post(recorder.url, '/user/view_profile', {})).toMatchObject({
      status: 502,
      json: { Error: "No recording named 'day-1'" },
    });
  });
});

describe('PROVIDER_* variables', () => {
  it('makes a gateway of the stand-in with PROVIDER_URL, and refuses what cannot work with a message', () => {
    expect(startConfig({ PROVIDER_URL: 'https://api.provider.example/v1' }).build.provider).toEqual({
      url: 'https://api.provider.example/v1',
    });
    expect(
      startConfig({
        PROVIDER_URL: 'http://127.0.0.1:4000',
        PROVIDER_DEPOSIT_URL: 'https://pay.example',
        PROVIDER_TIMEOUT_MS: '2500',
      }).build.provider,
    ).toEqual({
      url: 'http://127.0.0.1:4000',
      depositUrl: 'https://pay.example',
      timeoutMs: 2500,
    });
    expect(startConfig({}).build.provider).toBeUndefined();
    expect(() => startConfig({ PROVIDER_URL: 'api.provider.example' })).toThrow(
      CONFIG_MESSAGES.providerUrl('PROVIDER_URL', 'api.provider.example'),
    );
    expect(() =>
      startConfig({ PROVIDER_URL: 'https://a.example', PROVIDER_DEPOSIT_URL: 'ftp://pay' }),
    ).toThrow(CONFIG_MESSAGES.providerUrl('PROVIDER_DEPOSIT_URL', 'ftp://pay'));
    expect(() => startConfig({ PROVIDER_DEPOSIT_URL: 'https://pay.example' })).toThrow(
      CONFIG_MESSAGES.providerDepositAlone,
    );
    for (const value of ['0', '-5', '1.5', 'soon', '60001'])
      expect(() => startConfig({ PROVIDER_URL: 'https://a.example', PROVIDER_TIMEOUT_MS: value })).toThrow(
        CONFIG_MESSAGES.providerTimeout(value),
      );
    expect(() =>
      startConfig({
        PROVIDER_URL: 'https://a.example',
        STANDIN: 'off',
        API_BASE_URL: 'https://a.example',
        DEPOSIT_BASE_URL: 'https://a.example',
        WALLET_CHECK_URL: 'https://w.example',
      }),
    ).toThrow(CONFIG_MESSAGES.providerWithoutStandin);
  });
});
