import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { ConfigError, startConfig } from '../src/config.ts';
import { createTestApp, worldCaller as caller, type TestApp } from './helpers.ts';

const EXAMPLES = join(import.meta.dirname, '../../../world-states');

interface WorldInfo {
  id: string;
  from: string;
  createdAt: string;
  expiresAt: string;
  enter: string;
}

const wallets = (c: ReturnType<typeof caller>, world: string | undefined, token: string) =>
  c.call<{ Success: unknown }>('POST', '/wallet/view_all_wallets_details', { world, token, body: {} });

describe('worlds side by side', () => {
  let t: TestApp;
  let c: ReturnType<typeof caller>;
  let a: WorldInfo;
  let b: WorldInfo;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'demo' });
    c = caller(t.fastify);
    [a, b] = await Promise.all([c.create({ from: 'demo' }), c.create({ from: 'demo' })]);
  });
  afterAll(() => t.close());

  it('answers a new world with its id, source and expiry, and lists it', async () => {
    expect(a).toMatchObject({ from: 'demo', enter: `/__qa/worlds/${a.id}/enter` });
    expect(a.id).toMatch(/^w-[A-Za-z0-9_-]{22}$/);
    expect(Date.parse(a.expiresAt) - Date.parse((a as WorldInfo & { lastUsedAt: string }).lastUsedAt)).toBe(
      120 * 60_000,
    );
    const list = await c.call<{ max: number; worlds: WorldInfo[] }>('GET', '/__qa/worlds');
    expect(list.body.worlds.map((w) => w.id)).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it('takes a name, listed with the world, and refuses an empty or long one', async () => {
    const named = await c.create({ from: 'demo', name: '  Payday  ' });
    expect(named).toMatchObject({ name: 'Payday' });
    const list = await c.call<{ worlds: (WorldInfo & { name?: string })[] }>('GET', '/__qa/worlds');
    expect(list.body.worlds.find((w) => w.id === named.id)?.name).toBe('Payday');
    expect(list.body.worlds.find((w) => w.id === a.id)).not.toHaveProperty('name');
    for (const name of ['', ' ', 'x'.repeat(65), 7]) {
      const reply = await c.call<{ Error: string }>('POST', '/__qa/worlds', { body: { from: 'demo', name } });
      expect(reply.status).toBe(400);
      expect(reply.body.Error).toBe('name is what to call the world: 1 to 64 characters');
    }
    await c.call('DELETE', `/__qa/worlds/${named.id}`);
  });

  it('refuses a token of one world in every other', async () => {
    const inA = await c.login(a.id);
    expect((await wallets(c, a.id, inA)).status).toBe(200);
    for (const other of [b.id, undefined]) {
      const reply = await wallets(c, other, inA);
      expect(reply.status).toBe(401);
    }
    const inDefault = await c.login(undefined);
    expect((await wallets(c, a.id, inDefault)).status).toBe(401);
  });

  it('keeps a clock advance, a fault, a mail and a purchase in the world that made them', async () => {
    const clockOf = async (world?: string) => (await c.qaIn(world).clock.get()).now;
    const [beforeB, beforeDefault] = [await clockOf(b.id), await clockOf()];
    const advanced = await c.call('POST', '/__qa/clock?wait=true', { world: a.id, body: { advance: 'P3D' } });
    expect(advanced.status).toBe(200);
    expect(Date.parse(await clockOf(a.id)) - Date.parse(beforeB)).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(Math.abs(Date.parse(await clockOf(b.id)) - Date.parse(beforeB))).toBeLessThan(60_000);
    expect(Math.abs(Date.parse(await clockOf()) - Date.parse(beforeDefault))).toBeLessThan(60_000);

    const fault = await c.call('POST', '/__qa/faults', {
      world: a.id,
      body: { path: '/user/view_profile', status: 503, error: 'Down in A' },
    });
    expect(fault.status).toBe(201);
    const profile = async (world: string) =>
      c.call<{ Error?: string }>('POST', '/user/view_profile', {
        world,
        token: await c.login(world),
        body: {},
      });
    expect((await profile(a.id)).body.Error).toBe('Down in A');
    expect((await profile(b.id)).status).toBe(200);
    expect(await c.qaIn(b.id).faults.list()).toEqual([]);

    const otp = await c.call('POST', '/user/verify_otp', {
      world: a.id,
      body: {
        page: 'Email Verification',
        username: 'mailonlya',
        email: 'only-a@example.com',
        project: 'Pro',
      },
    });
    expect(otp.status).toBe(200);
    const mails = async (world?: string) => (await c.qaIn(world).mailbox.list('only-a@example.com')).length;
    expect(await mails(a.id)).toBe(1);
    expect(await mails(b.id)).toBe(0);
    expect(await mails()).toBe(0);

    const tokenB = await c.login(b.id);
    const before = JSON.stringify((await wallets(c, a.id, await c.login(a.id))).body);
    const bought = await c.call('POST', '/subscription/buy_subscription_packages', {
      world: b.id,
      token: tokenB,
      body: { plan: 'starter' },
    });
    expect(bought.body).toEqual({ Success: 'Package Starter purchased successfully' });
    expect(JSON.stringify((await wallets(c, a.id, await c.login(a.id))).body)).toBe(before);
  });

  it('keeps a reset and a rate-limit burst in their world', async () => {
    const reset = await c.call('POST', '/__qa/reset', { world: a.id, body: { scenario: 'empty' } });
    expect(reset.status).toBe(200);
    const gone = await c.call<{ JWT?: string }>('POST', '/user/login', {
      world: a.id,
      body: { username: 'demo', password: 'Demo@1234' },
    });
    expect(gone.status).toBe(400);
    expect(gone.body.JWT).toBeUndefined();
    await c.login(b.id);
    await c.login(undefined);

    // One address, one name: the burst exhausts the limit in B only.
    const burst = await Promise.all(
      Array.from({ length: 25 }, () =>
        c.call('POST', '/user/login', {
          world: b.id,
          ip: '10.9.9.9',
          body: { username: 'demo', password: 'Wrong#1234' },
        }),
      ),
    );
    expect(burst.some((r) => r.status === 429)).toBe(true);
    const elsewhere = await c.call<{ JWT?: string }>('POST', '/user/login', {
      ip: '10.9.9.9',
      body: { username: 'demo', password: 'Demo@1234' },
    });
    expect(elsewhere.status).toBe(200);
  });

  it('answers 404 naming an unknown world, on contract, tRPC and QA calls, never the default world', async () => {
    for (const [method, url] of [
      ['POST', '/user/login'],
      ['GET', '/trpc/user.view_country'],
      ['GET', '/__qa/clock'],
    ] as const) {
      const reply = await c.call<{ Error: string }>(method, url, {
        world: 'w-nosuchworldnosuchworl',
        ...(method === 'POST' ? { body: { username: 'demo', password: 'Demo@1234' } } : {}),
      });
      expect(reply.status).toBe(404);
      expect(reply.body.Error).toContain("World 'w-nosuchworldnosuchworl' is unknown or has expired");
      // The answer names the world it is about: the web app says which world is gone.
      expect(reply.headers['x-qa-world']).toBe('w-nosuchworldnosuchworl');
    }
    expect((await c.call('DELETE', '/__qa/worlds/w-nosuchworldnosuchworl')).status).toBe(404);
  });

  it("lets a stale cookie load the web app's page and files, never a call or a QA path", async () => {
    const cookie = 'qa_world=w-nosuchworldnosuchworl';
    const loads = async (url: string, dest: string) =>
      (await t.fastify.inject({ method: 'GET', url, headers: { cookie, 'sec-fetch-dest': dest } })).headers[
        'x-qa-world'
      ] === undefined;
    // A tab in another world of its own reloads: its page is the same in every world.
    expect(await loads('/', 'document')).toBe(true);
    expect(await loads('/assets/index.js', 'script')).toBe(true);
    // Its calls and QA paths are the world's: 404, as with no page at all.
    expect(await loads('/config.json', 'empty')).toBe(false);
    expect(await loads('/trpc/user.view_country', 'empty')).toBe(false);
    expect(await loads('/__qa/mailbox', 'document')).toBe(false);
    // Named by the header, a world is never passed over.
    const byHeader = await t.fastify.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-qa-world': 'w-nosuchworldnosuchworl', 'sec-fetch-dest': 'document' },
    });
    expect(byHeader.statusCode).toBe(404);
  });

  it('lets a browser enter by a cookie and leave again', async () => {
    const enter = await c.call('GET', `/__qa/worlds/${b.id}/enter`);
    expect(enter.status).toBe(303);
    expect(enter.headers.location).toBe(`/?qa_world=${b.id}`);
    const setCookie = String(enter.headers['set-cookie']);
    expect(setCookie).toContain(`qa_world=${b.id}`);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    const cookie = `qa_world=${b.id}`;
    const current = await c.call<{ world: WorldInfo | null }>('GET', '/__qa/worlds/current', { cookie });
    expect(current.body.world?.id).toBe(b.id);
    // B bought a Starter package above; the default world's demo did not.
    const inB = await c.call<{ JWT: string }>('POST', '/user/login', {
      cookie,
      body: { username: 'demo', password: 'Demo@1234' },
    });
    expect((await wallets(c, b.id, inB.body.JWT)).status).toBe(200);
    expect((await wallets(c, undefined, inB.body.JWT)).status).toBe(401);
    const leave = await c.call('GET', '/__qa/worlds/leave', { cookie });
    expect(leave.status).toBe(303);
    expect(String(leave.headers['set-cookie'])).toMatch(/qa_world=;.*Max-Age=0/i);
    expect((await c.call('GET', '/__qa/worlds/w-nosuchworldnosuchworl/enter')).status).toBe(404);
  });

  it("tells the web app the world's client mode", async () => {
    const provider = await c.create({ from: 'empty', clientMode: 'provider' });
    expect(provider).toMatchObject({ clientMode: 'provider' });
    const config = async (world?: string) =>
      (await c.call<{ mode: string }>('GET', '/config.json', { world })).body.mode;
    expect(await config(provider.id)).toBe('provider');
    // The page knows which world it is in (the QA panel's header shows it); the default world says nothing.
    expect((await c.call<{ qaWorld?: string }>('GET', '/config.json', { world: a.id })).body.qaWorld).toBe(
      a.id,
    );
    expect((await c.call<{ qaWorld?: string }>('GET', '/config.json')).body).not.toHaveProperty('qaWorld');
    expect(await config(a.id)).toBe('mock');
    expect(await config()).toBe('mock');
    const wrong = await c.call<{ Error: string }>('POST', '/__qa/worlds', { body: { clientMode: 'rest' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.Error).toBe("clientMode is 'mock' (tRPC) or 'provider' (REST at the provider's paths)");
  });

  it('deletes a world: its id is unknown from then on', async () => {
    const doomed = await c.create({ from: 'empty' });
    expect((await c.call('DELETE', `/__qa/worlds/${doomed.id}`)).status).toBe(200);
    expect((await c.call('GET', '/__qa/clock', { world: doomed.id })).status).toBe(404);
  });

  it('refuses a bad source or TTL with a clear error and makes nothing', async () => {
    const count = async () => (await c.call<{ worlds: unknown[] }>('GET', '/__qa/worlds')).body.worlds.length;
    const before = await count();
    for (const [body, message] of [
      [{ from: 'nowhere' }, "'from' is a scenario"],
      [{ from: 'snapshot:missing' }, "No snapshot named 'missing'"],
      [{ ttlMinutes: 0 }, 'ttlMinutes is a whole number'],
      [{ ttlMinutes: 'soon' }, 'ttlMinutes is a whole number'],
      [{ ttlMinutes: 2.5 }, 'ttlMinutes is a whole number'],
      [{ form: 'demo' }, 'form'],
    ] as const) {
      const reply = await c.call<{ Error: string }>('POST', '/__qa/worlds', { body });
      expect(reply.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
      expect(reply.body.Error).toContain(message);
    }
    expect(await count()).toBe(before);
  });

  it('starts a world from a snapshot of the world the request is in', async () => {
    expect(
      (await c.call('POST', '/__qa/snapshots', { world: b.id, body: { name: 'with-starter' } })).status,
    ).toBe(201);
    // The default world has no snapshot of that name.
    const none = await c.call<{ Error: string }>('POST', '/__qa/worlds', {
      body: { from: 'snapshot:with-starter' },
    });
    expect(none.status).toBe(404);
    const copy = await c.call<WorldInfo>('POST', '/__qa/worlds', {
      world: b.id,
      body: { from: 'snapshot:with-starter' },
    });
    expect(copy.status).toBe(201);
    expect(copy.body.from).toBe('snapshot:with-starter');
    // Made from inside a world that is gone: that world is named, not the default one's snapshots read.
    const gone = await c.call<{ Error: string }>('POST', '/__qa/worlds', {
      world: 'w-nosuchworldnosuchworl',
      body: { from: 'snapshot:with-starter' },
    });
    expect(gone.status).toBe(404);
    expect(gone.body.Error).toContain("World 'w-nosuchworldnosuchworl'");
    const inCopy = (await wallets(c, copy.body.id, await c.login(copy.body.id))).body;
    expect(inCopy).toEqual((await wallets(c, b.id, await c.login(b.id))).body);
    expect(inCopy).not.toEqual((await wallets(c, undefined, await c.login(undefined))).body);
  });
});

describe('worlds from a declared state', () => {
  let t: TestApp;
  let c: ReturnType<typeof caller>;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'demo' });
    c = caller(t.fastify);
  });
  afterAll(() => t.close());

  it('builds the example with a package at 99 % of its cap into a world of its own', async () => {
    const state = JSON.parse(readFileSync(join(EXAMPLES, 'package-at-99-percent.json'), 'utf8'));
    const world = await c.create({ state });
    expect(world.from).toBe('empty');
    const check = await c.call('GET', '/__qa/ledger/check', { world: world.id });
    expect(check.body).toMatchObject({ balanced: true, negativeWallets: [], mismatchedWallets: [] });
    const clock = await c.call<{ now: string }>('GET', '/__qa/clock', { world: world.id });
    expect(clock.body.now.slice(0, 10)).toBe(String(state.date).slice(0, 10));
    // Its members are its own: the default world has none of them.
    const username = state.members[0].username as string;
    const signIn = (world?: string) =>
      c.call<{ JWT?: string }>('POST', '/user/login', {
        world,
        body: { username, password: state.members[0].password ?? 'Demo@1234' },
      });
    expect((await signIn(world.id)).body.JWT).toBeDefined();
    expect((await signIn()).body.JWT).toBeUndefined();
  });

  it('answers a malformed state 400 naming every path, and makes no world', async () => {
    const before = (await c.call<{ worlds: unknown[] }>('GET', '/__qa/worlds')).body.worlds.length;
    const shape = await c.call<{ Error: string }>('POST', '/__qa/worlds', {
      body: { state: { date: 'yesterday', members: [{ username: 'a', colour: 'red' }] } },
    });
    expect(shape.status).toBe(400);
    expect(shape.body.Error).toContain('state.date');
    expect(shape.body.Error).toContain('state.members[0]');
    const references = await c.call<{ Error: string }>('POST', '/__qa/worlds', {
      body: {
        state: {
          date: '2026-03-04T12:00:00Z',
          members: [{ username: 'anna' }, { username: 'bert', sponsor: 'nobody' }, { username: 'anna' }],
        },
      },
    });
    expect(references.status).toBe(400);
    expect(references.body.Error).toContain('state.members[1].sponsor');
    expect(references.body.Error).toContain('state.members[2]');
    const withFrom = await c.call<{ Error: string }>('POST', '/__qa/worlds', {
      body: { from: 'demo', state: { date: '2026-03-04T12:00:00Z', members: [{ username: 'anna' }] } },
    });
    expect(withFrom.status).toBe(400);
    expect(withFrom.body.Error).toBe(
      "A declared 'state' builds on an empty world: leave 'from' out (or set it to 'empty')",
    );
    expect((await c.call<{ worlds: unknown[] }>('GET', '/__qa/worlds')).body.worlds).toHaveLength(before);
  });
});

describe('twenty worlds made at once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'empty' });
  });
  afterAll(() => t.close());

  it('each buys a package and each passes the ledger check', async () => {
    const c = caller(t.fastify);
    const worlds = await Promise.all(Array.from({ length: 20 }, () => c.create({ from: 'demo' })));
    expect(new Set(worlds.map((w) => w.id)).size).toBe(20);
    const bought = await Promise.all(
      worlds.map(async (w) =>
        c.call('POST', '/subscription/buy_subscription_packages', {
          world: w.id,
          token: await c.login(w.id),
          body: { plan: 'starter' },
        }),
      ),
    );
    for (const reply of bought)
      expect(reply.body).toEqual({ Success: 'Package Starter purchased successfully' });
    for (const w of worlds) {
      const check = await c.call('GET', '/__qa/ledger/check', { world: w.id });
      expect(check.body).toMatchObject({ balanced: true, negativeWallets: [], mismatchedWallets: [] });
    }
  });
});

describe('world limits', () => {
  let now = Date.parse('2027-01-01T00:00:00Z');
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'empty', worlds: { max: 2, now: () => now } });
  });
  afterAll(() => t.close());

  it('refuses past WORLDS_MAX with a clear error, even in a burst', async () => {
    const c = caller(t.fastify);
    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        c.call<{ Error?: string; id?: string }>('POST', '/__qa/worlds', { body: { from: 'empty' } }),
      ),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = replies.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.Error).toBe(
        'No more worlds: 2 are live (WORLDS_MAX). Delete one (DELETE /__qa/worlds/:id) or wait for an idle one to expire.',
      );
    }
  });

  it('expires an idle world after its TTL; use keeps a world alive', async () => {
    const c = caller(t.fastify);
    for (const w of (await c.call<{ worlds: WorldInfo[] }>('GET', '/__qa/worlds')).body.worlds)
      await c.call('DELETE', `/__qa/worlds/${w.id}`);
    const idle = await c.create({ from: 'empty', ttlMinutes: 5 });
    const busy = await c.create({ from: 'empty', ttlMinutes: 5 });
    now += 4 * 60_000;
    expect((await c.call('GET', '/__qa/clock', { world: busy.id })).status).toBe(200);
    now += 2 * 60_000;
    expect((await c.call('GET', '/__qa/clock', { world: idle.id })).status).toBe(404);
    expect((await c.call('GET', '/__qa/clock', { world: busy.id })).status).toBe(200);
    const listed = (await c.call<{ worlds: WorldInfo[] }>('GET', '/__qa/worlds')).body.worlds.map(
      (w) => w.id,
    );
    expect(listed).toEqual([busy.id]);
  });
});

describe('worlds across a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'md-worlds-'));
  const path = join(dir, 'server.sqlite');
  let now = Date.now();
  const start = () =>
    buildApp({ databasePath: path, seed: 'empty', jwtSecret: 'restart-secret', worlds: { now: () => now } });
  let app: App | undefined;
  afterEach(async () => {
    await app?.fastify.close();
    app = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps live worlds with their rows and tokens; drops the expired ones', async () => {
    app = await start();
    let c = caller(app.fastify);
    const kept = await c.create({ from: 'demo', ttlMinutes: 600 });
    const short = await c.create({ from: 'demo', ttlMinutes: 10 });
    const token = await c.login(kept.id);
    const bought = await c.call('POST', '/subscription/buy_subscription_packages', {
      world: kept.id,
      token,
      body: { plan: 'starter' },
    });
    expect(bought.status).toBe(200);
    const before = (await wallets(c, kept.id, token)).body;
    await app.fastify.close();

    now += 30 * 60_000;
    app = await start();
    c = caller(app.fastify);
    expect((await wallets(c, kept.id, token)).body).toEqual(before);
    expect((await c.call('GET', '/__qa/clock', { world: short.id })).status).toBe(404);
    const listed = (await c.call<{ worlds: WorldInfo[] }>('GET', '/__qa/worlds')).body.worlds.map(
      (w) => w.id,
    );
    expect(listed).toEqual([kept.id]);
  });

  it("names a fleet server's worlds after it, and keeps them across a restart", async () => {
    const node = () =>
      buildApp({
        databasePath: join(dir, 'node.sqlite'),
        seed: 'empty',
        jwtSecret: 'restart-secret',
        worlds: { now: () => now, node: 'b2' },
      });
    app = await node();
    const world = await caller(app.fastify).create({ from: 'empty' });
    expect(world.id).toMatch(/^w-b2\.[A-Za-z0-9_-]{22}$/);
    await app.fastify.close();
    app = await node();
    expect((await caller(app.fastify).call('GET', '/__qa/clock', { world: world.id })).status).toBe(200);
  });

  it("one world's storage fault leaves the other worlds and the default one serving", async () => {
    app = await start();
    const c = caller(app.fastify);
    const [a, b] = [await c.create({ from: 'demo' }), await c.create({ from: 'demo' })];
    const [ta, tb] = [await c.login(a.id), await c.login(b.id)];
    const swap = (world: string | undefined, token: string) =>
      c.call<{ Error?: string; Success?: string }>('POST', '/wallet/transfer_wallet', {
        world,
        token,
        body: { from_wallet: 'ROI', to_wallet: 'Deposit', amount: 1 },
      });
    unlinkSync(join(`${path}.worlds`, a.id, 'world.sqlite'));
    const refused = await swap(a.id, ta);
    expect(refused.status).toBe(503);
    expect((await swap(b.id, tb)).status).toBe(200);
    // The default world (seeded empty here) writes on: a clock move is a write.
    expect((await c.call('POST', '/__qa/clock?wait=true', { body: { advance: 'P1D' } })).status).toBe(200);
    expect(
      (await c.call('POST', '/__qa/clock?wait=true', { world: b.id, body: { advance: 'P1D' } })).status,
    ).toBe(200);
  });
});

describe('WORLDS_MAX', () => {
  it('sets the caps, 0 turns worlds off, anything else is refused at start', async () => {
    expect(startConfig({ WORLDS_MAX: '7' }).build.worlds).toEqual({ max: 7 });
    expect(startConfig({ WORLDS_MAX: '0' }).build.worlds).toBe(false);
    expect(startConfig({}).build.worlds).toBeUndefined();
    for (const value of ['-1', 'many', '1e3', '10001'])
      expect(() => startConfig({ WORLDS_MAX: value }), value).toThrow(ConfigError);
    // And a client's share of them.
    expect(startConfig({ WORLDS_PER_CLIENT: '3' }).build.worlds).toEqual({ perClient: 3 });
    expect(startConfig({ WORLDS_MAX: '7', WORLDS_PER_CLIENT: '3' }).build.worlds).toEqual({
      max: 7,
      perClient: 3,
    });
    for (const value of ['0', '-1', 'some', '10001'])
      expect(() => startConfig({ WORLDS_PER_CLIENT: value }), value).toThrow(ConfigError);
    // And, in a fleet, the server's name its worlds' ids carry.
    expect(startConfig({ FLEET_NODE: 'b2' }).build.worlds).toEqual({ node: 'b2' });
    for (const value of ['B', 'a.b', 'a-b', 'x'.repeat(17)])
      expect(() => startConfig({ FLEET_NODE: value }), value).toThrow(ConfigError);
    const off = await createTestApp({ seed: 'empty', worlds: false });
    try {
      expect((await off.post('/__qa/worlds', {})).status).toBe(404);
      // Without worlds the header names nothing: the default world answers.
      const reply = await off.fastify.inject({
        method: 'GET',
        url: '/__qa/clock',
        headers: { 'x-qa-world': 'w-x' },
      });
      expect(reply.statusCode).toBe(200);
    } finally {
      await off.close();
    }
  });
});
