/**
 * The real server (main.ts, its runs in the worker thread) SIGKILLed again and again during a
 * daily run on a network of 2,000 members with packages and a day's volume waiting: Monday's
 * binary run (staging, fold, matching) and ranks, Tuesday's ROI. Each restart finishes what was
 * left (the start-up resume, then the timer's catch-up) until it is all done. Every payout
 * (member, wallet, amount, business date), the volumes, ranks and caps must then be exactly those
 * of an uninterrupted copy, each job of each date must be in job_runs once, and the ledger must be
 * sound after every kill.
 *
 * Where it kills: the worker prints and stops after its n-th chunk (ENGINE_PAUSE_AFTER_CHUNK, fixed
 * chunks of ENGINE_CHUNK_SIZE) and the test kills it there, at positions drawn with a seeded random
 * inside each phase of the control run's chunk list (ENGINE_TRACE_CHUNKS); some kills come instead
 * after a random time, wherever the server is (in a chunk's transaction, computing the fold,
 * claiming). The first kill interrupts the run the QA clock started; every later one interrupts a
 * start-up resume. ENGINE_KILL_SEED=n replays another draw.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { manualClock } from '../src/core/clock.ts';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import { runDueJobs } from '../src/modules/engine/jobs.ts';
import { JOBS } from '../src/modules/engine/schedule.ts';
import { backfillBinaryStats } from '../src/modules/engine/stats.ts';
import { ledgerCheck } from '../src/modules/ledger/ledger.ts';
import { seeded } from './helpers.ts';

const root = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'engine-kill-'));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const MEMBERS = 2_000;
const CHUNK = 40;
const SEED = Number(process.env.ENGINE_KILL_SEED ?? 20_260_302);
/** Monday 2 March 2026, 09:00 UTC (London): history is done up to Monday's ROI. */
const MONDAY = Date.parse('2026-03-02T09:00:00Z');
/** The QA clock's target: Monday's binary and ranks (11:00) and Tuesday's ROI (00:05) fall due. */
const TARGET = '2026-03-03T00:06:00.000Z';
const RUNS = [
  ['binary', '2026-03-02'],
  ['ranks', '2026-03-02'],
  ['roi', '2026-03-03'],
] as const;

/** The network: deep spillover legs, a Gold package for every other member, a past week's runs, then a day's purchases' volume. */
async function buildBase(path: string) {
  const random = seeded(7);
  const { services, fastify } = await buildApp({
    databasePath: path,
    seed: 'empty',
    clock: manualClock(MONDAY),
  });
  const db = services.sqlite;
  const insertMember = db.prepare(
    `insert into members (id, username, name, email, country, sponsor_id, parent_id, side, created_at, password_hash) values (?, ?, ?, ?, 'India', ?, ?, ?, ?, ?)`,
  );
  const subscribe = db.prepare(
    `insert into subscriptions (trans_id, member_id, plan, amount, roi_basis_points, max_earnings, binary_volume, rank_volume, created_at)
     values (?, ?, 'Gold', 1000000000, 150, 3000000000, 1000000000, 1000000000, ?)`,
  );
  const taken = new Uint8Array((MEMBERS + 1) * 2);
  db.transaction(() => {
    for (let i = 1; i <= MEMBERS; i++) {
      let parent: number | null = null;
      let side: '0' | '1' | null = null;
      for (let tries = 0; i > 1; tries++) {
        const candidate =
          tries < 40 ? Math.max(1, i - 1 - Math.floor(random() * 20)) : 1 + Math.floor(random() * (i - 1));
        const s = random() < 0.5 ? 0 : 1;
        const free = !taken[candidate * 2 + s] ? s : !taken[candidate * 2 + (1 - s)] ? 1 - s : -1;
        if (free < 0) continue;
        taken[candidate * 2 + free] = 1;
        parent = candidate;
        side = free === 0 ? '0' : '1';
        break;
      }
      const sponsor =
        parent === null ? null : random() < 0.5 ? parent : Math.max(1, parent - Math.floor(random() * 50));
      insertMember.run(
        i,
        `k${i}`,
        `k${i}`,
        `k${i}@example.com`,
        sponsor,
        parent,
        side,
        MONDAY - 30 * 86_400_000,
        DEMO_PASSWORD_HASH,
      );
      if (i % 2 === 0) subscribe.run(`PKK${i}`, i, MONDAY - 7 * 86_400_000);
    }
  })();
  backfillBinaryStats(services);
  // Last week's runs (ROI pays the packages; no volume yet), up to Monday's ROI.
  runDueJobs(services, MONDAY - 4 * 86_400_000, MONDAY);
  // The weekend's purchases: volume on three members in ten, waiting for Monday's binary run.
  const volume = db.prepare(
    'update binary_stats set own_binary_pending = own_binary_pending + ?, own_rank_pending = own_rank_pending + ? where member_id = ?',
  );
  db.transaction(() => {
    for (let i = 1; i <= MEMBERS; i++) if (random() < 0.3) volume.run(250_000_000, 250_000_000, i);
  })();
  await fastify.close();
}

/** Puts the file's persisted clock at `at` (the server's clock runs on from there). */
function setClock(path: string, at: number) {
  const db = new Database(path);
  db.prepare(
    'insert into clock_state (id, offset_ms) values (1, ?) on conflict(id) do update set offset_ms = excluded.offset_ms',
  ).run(at - Date.now());
  db.close();
}

interface Server {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: () => string;
  /** Lines the worker printed: `engine paused after chunk …` and, traced, `engine chunk …`. */
  lines: string[];
  exited: Promise<void>;
}

async function startServer(path: string, env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, [inject('serverBundle')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_PATH: path,
      PORT: '0',
      HOST: '127.0.0.1',
      JWT_SECRET: 'engine-kill-test',
      NODE_ENV: 'development',
      ENGINE_CHUNK_SIZE: String(CHUNK),
      ...env,
    },
  });
  children.push(child);
  const lines: string[] = [];
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let partial = '';
  const collect = (d: Buffer) => {
    output += d.toString();
    partial += d.toString();
    const complete = partial.split('\n');
    partial = complete.pop()!;
    for (const line of complete) if (line.startsWith('engine ')) lines.push(line);
  };
  const url = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      collect(d);
      const port = /Member dashboard on http:\/\/localhost:(\d+)/.exec(output)?.[1];
      if (port) done(`http://127.0.0.1:${port}`);
    });
    child.stderr.on('data', collect);
    void exited.then(() => fail(new Error(`server exited before listening: ${output}`)));
  });
  return { child, url, lines, exited, output: () => output };
}

/** Sets the QA clock to TARGET: runs what falls due (answered when done), or nothing when the clock is already there. */
const setTarget = (url: string) =>
  fetch(`${url}/__qa/clock?wait=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ set: TARGET }),
  }).then(
    (r) => r.status,
    () => 0, // killed before answering
  );

const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Reads the file in a connection of its own (the server may be running). */
function inspect<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path);
  db.pragma('busy_timeout = 10000');
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const runsDone = (path: string) =>
  inspect(
    path,
    (db) =>
      (
        db
          .prepare(
            "select count(*) as n from job_runs where status = 'done' and business_date >= '2026-03-02' and not (job = 'roi' and business_date = '2026-03-02')",
          )
          .get() as { n: number }
      ).n,
  );

/** Everything the run decides, comparable across databases (ids and times of writing left out). */
function outcome(db: Database.Database) {
  const all = (sql: string) => db.prepare(sql).all();
  return {
    // Every payout: member, wallet, amount, business date (the instant of the run it belongs to).
    payouts: all(
      `select t.member_id as member, a.wallet, t.amount, t.reason, t.created_at as at from transfers t join accounts a on a.id = t.to_account_id
        where t.reason in ('roi', 'binary_income', 'rank_reward') order by member, wallet, at, amount`,
    ),
    transIds: all(
      "select trans_id from transfers where reason in ('roi', 'binary_income', 'rank_reward') order by trans_id",
    ),
    legs: all(
      `select member_id, own_binary_pending, own_rank_pending, left_pending, right_pending, left_carry, right_carry, left_total, right_total, rank_left, rank_right, rank
         from binary_stats order by member_id`,
    ),
    volumes: all(
      `select kind, trans_id, member_id, volume, left_volume, left_carry, left_total, right_volume, right_carry, right_total, status, created_at
         from volume_entries order by trans_id`,
    ),
    rewards: all('select trans_id, member_id, rank, reward, created_at from rank_rewards order by trans_id'),
    caps: all('select id, total_earnings, status, reason from subscriptions order by id'),
    notifications: all(
      'select member_id, type, message, trans_id, created_at from notifications order by member_id, trans_id, type',
    ),
    // The ROI payouts without a notice (their notices are read from the credits above otherwise).
    withheld: all('select member_id, trans_id from notices_withheld order by member_id, trans_id'),
    balances: all(
      "select member_id, wallet, balance from accounts where kind = 'member' order by member_id, wallet",
    ),
  };
}

/**
 * The network before the run (`base`) and the same run never interrupted (`control`): its chunk
 * list (job, phase, cursor after each) and what it decided. Built once for the tests below.
 */
let controlBuilt:
  | Promise<{
      base: string;
      control: string;
      trace: { job: string; date: string; phase: string; cursor: number }[];
      expected: ReturnType<typeof outcome>;
    }>
  | undefined;
const controlRun = () =>
  (controlBuilt ??= (async () => {
    const base = join(dir, 'base.sqlite');
    await buildBase(base);
    const control = join(dir, 'control.sqlite');
    copyFileSync(base, control);
    setClock(control, MONDAY);
    const uninterrupted = await startServer(control, { ENGINE_TRACE_CHUNKS: '1' });
    expect(await setTarget(uninterrupted.url)).toBe(200);
    uninterrupted.child.kill('SIGTERM');
    await uninterrupted.exited;
    const trace = uninterrupted.lines
      .map((line) => /^engine chunk \d+: (\w+) (\S+) (\w+) (\d+)/.exec(line))
      .filter((m) => m !== null)
      .map(([, job, date, phase, cursor]) => ({
        job: job!,
        date: date!,
        phase: phase!,
        cursor: Number(cursor),
      }));
    return { base, control, trace, expected: inspect(control, outcome) };
  })());

/** After a kill: the ledger is sound and every payout made is one the control made (none twice). */
function expectPartOf(path: string, expected: ReturnType<typeof outcome>, what: string) {
  const state = inspect(path, (db) => ({ ledger: ledgerCheck({ sqlite: db }), paid: outcome(db).payouts }));
  expect(state.ledger, `ledger after ${what}`).toMatchObject({
    balanced: true,
    negativeWallets: [],
    mismatchedWallets: [],
  });
  const left = new Map<string, number>();
  for (const p of expected.payouts) left.set(JSON.stringify(p), (left.get(JSON.stringify(p)) ?? 0) + 1);
  for (const p of state.paid) {
    const k = JSON.stringify(p);
    expect(left.get(k) ?? 0, `after ${what}: ${k}`).toBeGreaterThan(0);
    left.set(k, left.get(k)! - 1);
  }
  return state.paid.length;
}

describe('the real server killed at random moments of a daily run', () => {
  it('pays exactly what an uninterrupted server pays, each run once, the ledger sound after every kill', async () => {
    // The control: the same file, never interrupted; its chunk list tells where each phase is.
    const { base, control, trace, expected } = await controlRun();
    const phases = ['binary/stage', 'binary/fold', 'binary/pay', 'ranks/pay', 'roi/pay'];
    for (const phase of phases)
      expect(
        trace.some((c) => `${c.job}/${c.phase}` === phase),
        phase,
      ).toBe(true);
    expect(expected.payouts.length).toBeGreaterThan(1_000);
    for (const reason of ['roi', 'binary_income', 'rank_reward'])
      expect(
        expected.payouts.some((p) => (p as { reason: string }).reason === reason),
        reason,
      ).toBe(true);

    /** How many of the control's chunks a database has done: the position of its runs' state in the chunk list. */
    const order = (job: string, date: string) => RUNS.findIndex(([j, d]) => j === job && d === date);
    const phaseOrder = ['stage', 'fold', 'pay'];
    const key = (s: { job: string; date: string; phase: string; cursor: number }) => [
      order(s.job, s.date),
      phaseOrder.indexOf(s.phase),
      s.cursor,
    ];
    const before = (a: number[], b: number[]) =>
      a[0]! < b[0]! || (a[0] === b[0] && (a[1]! < b[1]! || (a[1] === b[1] && a[2]! <= b[2]!)));
    const progress = (path: string) =>
      inspect(path, (db) => {
        const rows = db
          .prepare(
            "select job, business_date as date, status, phase, cursor from job_runs where business_date >= '2026-03-02' and not (job = 'roi' and business_date = '2026-03-02') order by id",
          )
          .all() as { job: string; date: string; status: string; phase: string; cursor: number }[];
        const running = rows.find((r) => r.status === 'running');
        const done = rows.filter((r) => r.status === 'done').map((r) => order(r.job, r.date));
        if (running) return trace.filter((c) => before(key(c), key(running))).length;
        // Between runs: every chunk of the runs done.
        return trace.filter((c) => done.includes(order(c.job, c.date))).length;
      });

    // Kill points: three distinct chunks drawn in each phase (a random kill may carry the run past
    // some of them, so at least 10 kills are left whatever the chunk sizes), and between them a kill at a random time.
    const random = seeded(SEED);
    const points = new Set<number>();
    for (const phase of phases) {
      const at = trace.flatMap((c, i) => (`${c.job}/${c.phase}` === phase ? [i + 1] : []));
      const wanted = Math.min(3, at.length);
      for (let drawn = 0, tries = 0; drawn < wanted && tries < 100; tries++) {
        const point = at[Math.floor(random() * at.length)]!;
        if (!points.has(point)) {
          points.add(point);
          drawn++;
        }
      }
    }
    const plan = [...points].sort((a, b) => a - b);
    const crash = join(dir, 'crash.sqlite');
    copyFileSync(base, crash);
    setClock(crash, MONDAY);

    const kills: string[] = [];
    const checkAfterKill = (what: string) => {
      kills.push(what);
      // Nothing paid that the control did not pay, nothing paid twice: a sub-multiset of the control's payouts.
      expectPartOf(crash, expected, what);
    };

    let first = true;
    let next = 0;
    let randomKills = 0;
    for (let restarts = 0; runsDone(crash) < RUNS.length; restarts++) {
      expect(restarts, `kills so far: ${kills.join('; ')}`).toBeLessThan(40);
      const done = progress(crash);
      while (next < plan.length && plan[next]! <= done) next++;
      // Every third restart, a kill at a random time instead of at a chunk.
      const atRandom = restarts % 3 === 2 && randomKills < 4;
      // A random kill still stops at the next planned chunk if the run reaches it first, so no phase's points are skipped.
      const pauseAfter = next < plan.length ? plan[next]! - done : undefined;
      const server = await startServer(
        crash,
        pauseAfter ? { ENGINE_PAUSE_AFTER_CHUNK: String(pauseAfter) } : {},
      );
      // The first start has nothing to resume: the QA clock starts the run. Later starts resume by themselves.
      const clock = setTarget(server.url);
      const where = first ? 'the run the QA clock started' : 'a start-up resume';
      first = false;
      if (atRandom) {
        const until = Date.now() + 50 + Math.floor(random() * 700);
        let pausedFirst: string | undefined;
        while (!pausedFirst && Date.now() < until) {
          await wait(10);
          pausedFirst = server.lines.find((l) => l.startsWith('engine paused'));
        }
        server.child.kill('SIGKILL');
        await server.exited;
        if (pausedFirst) {
          next++;
          checkAfterKill(`${pausedFirst.replace('engine paused after ', '')} of ${where}`);
        } else {
          randomKills++;
          checkAfterKill(`a random time in ${where} (chunks done: ${done} before, ${progress(crash)} after)`);
        }
        continue;
      }
      // Until the worker pauses at the planned chunk (kill it there), or everything is done (stop it).
      let paused: string | undefined;
      for (let waited = 0; !paused && runsDone(crash) < RUNS.length; waited += 20) {
        expect(
          waited,
          `the server pausing or finishing (kills: ${kills.join('; ')}): ${server.output().slice(-3000)}`,
        ).toBeLessThan(60_000);
        expect(server.child.exitCode, server.output()).toBeNull();
        await wait(20);
        paused = server.lines.find((l) => l.startsWith('engine paused'));
      }
      if (paused) {
        server.child.kill('SIGKILL');
        await server.exited;
        next++;
        checkAfterKill(`${paused.replace('engine paused after ', '')} of ${where}`);
        continue;
      }
      await clock;
      server.child.kill('SIGTERM');
      await server.exited;
    }

    expect(kills.length, kills.join('; ')).toBeGreaterThanOrEqual(10);
    expect(kills.filter((k) => k.includes('start-up resume')).length).toBeGreaterThanOrEqual(8);
    for (const phase of phases)
      expect(
        kills.some((k) => k.includes(`${phase.split('/')[0]} `) && k.includes(` ${phase.split('/')[1]} `)),
        `a kill in ${phase}: ${kills.join('; ')}`,
      ).toBe(true);

    const result = inspect(crash, (db) => ({
      outcome: outcome(db),
      runs: db
        .prepare(
          'select job, business_date as date, status, count(*) as n from job_runs group by job, business_date order by business_date, job',
        )
        .all(),
      ledger: ledgerCheck({ sqlite: db }),
    }));
    const controlRuns = inspect(control, (db) =>
      db
        .prepare(
          'select job, business_date as date, status, count(*) as n from job_runs group by job, business_date order by business_date, job',
        )
        .all(),
    );
    expect(result.runs).toEqual(controlRuns);
    expect(
      (result.runs as { n: number; status: string; job: string }[]).every(
        (r) => r.n === 1 && r.status === 'done' && (JOBS as readonly string[]).includes(r.job),
      ),
    ).toBe(true);
    expect(result.ledger).toMatchObject({ balanced: true, negativeWallets: [], mismatchedWallets: [] });
    expect(result.outcome.payouts).toEqual(expected.payouts);
    expect(result.outcome).toEqual(expected);
    // 15–20 real server starts: 95–175 s beside the browser suite; 240 s was reached at load 12.
  }, 400_000);
});

describe('the real server killed inside a set-based chunk', () => {
  it('loses that chunk whole (payouts, caps, credits, notifications written but not committed), and the resumed run pays what the control pays', async () => {
    const { base, control, trace, expected } = await controlRun();
    /**
     * The number (from 1) of a job's first pay chunk that follows another of its pay chunks in the
     * control's chunk list (a trace line tells the phase and cursor after the chunk: the fold's
     * last chunk already reads 'pay', cursor 0).
     */
    const payChunkAfterAnother = (job: string) =>
      trace.findIndex(
        (c, i) =>
          i > 0 &&
          c.job === job &&
          c.phase === 'pay' &&
          trace[i - 1]!.job === job &&
          trace[i - 1]!.phase === 'pay' &&
          trace[i - 1]!.cursor > 0,
      ) + 1;
    const binaryAt = payChunkAfterAnother('binary');
    const roiAt = payChunkAfterAnother('roi');
    expect(binaryAt).toBeGreaterThan(0);
    expect(roiAt).toBeGreaterThan(binaryAt);
    const crash = join(dir, 'inside.sqlite');
    copyFileSync(base, crash);
    setClock(crash, MONDAY);
    const cursorOf = (job: string, date: string) =>
      inspect(crash, (db) =>
        db.prepare('select phase, cursor from job_runs where job = ? and business_date = ?').get(job, date),
      );

    // Each kill point in the chunk numbering of the start that reaches it: a start resumes at the chunk the kill lost.
    for (const [job, date, pauseAt] of [
      ['binary', '2026-03-02', binaryAt],
      ['roi', '2026-03-03', roiAt - binaryAt + 1],
    ] as const) {
      const server = await startServer(crash, { ENGINE_PAUSE_INSIDE_CHUNK: String(pauseAt) });
      void setTarget(server.url);
      let paused: string | undefined;
      for (let waited = 0; !paused; waited += 20) {
        expect(
          waited,
          `the server pausing inside chunk ${pauseAt}: ${server.output().slice(-3000)}`,
        ).toBeLessThan(60_000);
        await wait(20);
        paused = server.lines.find((l) => l.startsWith('engine paused inside'));
      }
      expect(paused).toBe(`engine paused inside chunk ${pauseAt}: ${job} ${date} pay`);
      server.child.kill('SIGKILL');
      await server.exited;
      // The chunk before the killed one is the last committed: the cursor is where the control's was after it.
      const killedAt = job === 'binary' ? binaryAt : roiAt;
      expect(cursorOf(job, date)).toEqual({ phase: 'pay', cursor: trace[killedAt - 2]!.cursor });
      expectPartOf(crash, expected, `a kill inside ${job} chunk ${killedAt}`);
      // Exactly the control's payouts and notifications of this run up to that cursor: nothing of the killed chunk is left.
      const prefix = `${job === 'binary' ? 'BV' : 'ROI'}${date.replaceAll('-', '')}M%`;
      const written = (path: string, upTo: number) =>
        inspect(path, (db) => ({
          transfers: db
            .prepare('select count(*) as n from transfers where trans_id like ? and member_id <= ?')
            .get(prefix, upTo),
          notifications: db
            .prepare('select count(*) as n from notifications where trans_id like ? and member_id <= ?')
            .get(prefix, upTo),
        }));
      const committed = written(control, trace[killedAt - 2]!.cursor);
      expect((committed.transfers as { n: number }).n).toBeGreaterThan(0);
      expect(written(crash, Number.MAX_SAFE_INTEGER)).toEqual(committed);
    }
    // The last start resumes the ROI run from the lost chunk to the end.
    const server = await startServer(crash, {});
    const clock = setTarget(server.url);
    for (let waited = 0; runsDone(crash) < RUNS.length; waited += 20) {
      expect(waited, server.output().slice(-3000)).toBeLessThan(60_000);
      await wait(20);
    }
    await clock;
    server.child.kill('SIGTERM');
    await server.exited;
    const result = inspect(crash, (db) => ({ outcome: outcome(db), ledger: ledgerCheck({ sqlite: db }) }));
    expect(result.ledger).toMatchObject({ balanced: true, negativeWallets: [], mismatchedWallets: [] });
    expect(result.outcome).toEqual(expected);
  }, 240_000);
});
