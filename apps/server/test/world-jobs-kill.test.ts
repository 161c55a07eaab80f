/**
 * World jobs against SIGKILL, on the server bundle and a database file:
 * - a world's clock move killed midway (inside a daily run, at a chunk drawn at random): the
 *   stored clock is never ahead of its runs; after the restart the run cut midway finishes at once,
 *   before anyone names the world; moved on to the target, the world's runs and money are exactly
 *   those of a world that moved there uninterrupted;
 * - a declared state's build killed midway leaves no world and no files after the restart.
 * WORLD_KILL_SEED=n replays another draw.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { pendingRuns } from '../src/modules/engine/jobs.ts';
import type { EngineCtx } from '../src/modules/engine/income.ts';
import { seeded } from './helpers.ts';
import { killChildren, startServerProcess, type ServerProcess } from './server-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'world-jobs-kill-'));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  killChildren(children);
  rmSync(dir, { recursive: true, force: true });
});

const SEED = Number(process.env.WORLD_KILL_SEED ?? Date.now() % 100_000);
interface Job {
  id: string;
  world: string | null;
  state: string;
  progress: Record<string, { done: number; total: number }>;
  url: string;
}

async function call<T>(
  server: ServerProcess,
  method: string,
  path: string,
  init: { world?: string; body?: unknown } = {},
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.world ? { 'x-qa-world': init.world } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** The world's database as the dead (or not yet started) server left it, read-only. */
function readWorld(databasePath: string, world: string) {
  const sqlite = new Database(join(`${databasePath}.worlds`, world, 'world.sqlite'), { readonly: true });
  try {
    const offset =
      (
        sqlite.prepare('select offset_ms as offset from clock_state where id = 1').get() as
          { offset: number } | undefined
      )?.offset ?? 0;
    const clock = Date.now() + offset;
    const running = (
      sqlite.prepare("select count(*) as n from job_runs where status = 'running'").get() as { n: number }
    ).n;
    const owedBefore = pendingRuns({ sqlite } as EngineCtx, clock, clock).length;
    return { clock, running, owedBefore };
  } finally {
    sqlite.close();
  }
}

/** What the runs paid and recorded: compared between the killed world and its uninterrupted control. */
function paid(databasePath: string, world: string) {
  const sqlite = new Database(join(`${databasePath}.worlds`, world, 'world.sqlite'), { readonly: true });
  try {
    return {
      runs: sqlite
        .prepare('select job, business_date, status from job_runs order by job, business_date')
        .all(),
      transfers: sqlite
        .prepare(
          'select reason, count(*) as n, sum(amount) as total from transfers group by reason order by reason',
        )
        .all(),
      balances: sqlite.prepare('select id, balance from accounts order by id').all(),
    };
  } finally {
    sqlite.close();
  }
}

describe('a clock move killed inside a daily run', () => {
  const databasePath = join(dir, 'clock.sqlite');
  const random = seeded(SEED);
  const pauseAt = 3 + Math.floor(random() * 30);

  it(`leaves the clock at a paid step, resumes at once, and ends as an uninterrupted world (seed ${SEED}, chunk ${pauseAt})`, async () => {
    const first = await startServerProcess(databasePath, children, {
      SEED: 'empty',
      ENGINE_CHUNK_SIZE: '10',
      ENGINE_PAUSE_AFTER_CHUNK: String(pauseAt),
    });
    const killed = (await call<{ id: string }>(first, 'POST', '/__qa/worlds', { body: { from: 'demo' } }))
      .body.id;
    const control = (await call<{ id: string }>(first, 'POST', '/__qa/worlds', { body: { from: 'demo' } }))
      .body.id;
    const start = Date.parse(
      (await call<{ now: string }>(first, 'GET', '/__qa/clock', { world: killed })).body.now,
    );
    const target = new Date(start + 6 * 86_400_000).toISOString();

    let paused = false;
    const output: string[] = [];
    first.child.stdout.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join('').includes('engine paused after chunk')) paused = true;
    });
    const started = await call<Job>(first, 'POST', '/__qa/clock', { world: killed, body: { set: target } });
    expect(started.status).toBe(202);
    for (let i = 0; i < 600 && !paused; i++) await new Promise((done) => setTimeout(done, 50));
    expect(paused).toBe(true);
    first.child.kill('SIGKILL');
    await first.exited;

    const dead = readWorld(databasePath, killed);
    expect(dead.running).toBe(1); // the run the kill cut midway
    expect(dead.owedBefore).toBe(0); // nothing unclaimed before the stored clock
    expect(dead.clock).toBeLessThan(Date.parse(target));

    // Restarted: the world owes a run, so it opens and finishes it before anyone names it.
    const second = await startServerProcess(databasePath, children, { SEED: 'empty' });
    let after = readWorld(databasePath, killed);
    for (let i = 0; i < 600 && after.running > 0; i++) {
      await new Promise((done) => setTimeout(done, 100));
      after = readWorld(databasePath, killed);
    }
    expect(after.running).toBe(0);
    expect(after.owedBefore).toBe(0);

    // Both moved to the target: the same runs, the same money.
    for (const world of [killed, control]) {
      const moved = await call<{ now: string }>(second, 'POST', '/__qa/clock?wait=true', {
        world,
        body: { set: target },
      });
      expect(moved.status).toBe(200);
      const check = await call(second, 'GET', '/__qa/ledger/check', { world });
      expect(check.body).toMatchObject({ balanced: true, negativeWallets: [], mismatchedWallets: [] });
    }
    second.child.kill('SIGTERM');
    await second.exited;
    expect(paid(databasePath, killed)).toEqual(paid(databasePath, control));
  }, 120_000);
});

describe('a declared state killed while it builds', () => {
  const databasePath = join(dir, 'build.sqlite');

  it('leaves no world and no files after the restart', async () => {
    const first = await startServerProcess(databasePath, children, { SEED: 'empty' });
    const state = {
      date: '2026-03-11T12:00:00Z',
      start: '2026-02-09T12:00:00Z',
      members: [{ username: 'leg_root', packages: [{ plan: 'Starter' }] }],
      legs: [{ under: 'leg_root', side: '0', depth: 200, count: 6_000, plan: 'Starter' }],
    };
    const started = await call<Job>(first, 'POST', '/__qa/worlds', { body: { state } });
    expect(started.status).toBe(202);
    let job = started.body;
    for (let i = 0; i < 600 && job.state === 'running' && !(job.progress.members?.done ?? 0); i++) {
      await new Promise((done) => setTimeout(done, 50));
      job = (await call<Job>(first, 'GET', job.url)).body;
    }
    expect(job.state).toBe('running');
    expect(existsSync(join(`${databasePath}.worlds`, job.world!))).toBe(true);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startServerProcess(databasePath, children, { SEED: 'empty' });
    expect(existsSync(join(`${databasePath}.worlds`, job.world!))).toBe(false);
    expect(readdirSync(`${databasePath}.worlds`).filter((name) => name.startsWith('w-'))).toEqual([]);
    expect((await call<{ worlds: unknown[] }>(second, 'GET', '/__qa/worlds')).body.worlds).toEqual([]);
    expect((await call(second, 'GET', job.url)).status).toBe(404);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 120_000);
});
