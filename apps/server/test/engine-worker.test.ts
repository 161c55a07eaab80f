/**
 * The daily runs off the request path and without gaps:
 * - on a database file they run in a worker thread: a read and a write sent over HTTP while a run
 *   is in progress are answered before it finishes, and the answers read afterwards include the
 *   worker's commits (the read caches see them);
 * - a server stopped for three business days runs every missed job of every date once, in order,
 *   when it starts (main.ts: the timer's catch-up, in the worker);
 * - a crash during binary matching and again during its resume no longer loses that date's ranks.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { amountToMicros } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { manualClock } from '../src/core/clock.ts';
import { STORAGE_MESSAGES } from '../src/core/storage.ts';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import { insertMember } from '../src/modules/auth/members.ts';
import { openDeposit, payDeposit } from '../src/modules/deposits/deposits.ts';
import { engineHooks, runDueJobs } from '../src/modules/engine/jobs.ts';
import { workerIdle } from '../src/modules/engine/runner.ts';
import { dueRuns } from '../src/modules/engine/schedule.ts';
import { ledgerCheck } from '../src/modules/ledger/ledger.ts';
import { buyPackage } from '../src/modules/packages/packages.ts';
import { createTestApp, expectLedgerSound } from './helpers.ts';
import { startServerProcess } from './server-process.ts';
import { fromTemplate } from './templates.ts';

const dir = mkdtempSync(join(tmpdir(), 'engine-worker-'));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});
const SEAMS = [
  'ENGINE_CHUNK_SIZE',
  'ENGINE_PAUSE_AFTER_CHUNK',
  'ENGINE_PAUSE_INSIDE_CHUNK',
  'ENGINE_PAUSE_RELEASE',
] as const;
afterEach(() => {
  for (const name of SEAMS) delete process.env[name];
  engineHooks.chunkSize = 2_000;
  delete engineHooks.afterChunk;
});

const until = async (condition: () => boolean, what: string) => {
  for (const started = Date.now(); !condition(); await new Promise((done) => setTimeout(done, 20)))
    if (Date.now() - started > 60_000) throw new Error(`timed out waiting for ${what}`);
};

async function post<T = Record<string, unknown>>(
  url: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

type Wallets = { Success: Record<string, { Available: number }> };

/**
 * The demo scenario on a database file, listening on loopback, its clock on Monday 2 November 2026
 * 09:00 (an advance to Tuesday 00:06 runs Monday's binary and ranks and Tuesday's ROI), and demo's
 * token (24 hours on the server clock: still valid after that advance).
 */
async function liveDemo(file: string) {
  const app = await buildApp(
    await fromTemplate({
      databasePath: join(dir, file),
      seed: 'demo',
      clock: manualClock(Date.parse('2026-11-02T09:00:00Z')),
    }),
  );
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.fastify.server.address() as { port: number }).port}`;
  const token = String(
    (await post<{ JWT: string }>(`${base}/user/login`, { username: 'demo', password: 'Demo@1234' })).body.JWT,
  );
  return { app, base, token };
}

describe('a run in the worker thread', () => {
  it('lets a read and a write through while it is in progress, and the reads after it see its payouts', async () => {
    // Chunks of 5 members; the worker stops after its 3rd chunk until the test lets it go on.
    const release = join(dir, 'release');
    Object.assign(process.env, {
      ENGINE_CHUNK_SIZE: '5',
      ENGINE_PAUSE_AFTER_CHUNK: '3',
      ENGINE_PAUSE_RELEASE: release,
    });
    const { app, base, token } = await liveDemo('live.sqlite');
    try {
      const roi = async () =>
        (await post<Wallets>(`${base}/wallet/view_all_wallets_details`, {}, token)).body.Success.ROI!
          .Available;
      const before = await roi();

      const order: string[] = [];
      const clock = post<{ ran: { job: string; date: string }[] }>(`${base}/__qa/clock?wait=true`, {
        advance: 'PT15H6M',
      }).then((reply) => {
        order.push('clock');
        return reply;
      });
      await until(() => existsSync(`${release}.paused`), 'the worker to pause');
      const running = app.services.sqlite
        .prepare("select job, phase from job_runs where status = 'running'")
        .all();
      expect(running).toHaveLength(1);

      const read = await post<{ Success: { Username: string }[] }>(`${base}/user/view_profile`, {}, token);
      order.push('read');
      const write = await post<{ Success: string }>(
        `${base}/wallet/transfer_wallet`,
        { amount: 0.01, from_wallet: 'ROI', to_wallet: 'Withdrawal' },
        token,
      );
      order.push('write');
      expect(read.status).toBe(200);
      expect(read.body.Success[0]!.Username).toBe('demo');
      expect(write.status, JSON.stringify(write.body)).toBe(200);
      // Still the same run, not finished: both were answered while it was in progress.
      expect(
        app.services.sqlite.prepare("select job, phase from job_runs where status = 'running'").all(),
      ).toEqual(running);

      writeFileSync(release, '');
      // While it goes on, chunk after chunk, writes keep being answered.
      const swaps = await Promise.all(
        Array.from({ length: 10 }, () =>
          post(
            `${base}/wallet/transfer_wallet`,
            { amount: 0.01, from_wallet: 'ROI', to_wallet: 'Withdrawal' },
            token,
          ),
        ),
      );
      expect(swaps.map((s) => s.status)).toEqual(Array<number>(10).fill(200));
      const ran = await clock;
      expect(order.slice(0, 2)).toEqual(['read', 'write']);
      expect(ran.status).toBe(200);
      expect(ran.body.ran.map((r) => [r.job, r.date])).toEqual([
        ['binary', '2026-11-02'],
        ['ranks', '2026-11-02'],
        ['roi', '2026-11-03'],
      ]);

      // The wallets answer (cached before the run) is the one after the worker's commits.
      const paid = (
        app.services.sqlite
          .prepare("select amount from transfers where trans_id = 'ROI20261103M1'")
          .get() as { amount: number }
      ).amount;
      expect(paid).toBeGreaterThan(0);
      expect(amountToMicros(await roi())).toBe(amountToMicros(before) - 11 * 10_000 + paid);
      expect((await fetch(`${base}/__qa/ledger/check`).then((r) => r.json())) as unknown).toMatchObject({
        balanced: true,
        negativeWallets: [],
        mismatchedWallets: [],
      });
    } finally {
      await app.fastify.close();
    }
  });
});

describe('the worker after its runs', () => {
  // Linux: what the thread holds, counted where the kernel counts it.
  const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
  const descriptors = () => readdirSync('/proc/self/fd').length;

  it.runIf(process.platform === 'linux')(
    'ends once idle (its descriptors with it), and the next run owed starts another that pays it',
    async () => {
      workerIdle.ms = 300;
      const { app, base } = await liveDemo('idle.sqlite');
      try {
        const threadsBefore = threads();
        const first = await post<{ ran: unknown[] }>(`${base}/__qa/clock?wait=true`, { advance: 'PT15H6M' });
        expect(first.body.ran).toHaveLength(3);
        expect(threads()).toBeGreaterThan(threadsBefore);
        const withWorker = descriptors();
        await until(() => threads() === threadsBefore, 'the idle worker to end');
        // Its event loop's (epoll, eventfd, pipes) and its connection's (database, -wal) are closed.
        expect(descriptors()).toBeLessThanOrEqual(withWorker - 5);
        // The next day: a new thread pays it.
        const next = await post<{ ran: { job: string }[] }>(`${base}/__qa/clock?wait=true`, {
          advance: 'P1D',
        });
        expect(next.status).toBe(200);
        expect(next.body.ran.map((r) => r.job)).toEqual(['binary', 'ranks', 'roi']);
        expect(ledgerCheck(app.services)).toMatchObject({ balanced: true, negativeWallets: [] });
        await until(() => threads() === threadsBefore, 'the second worker to end');
      } finally {
        workerIdle.ms = 10_000;
        await app.fastify.close();
      }
    },
  );
});

describe('a write that meets a chunk holding the lock', () => {
  it('a burst of writes waits for the chunk without holding up the reads behind it, then each is answered once', async () => {
    // The worker stops inside its 3rd chunk's transaction, the write lock held, until let go on.
    const release = join(dir, 'release-inside');
    Object.assign(process.env, {
      ENGINE_CHUNK_SIZE: '5',
      ENGINE_PAUSE_INSIDE_CHUNK: '3',
      ENGINE_PAUSE_RELEASE: release,
    });
    const { app, base, token } = await liveDemo('turns.sqlite');
    try {
      const clock = post(`${base}/__qa/clock?wait=true`, { advance: 'PT15H6M' });
      await until(() => existsSync(`${release}.paused`), 'the worker to pause inside a chunk');

      const withdrawal = async () =>
        (await post<Wallets>(`${base}/wallet/view_all_wallets_details`, {}, token)).body.Success.Withdrawal!
          .Available;
      const before = await withdrawal();
      const order: string[] = [];
      // A burst of writes, all meeting the held chunk.
      const BURST = 20;
      const writes = Promise.all(
        Array.from({ length: BURST }, () =>
          post(
            `${base}/wallet/transfer_wallet`,
            { amount: 0.01, from_wallet: 'ROI', to_wallet: 'Withdrawal' },
            token,
          ).then((reply) => {
            order.push('write');
            return reply;
          }),
        ),
      );
      // Sent after the writes: in SQLite's busy wait the first write would block this server's
      // thread until its 5 s ran out (a 503), and the read would be answered after it.
      const read = await post<{ Success: { Username: string }[] }>(`${base}/user/view_profile`, {}, token);
      order.push('read');
      expect(read.status).toBe(200);
      expect(read.body.Success[0]!.Username).toBe('demo');
      expect(order).toEqual(['read']);

      writeFileSync(release, '');
      const written = await writes;
      for (const reply of written) expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(order).toEqual(['read', ...Array<string>(BURST).fill('write')]);
      // Each applied once.
      expect(amountToMicros(await withdrawal())).toBe(amountToMicros(before) + BURST * 10_000);
      expect((await clock).status).toBe(200);
      expect((await fetch(`${base}/__qa/ledger/check`).then((r) => r.json())) as unknown).toMatchObject({
        balanced: true,
        negativeWallets: [],
        mismatchedWallets: [],
      });
    } finally {
      await app.fastify.close();
    }
  });
});

describe('a QA reset while a run is in progress in the worker', () => {
  it('stops the run: nothing of it is written into the new database', async () => {
    const release = join(dir, 'release-reset');
    Object.assign(process.env, {
      ENGINE_CHUNK_SIZE: '5',
      ENGINE_PAUSE_AFTER_CHUNK: '4',
      ENGINE_PAUSE_RELEASE: release,
    });
    const app = await buildApp({
      databasePath: join(dir, 'reset.sqlite'),
      seed: 'demo',
      clock: manualClock(Date.parse('2026-11-02T09:00:00Z')),
    });
    try {
      const clock = app.fastify.inject({
        method: 'POST',
        url: '/__qa/clock?wait=true',
        payload: { advance: 'PT15H6M' },
      });
      await until(() => existsSync(`${release}.paused`), 'the worker to pause');
      const reset = await app.fastify.inject({
        method: 'POST',
        url: '/__qa/reset',
        payload: { scenario: 'empty' },
      });
      expect(reset.statusCode).toBe(200);
      writeFileSync(release, '');
      const answered = await clock;
      expect(answered.statusCode).toBe(200);
      // The paused run (Monday's ranks: binary took 3 chunks) found its row gone at its next chunk
      // and stopped; Tuesday's ROI, owed after it, was not claimed in the new database.
      expect(readFileSync(`${release}.paused`, 'utf8')).toMatch(
        /^engine paused after chunk 4: ranks 2026-11-02 pay/,
      );
      expect((answered.json() as { ran: { job: string }[] }).ran.map((r) => r.job)).toEqual([
        'binary',
        'ranks',
      ]);
      const count = (table: string) =>
        (app.services.sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
      expect([
        count('job_runs'),
        count('transfers'),
        count('volume_entries'),
        count('notifications'),
      ]).toEqual([0, 0, 0, 0]);
      expect(ledgerCheck(app.services)).toMatchObject({
        balanced: true,
        negativeWallets: [],
        mismatchedWallets: [],
      });
    } finally {
      await app.fastify.close();
    }
  });
});

describe('a database file deleted while a run is in progress in the worker', () => {
  it('stops the run at its next chunk (it would commit into a deleted file) and the clock call answers 503 naming the fault', async () => {
    const release = join(dir, 'release-gone');
    Object.assign(process.env, {
      ENGINE_CHUNK_SIZE: '5',
      ENGINE_PAUSE_AFTER_CHUNK: '2',
      ENGINE_PAUSE_RELEASE: release,
    });
    const file = join(dir, 'gone.sqlite');
    const app = await buildApp({
      databasePath: file,
      seed: 'demo',
      clock: manualClock(Date.parse('2026-11-02T09:00:00Z')),
    });
    try {
      const clock = app.fastify.inject({
        method: 'POST',
        url: '/__qa/clock?wait=true',
        payload: { advance: 'PT15H6M' },
      });
      await until(() => existsSync(`${release}.paused`), 'the worker to pause');
      const runAt = () =>
        app.services.sqlite.prepare("select job, phase, cursor from job_runs where status = 'running'").all();
      const paused = runAt();
      expect(paused).toHaveLength(1);
      rmSync(file);
      writeFileSync(release, '');
      const answered = await clock;
      expect(answered.statusCode, answered.body).toBe(503);
      expect((answered.json() as { Error: string }).Error).toBe(STORAGE_MESSAGES.cannotSave);
      // The open connection still reads the deleted file: the run went no further than the pause.
      expect(runAt()).toEqual(paused);
    } finally {
      await app.fastify.close();
    }
  });
});

describe('a server stopped for three business days', () => {
  it('runs every missed job of every date once, in order, when it starts', async () => {
    const databasePath = join(dir, 'stopped.sqlite');
    // Friday 6 November 2026, 09:00: the demo's history is played up to here (Friday's ROI included).
    const stoppedAt = Date.parse('2026-11-06T09:00:00Z');
    const seeded = await buildApp(
      await fromTemplate({ databasePath, seed: 'demo', clock: manualClock(stoppedAt) }),
    );
    const before = seeded.services.sqlite
      .prepare("select count(*) as n, max(id) as last from job_runs where status = 'done'")
      .get() as { n: number; last: number };
    expect(before.n).toBeGreaterThan(0);
    await seeded.fastify.close();
    // Back on Wednesday 11 November at 12:00: Friday's binary and ranks, the weekend's, and Monday to Wednesday's runs are owed.
    const startsAt = Date.parse('2026-11-11T12:00:00Z');
    const file = new Database(databasePath);
    file
      .prepare(
        'insert into clock_state (id, offset_ms) values (1, ?) on conflict(id) do update set offset_ms = excluded.offset_ms',
      )
      .run(startsAt - Date.now());
    file.close();

    const { child, url: base } = await startServerProcess(databasePath, children, {
      JWT_SECRET: 'engine-worker-test',
    });
    // Asked after the start's catch-up, so answered once it is done (the worker answers in order); nothing new is due.
    const after = await post<{ ran: unknown[] }>(`${base}/__qa/clock?wait=true`, { advance: 'PT1S' });
    expect(after.status).toBe(200);
    expect(after.body.ran).toEqual([]);
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;

    const db = new Database(databasePath, { readonly: true });
    try {
      const caughtUp = db
        .prepare('select job, business_date as date, status from job_runs where id > ? order by id')
        .all(before.last) as { job: string; date: string; status: string }[];
      const owed = dueRuns(stoppedAt, startsAt).map(({ job, date }) => ({ job, date, status: 'done' }));
      expect(owed.map((r) => `${r.job} ${r.date}`)).toEqual([
        'binary 2026-11-06',
        'ranks 2026-11-06',
        'binary 2026-11-07',
        'ranks 2026-11-07',
        'binary 2026-11-08',
        'ranks 2026-11-08',
        'roi 2026-11-09',
        'binary 2026-11-09',
        'ranks 2026-11-09',
        'roi 2026-11-10',
        'binary 2026-11-10',
        'ranks 2026-11-10',
        'roi 2026-11-11',
        'binary 2026-11-11',
        'ranks 2026-11-11',
      ]);
      expect(caughtUp).toEqual(owed);
      expect(
        db
          .prepare(
            'select job, business_date, count(*) as n from job_runs group by job, business_date having n > 1',
          )
          .all(),
      ).toEqual([]);
      // Each missed business day's ROI was paid (once per package holder and day).
      const roiDays = db
        .prepare(
          "select substr(trans_id, 4, 8) as day, count(*) as n, count(distinct member_id) as members from transfers where reason = 'roi' and trans_id >= 'ROI20261109' group by day order by day",
        )
        .all() as { day: string; n: number; members: number }[];
      expect(roiDays.map((d) => d.day)).toEqual(['20261109', '20261110', '20261111']);
      expect(roiDays.every((d) => d.n === d.members && d.n > 0)).toBe(true);
      expect(ledgerCheck({ sqlite: db })).toMatchObject({
        balanced: true,
        negativeWallets: [],
        mismatchedWallets: [],
      });
    } finally {
      db.close();
    }
  }, 120_000);
});

describe('a crash during binary matching and again during its resume', () => {
  /** A small network with rank volume, on an in-memory database, at Monday 2 March 2026 09:00. */
  async function network() {
    const t = await createTestApp({ seed: 'empty', clock: manualClock(Date.parse('2026-03-02T09:00:00Z')) });
    let n = 0;
    const member = (sponsorId: number | null, side: '0' | '1') =>
      insertMember(t.services, {
        username: `k${++n}`,
        name: `K ${n}`,
        email: `k${n}@example.com`,
        country: 'United Kingdom',
        passwordHash: DEMO_PASSWORD_HASH,
        sponsorId,
        side,
        createdAt: t.clock.now(),
      }).id;
    const buy = (id: number, plan: string) => {
      const price = t.services.plan.packages.find((p) => p.name === plan)!.price;
      payDeposit(t.services, openDeposit(t.services, id, amountToMicros(price), 'USDT.BEP20').id);
      buyPackage(t.services, id, plan);
    };
    const top = member(null, '0');
    for (const side of ['0', '1'] as const) for (let i = 0; i < 4; i++) buy(member(top, side), 'Diamond');
    // Monday's ROI ran (00:05) before the volume came: the next runs are Monday's binary and ranks.
    runDueJobs(t.services, Date.parse('2026-03-01T12:00:00Z'), Date.parse('2026-03-02T09:00:00Z'));
    t.clock.set(Date.parse('2026-03-02T12:00:00Z'));
    return t;
  }
  const rankPayouts = (t: Awaited<ReturnType<typeof network>>) =>
    t.services.sqlite
      .prepare(
        "select member_id, amount from transfers where reason = 'rank_reward' order by member_id, amount",
      )
      .all();

  it('still runs that date’s ranks (it was skipped: catch-up started from the last run’s time)', async () => {
    const control = await network();
    runDueJobs(control.services, Date.parse('2026-03-02T09:00:00Z'), control.clock.now());
    const expected = rankPayouts(control);
    expect(expected.length).toBeGreaterThan(0);

    const t = await network();
    engineHooks.chunkSize = 2;
    engineHooks.afterChunk = (job, _date, _cursor, phase) => {
      if (job === 'binary' && phase === 'pay') throw new Error('killed during binary matching');
    };
    expect(() => runDueJobs(t.services, Date.parse('2026-03-02T09:00:00Z'), t.clock.now())).toThrow('killed');
    // The restart: the start-up resume dies too.
    expect(() => runDueJobs(t.services, t.clock.now(), t.clock.now())).toThrow('killed');
    delete engineHooks.afterChunk;
    // The next start: the timer asks about an empty interval (now, now]; job_runs says what is owed.
    expect(runDueJobs(t.services, t.clock.now(), t.clock.now()).map((r) => [r.job, r.date])).toEqual([
      ['binary', '2026-03-02'],
      ['ranks', '2026-03-02'],
    ]);
    expect(rankPayouts(t)).toEqual(expected);
    await expectLedgerSound(t);
    await t.close();
    await control.close();
  });
});
