/**
 * A daily run interrupted by really killing the process (SIGKILL after its first chunk has
 * committed) is finished by the next start, with each payment made exactly once.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { fromTemplate } from './templates.ts';

const child = resolve(import.meta.dirname, 'fixtures/engine-crash-child.ts');
const dir = mkdtempSync(join(tmpdir(), 'engine-crash-'));
const databasePath = join(dir, 'app.sqlite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runChild = (mode: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', child, mode, databasePath], {
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('a run killed midway', () => {
  it('is finished on restart and pays every member exactly once', async () => {
    const setup = runChild('setup');
    expect(setup.status, setup.stderr).toBe(0);

    const running = spawn(process.execPath, ['--import', 'tsx', child, 'run', databasePath], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    running.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((done, fail) => {
      running.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('chunk')) {
          running.kill('SIGKILL');
          done();
        }
      });
      running.on('exit', () => fail(new Error(`child exited before its first chunk: ${stderr}`)));
    });
    await new Promise((done) => running.on('exit', done));
    expect(running.signalCode).toBe('SIGKILL');

    const db = new Database(databasePath, { readonly: true });
    const partial = db.prepare("select status, cursor from job_runs where job = 'roi'").get() as {
      status: string;
      cursor: number;
    };
    expect(partial.status).toBe('running');
    expect(
      (db.prepare("select count(*) as n from transfers where reason = 'roi'").get() as { n: number }).n,
    ).toBe(2);
    db.close();

    const resumed = runChild('resume');
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toEqual([
      { job: 'binary', date: '2026-03-02', status: 'done' },
      { job: 'ranks', date: '2026-03-02', status: 'done' },
      { job: 'roi', date: '2026-03-03', status: 'done' },
    ]);
    const after = new Database(databasePath, { readonly: true });
    const perMember = after
      .prepare(
        "select member_id, count(*) as n, sum(amount) as paid from transfers where reason = 'roi' group by member_id",
      )
      .all();
    expect(perMember).toHaveLength(7);
    expect(
      perMember.every(
        (r) => (r as { n: number; paid: number }).n === 1 && (r as { paid: number }).paid === 1_000_000,
      ),
    ).toBe(true);
    expect((after.prepare('select sum(balance) as s from accounts').get() as { s: number }).s).toBe(0);
    after.close();
  }, 120_000);
});

describe('two servers on one database file', () => {
  it('cannot both pay a run: the second finds it claimed', async () => {
    const { buildApp } = await import('../src/app.ts');
    const { manualClock } = await import('../src/core/clock.ts');
    const { runDueJobs } = await import('../src/modules/engine/jobs.ts');
    const shared = join(dir, 'two.sqlite');
    const start = Date.parse('2026-03-02T09:00:00Z');
    const first = await buildApp(
      await fromTemplate({ databasePath: shared, seed: 'demo', clock: manualClock(start) }),
    );
    const second = await buildApp({ databasePath: shared, clock: manualClock(start) });
    const end = start + 3 * 86_400_000;
    const ranFirst = runDueJobs(first.services, start, end);
    expect(ranFirst.length).toBeGreaterThan(0);
    const transfers = () =>
      (first.services.sqlite.prepare('select count(*) as n from transfers').get() as { n: number }).n;
    const before = transfers();
    expect(runDueJobs(second.services, start, end)).toEqual([]);
    expect(transfers()).toBe(before);
    await first.fastify.close();
    await second.fastify.close();
    first.services.sqlite.close();
    second.services.sqlite.close();
  });
});
