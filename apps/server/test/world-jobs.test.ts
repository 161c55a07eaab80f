/**
 * Long world operations as jobs, and the limits that keep a shared server usable: a declared state
 * builds in a thread as a job (progress, result, failure, cancel: no world and no files left), a
 * clock move that owes runs is a job (a cancelled one stops at a step with nothing owed before it),
 * per-client quotas hold in a burst, a request in flight outlives its world's TTL, and every
 * world's life is recorded.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { manualClock } from '../src/core/clock.ts';
import { JOB_MESSAGES } from '../src/core/jobs.ts';
import { WORLD_MESSAGES } from '../src/modules/worlds/registry.ts';
import { worldCaller, type CreatedWorld } from './helpers.ts';

interface Job {
  id: string;
  kind: string;
  world: string | null;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  progress: Record<string, { done: number; total: number }>;
  result?: Record<string, unknown>;
  error?: { status: number; Error: string };
  url: string;
}

/** A leg of `count` members under one root over `days` days: long enough to watch, short enough for a test. */
const legState = (count: number, days: number) => ({
  date: '2026-03-11T12:00:00Z',
  start: new Date(Date.parse('2026-03-11T12:00:00Z') - days * 86_400_000).toISOString(),
  members: [{ username: 'leg_root', packages: [{ plan: 'Starter' }] }],
  legs: [{ under: 'leg_root', side: '0', depth: Math.min(count, 200), count, plan: 'Starter' }],
});

const dirs: string[] = [];
const tempDatabase = () => {
  const dir = mkdtempSync(join(tmpdir(), 'world-jobs-'));
  dirs.push(dir);
  return join(dir, 'app.sqlite');
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Polls a job until it has ended (bounded). */
async function settled(c: ReturnType<typeof worldCaller>, job: Job, seen: Job[] = []): Promise<Job> {
  let now = job;
  for (let i = 0; i < 600 && now.state === 'running'; i++) {
    now = (await c.call<Job>('GET', `${job.url}?wait=1`)).body;
    seen.push(now);
  }
  return now;
}

/** What the worlds folder holds besides the list and the templates: the live worlds' folders. */
const worldFolders = (databasePath: string) =>
  existsSync(`${databasePath}.worlds`)
    ? readdirSync(`${databasePath}.worlds`).filter((name) => name !== 'worlds.json' && name !== 'templates')
    : [];

describe('a declared state built as a job', () => {
  let app: App;
  let c: ReturnType<typeof worldCaller>;
  let databasePath: string;
  beforeAll(async () => {
    databasePath = tempDatabase();
    app = await buildApp({ databasePath, seed: 'empty', jwtSecret: 'world-jobs-secret' });
    c = worldCaller(app.fastify);
  });
  afterAll(() => app.fastify.close());

  it('answers 202 at once with the job; its progress counts members and runs; the result is the world', async () => {
    const started = await c.call<Job>('POST', '/__qa/worlds', { body: { state: legState(400, 5) } });
    expect(started.status).toBe(202);
    expect(started.headers.location).toBe(started.body.url);
    expect(started.body).toMatchObject({ kind: 'world', state: 'running' });
    const seen: Job[] = [];
    const job = await settled(c, started.body, seen);
    expect(job.state).toBe('done');
    expect(job.progress.members).toEqual({ done: 401, total: 401 });
    expect(job.progress.runs!.done).toBe(job.progress.runs!.total);
    expect(job.progress.runs!.total).toBeGreaterThan(0);
    const world = job.result as unknown as CreatedWorld;
    expect(world.from).toBe('empty');
    expect(job.world).toBe(world.id);
    expect(world.enter).toBe(`/__qa/worlds/${world.id}/enter`);
    const check = await c.call('GET', '/__qa/ledger/check', { world: world.id });
    expect(check.body).toMatchObject({ balanced: true, negativeWallets: [], mismatchedWallets: [] });
    // The server's list has it, and a world's own list is narrowed to it.
    const listed = await c.call<{ jobs: Job[] }>('GET', '/__qa/jobs');
    expect(listed.body.jobs.map((j) => j.id)).toContain(job.id);
    expect((await c.call<{ jobs: Job[] }>('GET', '/__qa/jobs?world=default')).body.jobs).toEqual([]);
  }, 120_000);

  it('answers 201 with the world when the caller waits', async () => {
    const waited = await c.call<CreatedWorld>('POST', '/__qa/worlds?wait=true', {
      body: { state: legState(20, 1) },
    });
    expect(waited.status).toBe(201);
    expect(waited.body.from).toBe('empty');
    expect(worldFolders(databasePath)).toContain(waited.body.id);
  }, 120_000);

  it('fails with the path a domain function refused, leaving no world and no files', async () => {
    const before = worldFolders(databasePath);
    const state = {
      date: '2026-03-11T12:00:00Z',
      members: [
        {
          username: 'payer',
          wallets: { Withdrawal: 100 },
          withdrawals: [{ amount: 50, address: '0x0000000000000000000000000000000000000000' }],
        },
      ],
    };
    const started = await c.call<Job>('POST', '/__qa/worlds', { body: { state } });
    const job = await settled(c, started.body);
    expect(job.state).toBe('failed');
    expect(job.error!.status).toBe(400);
    expect(job.error!.Error).toMatch(/^state\.members\[0\]\.withdrawals\[0\]: /);
    expect(worldFolders(databasePath)).toEqual(before);
    // Waited for, the same failure is the call's own answer.
    const waited = await c.call<{ Error: string }>('POST', '/__qa/worlds?wait=true', { body: { state } });
    expect(waited.status).toBe(400);
    expect(waited.body.Error).toBe(job.error!.Error);
  }, 120_000);

  it('is cancelled midway: no world, no files; a second cancel is 409', async () => {
    const before = worldFolders(databasePath);
    const listed = (await c.call<{ worlds: unknown[] }>('GET', '/__qa/worlds')).body.worlds.length;
    const started = await c.call<Job>('POST', '/__qa/worlds', { body: { state: legState(6_000, 30) } });
    let now = started.body;
    for (let i = 0; i < 600 && !(now.progress.members?.done ?? 0); i++)
      now = (await c.call<Job>('GET', `${now.url}?wait=1`)).body;
    expect(now.state).toBe('running');
    expect(worldFolders(databasePath).length).toBe(before.length + 1); // being built in place
    const cancelled = await c.call<Job>('DELETE', now.url);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe('cancelled');
    expect(worldFolders(databasePath)).toEqual(before);
    expect((await c.call<{ worlds: unknown[] }>('GET', '/__qa/worlds')).body.worlds.length).toBe(listed);
    const again = await c.call<{ Error: string }>('DELETE', now.url);
    expect(again.status).toBe(409);
    expect(again.body.Error).toBe(JOB_MESSAGES.finished(now.id, 'cancelled'));
    expect((await c.call<{ Error: string }>('GET', '/__qa/jobs/j-unknown')).status).toBe(404);
  }, 120_000);
});

describe('a world made from a database a day behind', () => {
  let app: App;
  let c: ReturnType<typeof worldCaller>;
  beforeAll(async () => {
    // The default world's clock two days back: a snapshot of it is what a template or snapshot made
    // before a day boundary is to a world opened after it (the world's own clock is real time).
    app = await buildApp({
      databasePath: tempDatabase(),
      seed: 'demo',
      jwtSecret: 'world-jobs-secret',
      clock: manualClock(Date.now() - 2 * 86_400_000),
    });
    c = worldCaller(app.fastify);
  });
  afterAll(() => app.fastify.close());

  it('is handed out once the days it owes are paid: nothing is owed and its figures hold when it answers', async () => {
    expect((await c.call('POST', '/__qa/snapshots', { body: { name: 'two-days-ago' } })).status).toBe(201);
    const world = await c.create({ from: 'snapshot:two-days-ago' });
    // At once: a clock move of a second owes nothing (it would be a 202 job if a run were still owed).
    const moved = await c.call<{ ran: unknown[] }>('POST', '/__qa/clock', {
      world: world.id,
      body: { advance: 'PT1S' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.ran).toEqual([]);
    type Wallets = { Success: Record<string, { Available: number }> };
    const token = await c.login(world.id);
    const read = async () =>
      (
        await c.call<Wallets>('POST', '/wallet/view_all_wallets_details', {
          world: world.id,
          token,
          body: {},
        })
      ).body.Success;
    const first = await read();
    const behind = (
      await c.call<Wallets>('POST', '/wallet/view_all_wallets_details', {
        token: await c.login(undefined),
        body: {},
      })
    ).body.Success;
    // The two days were paid into it (the snapshot's own world has not been paid them).
    expect(first.ROI!.Available).toBeGreaterThan(behind.ROI!.Available);
    await new Promise((done) => setTimeout(done, 300));
    expect(await read()).toEqual(first);
  }, 120_000);
});

describe('a clock move that owes runs, as a job', () => {
  let app: App;
  let c: ReturnType<typeof worldCaller>;
  let world: CreatedWorld;
  beforeAll(async () => {
    app = await buildApp({ seed: 'empty', jwtSecret: 'world-jobs-secret' });
    c = worldCaller(app.fastify);
    world = await c.create({ from: 'demo' });
  });
  afterAll(() => app.fastify.close());

  const clockOf = async () =>
    Date.parse((await c.call<{ now: string }>('GET', '/__qa/clock', { world: world.id })).body.now);

  it('answers at once when nothing is owed, and 202 with a job that counts the runs when runs are', async () => {
    const small = await c.call<{ ran: unknown[] }>('POST', '/__qa/clock', {
      world: world.id,
      body: { advance: 'PT1S' },
    });
    expect(small.status).toBe(200);
    expect(small.body.ran).toEqual([]);
    const started = await c.call<Job>('POST', '/__qa/clock', { world: world.id, body: { advance: 'P3D' } });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ kind: 'clock', world: world.id });
    const job = await settled(c, started.body);
    expect(job.state).toBe('done');
    const ran = (job.result as { ran: unknown[] }).ran;
    expect(ran.length).toBeGreaterThan(0);
    expect(job.progress.runs).toEqual({ done: ran.length, total: ran.length });
    // What it owed was known from the start.
    expect(started.body.progress.runs).toEqual({ done: 0, total: ran.length });
    expect((await c.call<{ jobs: Job[] }>('GET', `/__qa/jobs?world=${world.id}`)).body.jobs[0]!.id).toBe(
      job.id,
    );
  }, 120_000);

  it('cancelled, stops at a step: the clock before the target, nothing owed before it', async () => {
    const from = await clockOf();
    const started = await c.call<Job>('POST', '/__qa/clock', { world: world.id, body: { advance: 'P20D' } });
    let now = started.body;
    for (let i = 0; i < 2_000 && now.state === 'running' && !(now.progress.runs?.done ?? 0); i++) {
      await new Promise((done) => setTimeout(done, 2));
      now = (await c.call<Job>('GET', now.url)).body;
    }
    const cancelled = await c.call<Job>('DELETE', now.url);
    expect(cancelled.body.state).toBe('cancelled');
    const done = cancelled.body.progress.runs!;
    expect(done.done).toBeLessThan(done.total);
    const clock = await clockOf();
    expect(clock).toBeGreaterThan(from);
    expect(clock).toBeLessThan(from + 20 * 86_400_000);
    // Everything due by the stored clock is paid: moving on by a second owes nothing.
    const next = await c.call<{ ran: unknown[] }>('POST', '/__qa/clock?wait=true', {
      world: world.id,
      body: { advance: 'PT1S' },
    });
    expect(next.body.ran).toEqual([]);
    expect((await c.call('GET', '/__qa/ledger/check', { world: world.id })).body).toMatchObject({
      balanced: true,
    });
  }, 120_000);

  it('refuses a bad wait with a clear error, moving nothing', async () => {
    const before = await clockOf();
    const bad = await c.call<{ Error: string }>('POST', '/__qa/clock?wait=soon', {
      world: world.id,
      body: { advance: 'P1D' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.Error).toBe(JOB_MESSAGES.wait);
    expect(Math.abs((await clockOf()) - before)).toBeLessThan(5_000);
  }, 120_000);
});

describe('limits and the record of use', () => {
  let app: App;
  let c: ReturnType<typeof worldCaller>;
  let now = Date.UTC(2026, 10, 2, 9);
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    app = await buildApp({
      seed: 'empty',
      jwtSecret: 'world-jobs-secret',
      worlds: { max: 20, perClient: 2, now: () => now },
      logger: { level: 'info', stream: { write: (line) => lines.push(JSON.parse(line)) } },
    });
    c = worldCaller(app.fastify);
  });
  afterAll(() => app.fastify.close());

  const create = (ip: string, body: Record<string, unknown> = { from: 'empty' }) =>
    c.call<CreatedWorld & { Error?: string }>('POST', '/__qa/worlds', { body, ip });

  it('holds a client to its quota, in a burst too, while others still get worlds', async () => {
    const burst = await Promise.all(Array.from({ length: 6 }, () => create('10.9.0.1')));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(4);
    expect(refused[0]!.body.Error).toBe(WORLD_MESSAGES.quota('10.9.0.1', 2));
    expect((await create('10.9.0.2')).status).toBe(201);
    // A declared state is refused before its job starts.
    const state = await create('10.9.0.1', { state: legState(5, 1) });
    expect(state.status).toBe(429);
    for (const world of burst.filter((r) => r.status === 201))
      expect((await c.call('DELETE', `/__qa/worlds/${world.body.id}`, { ip: '10.9.0.1' })).status).toBe(200);
    expect((await create('10.9.0.1')).status).toBe(201);
  }, 120_000);

  it('never expires a world under a request in flight; its idle time counts from the answer', async () => {
    const world = (
      await c.call<CreatedWorld>('POST', '/__qa/worlds', {
        body: { from: 'empty', ttlMinutes: 1 },
        ip: '10.9.0.3',
      })
    ).body;
    // A call held for a second and a half by a fault delay, while the TTL runs out around it.
    const slow = c.call('POST', '/user/login', {
      world: world.id,
      body: { username: 'nobody', password: 'Nobody@1234' },
      headers: { 'x-qa-fault': JSON.stringify({ delayMs: 1_500 }) },
    });
    await new Promise((done) => setTimeout(done, 300));
    now += 5 * 60_000;
    const during = await c.call<{ worlds: { id: string; busy: number }[] }>('GET', '/__qa/worlds');
    expect(during.body.worlds.find((w) => w.id === world.id)?.busy).toBe(1);
    expect((await slow).status).toBe(400);
    const after = await c.call<{ worlds: { id: string; busy: number }[] }>('GET', '/__qa/worlds');
    expect(after.body.worlds.find((w) => w.id === world.id)?.busy).toBe(0);
    now += 2 * 60_000;
    expect((await c.call('GET', '/__qa/clock', { world: world.id })).status).toBe(404);
  }, 120_000);

  it('records who made, entered, deleted and lost each world, in the list and the log', async () => {
    const world = (await create('10.9.0.4')).body;
    expect((await c.call('GET', `/__qa/worlds/${world.id}/enter`, { ip: '10.9.0.5' })).status).toBe(303);
    const listed = await c.call<{ worlds: { id: string; createdBy: string; entered: number }[] }>(
      'GET',
      '/__qa/worlds',
    );
    expect(listed.body.worlds.find((w) => w.id === world.id)).toMatchObject({
      createdBy: '10.9.0.4',
      entered: 1,
    });
    await c.call('DELETE', `/__qa/worlds/${world.id}`, { ip: '10.9.0.6' });
    const expiring = (
      await c.call<CreatedWorld>('POST', '/__qa/worlds', {
        body: { from: 'empty', ttlMinutes: 1 },
        ip: '10.9.0.7',
      })
    ).body;
    now += 2 * 60_000;
    const { history } = (
      await c.call<{ history: { world: string; event: string; client?: string; from?: string }[] }>(
        'GET',
        '/__qa/worlds',
      )
    ).body;
    expect(history.filter((e) => e.world === world.id)).toEqual([
      expect.objectContaining({ event: 'created', client: '10.9.0.4', from: 'empty' }),
      expect.objectContaining({ event: 'entered', client: '10.9.0.5' }),
      expect.objectContaining({ event: 'deleted', client: '10.9.0.6' }),
    ]);
    expect(history.filter((e) => e.world === expiring.id).map((e) => e.event)).toEqual([
      'created',
      'expired',
    ]);
    const logged = lines.filter((line) => line.world === world.id).map((line) => line.msg);
    expect(logged).toEqual(['World created', 'World entered', 'World deleted']);
  }, 120_000);
});
