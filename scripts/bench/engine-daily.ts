/**
 * One full daily run (ROI 00:05, binary matching and rank evaluation at 11:00 London) over a
 * big database: N members (default 100,000) in a deep binary tree (each member placed under one
 * of the 20 latest members with a free side, so legs run thousands deep), half of them with an
 * ACTIVE package and a day's purchase volume waiting to be folded.
 *   node --import tsx scripts/bench/engine-daily.ts [--members 100000] [--days 4] [--db /tmp/md-scale/engine-1m.sqlite]
 * `--db FILE` keeps the built network (before any run) in FILE and starts from a copy of it next
 * time (building 1,000,000 members takes longer than their run). By default chunks are fixed
 * (engineHooks.chunkSize, 2,000 members); `--chunk-ms 40` sizes them as the server's worker does
 * (starting at `--first-chunk`, default 100, adapting towards that many ms each).
 * The runs execute on a connection opened as the server's worker opens it (run-connection.ts);
 * `--sync full`: commits synced as the request connection's are (the worker's are not).
 * Prints each day's time per job and the median total, with the process's CPU time and, on
 * Linux, the time it spent waiting for a CPU (on a shared machine the wall time also counts
 * other processes' turns; wall minus that wait is what an idle machine would show).
 * Beside each day, the floor of its own rows (rows-floor.ts): the rows the day left new, changed or
 * removed, written into a copy of the day's start by plain statements in as many commits, a
 * statement a row and by set statements; the day's CPU ÷ the cheaper floor's is the goal's ratio (≤ 3×). `--no-floor` skips it (the copies and the diff take
 * a few seconds a day at 100,000 members).
 * `--advance P30D`: instead of the days above, a day's purchases' volume and then one
 * `POST /__qa/clock { advance }` as a tester sends it (the runs in the app's worker thread,
 * sized as the server sizes them, the thread started from its bundle as `npm start` starts it);
 * prints its time, CPU and CPU wait (every thread of the process).
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../apps/server/src/app.ts';
import { manualClock } from '../../apps/server/src/core/clock.ts';
import { DEMO_PASSWORD_HASH } from '../../apps/server/src/core/passwords.ts';
import { backfillBinaryStats } from '../../apps/server/src/modules/engine/stats.ts';
import { engineHooks, runDueJobs } from '../../apps/server/src/modules/engine/jobs.ts';
import { openRunConnection } from '../../apps/server/src/modules/engine/run-connection.ts';
import { openDeposit, payDeposit } from '../../apps/server/src/modules/deposits/deposits.ts';
import { buyPackage } from '../../apps/server/src/modules/packages/packages.ts';
import { median, numberArg, stringArg } from './cli.ts';
import { describeChanges, rowChanges, snapshotDatabase, writeFloor } from './rows-floor.ts';

const MEMBERS = numberArg('members', 100_000);
const DAYS = Math.min(numberArg('days', 4), 4);
const FLOOR = !process.argv.includes('--no-floor'); // Monday start: days 1–4 each include ROI (Tue–Fri 00:05)
const chunkMs = stringArg('chunk-ms');
if (chunkMs !== undefined) {
  engineHooks.chunkMs = Number(chunkMs);
  engineHooks.chunkSize = numberArg('first-chunk', 100);
}
/**
 * Nanoseconds this thread (or, with `allThreads`, every thread of the process: the daily runs'
 * worker too, and the helpers V8 runs beside it) has waited on a run queue so far (Linux), else 0.
 */
const runQueueWait = (allThreads = false) => {
  if (!existsSync('/proc/thread-self/schedstat')) return 0;
  const waited = (path: string) => {
    try {
      return Number(readFileSync(path, 'utf8').split(' ')[1]);
    } catch {
      return 0; // the thread ended meanwhile
    }
  };
  if (!allThreads) return waited('/proc/thread-self/schedstat');
  return readdirSync('/proc/self/task').reduce(
    (sum, task) => sum + waited(`/proc/self/task/${task}/schedstat`),
    0,
  );
};
const advance = stringArg('advance');
// The clock move runs in the app's worker thread: started from its bundle, as `npm start` starts it
// (through tsx the thread first compiles the server's sources, 2–3 s of the move; core/worker-module.ts).
if (advance) {
  const build = fileURLToPath(new URL('../../apps/server/build.mjs', import.meta.url));
  execFileSync(process.execPath, [build, '--workers'], { stdio: 'inherit' });
  process.env.SERVER_WORKERS = 'bundle';
}

const dir = mkdtempSync(join(tmpdir(), 'md-bench-engine-'));
// Monday 2 March 2026, 09:00 UTC: each bench day is a business day with all three runs.
const start = Date.parse('2026-03-02T09:00:00Z');
const clock = manualClock(start);
/** A kept network (and the random generator's state after building it) for these members. */
const kept = stringArg('db');
const keptState = kept && `${kept}.json`;
const reuse =
  kept !== undefined &&
  existsSync(kept) &&
  existsSync(keptState!) &&
  (JSON.parse(readFileSync(keptState!, 'utf8')) as { members: number }).members === MEMBERS;
if (reuse) copyFileSync(kept, join(dir, 'bench.sqlite'));
const { services, fastify } = await buildApp({
  databasePath: join(dir, 'bench.sqlite'),
  seed: 'empty',
  clock,
  config: { rateLimits: false, validateOutput: false },
});
const db = services.sqlite;
db.pragma('synchronous = NORMAL');
let seed = 7;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

let t0 = performance.now();
if (reuse) seed = (JSON.parse(readFileSync(keptState!, 'utf8')) as { seed: number }).seed;
else buildNetwork();
const depth = db.prepare('select max(depth) as d, avg(depth) as a from binary_stats').get() as {
  d: number;
  a: number;
};
console.log(
  `${MEMBERS} members (binary depth max ${depth.d}, mean ${Math.round(depth.a)}), half with a Gold package: ${Math.round(performance.now() - t0)} ms${reuse ? ` (copy of ${kept})` : ''}`,
);
if (kept && !reuse) {
  rmSync(kept, { force: true });
  db.exec(`vacuum into '${kept.replaceAll("'", "''")}'`);
  writeFileSync(keptState!, JSON.stringify({ members: MEMBERS, seed }));
}
// The server runs the daily runs on the worker's own connection (engine/run-connection.ts): its
// commits do not wait for the disk, and no read-cache trigger calls into JS for each row written
// (the request connection's do: ~17 % of a day's CPU at 100,000 members). Measured here on that
// connection; `--sync full` measures them with the request connection's setting instead.
const runs = openRunConnection(join(dir, 'bench.sqlite'), clock, services.plan);
if (stringArg('sync') === 'full') runs.sqlite.pragma('synchronous = FULL');
/** The floor's connection: opened as the runs' (and synced as they are). */
const openLikeRuns = (path: string) => {
  const sqlite = openRunConnection(path, clock, services.plan).sqlite;
  sqlite.pragma(`synchronous = ${runs.sqlite.pragma('synchronous', { simple: true }) as number}`);
  return sqlite;
};

function buildNetwork() {
  const insertMember = db.prepare(
    `insert into members (id, username, name, email, country, sponsor_id, parent_id, side, created_at, password_hash) values (?, ?, ?, ?, 'India', ?, ?, ?, ?, ?)`,
  );
  const insertSubscription = db.prepare(
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
        `m${i}`,
        `m${i}`,
        `m${i}@example.com`,
        sponsor,
        parent,
        side,
        start - 60 * 86_400_000,
        DEMO_PASSWORD_HASH,
      );
      if (i % 2 === 0) insertSubscription.run(`PKB${i}`, i, start - 86_400_000);
    }
  })();
  backfillBinaryStats(services);
}

/** Per job and phase: chunks, their total and longest time (each chunk is one transaction: work and commit). */
const chunks = new Map<string, { n: number; ms: number; max: number }>();
let chunkStart = performance.now();
engineHooks.afterChunk = (job, _date, _cursor, phase) => {
  const now = performance.now();
  const key = phase === 'pay' ? job : `${job} ${phase}`;
  const c = chunks.get(key) ?? { n: 0, ms: 0, max: 0 };
  c.n++;
  c.ms += now - chunkStart;
  c.max = Math.max(c.max, now - chunkStart);
  chunks.set(key, c);
  chunkStart = now;
};
const totals: number[] = [];
const cpuTotals: number[] = [];
/** Each day's CPU ÷ its rows' floor CPU, and wall ÷ wall. */
const floorRatios: { cpu: number; wall: number }[] = [];
const ownTotals: number[] = [];
const addVolume = db.prepare(
  'update binary_stats set own_binary_pending = own_binary_pending + ?, own_rank_pending = own_rank_pending + ? where member_id = ?',
);
if (advance) {
  // A day's purchases, then the tester's clock move: every run it makes due, in the worker thread.
  db.transaction(() => {
    for (let i = 1; i <= MEMBERS; i++) if (random() < 0.1) addVolume.run(250_000_000, 250_000_000, i);
  })();
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  const wait0 = runQueueWait(true);
  const response = await fastify.inject({
    method: 'POST',
    url: '/__qa/clock?wait=true',
    payload: { advance },
  });
  const ms = performance.now() - t1;
  const cpu = process.cpuUsage(cpu0);
  if (response.statusCode !== 200)
    throw new Error(`POST /__qa/clock answered ${response.statusCode}: ${response.body}`);
  const ran = (response.json() as { ran: { job: string }[] }).ran;
  const count = (job: string) => ran.filter((r) => r.job === job).length;
  console.log(
    `POST /__qa/clock { advance: ${advance} } over ${MEMBERS} members: ${Math.round(ms)} ms (CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms, waiting for a CPU ${Math.round((runQueueWait(true) - wait0) / 1e6)} ms over all threads); ${ran.length} runs: ROI ${count('roi')}, binary ${count('binary')}, ranks ${count('ranks')}`,
  );
}
for (let day = 0; day < (advance ? 0 : DAYS); day++) {
  // The day's purchases: a tenth of the members add volume (as buyPackage records it).
  db.transaction(() => {
    for (let i = 1; i <= MEMBERS; i++) if (random() < 0.1) addVolume.run(250_000_000, 250_000_000, i);
  })();
  const before = join(dir, 'before.sqlite');
  if (FLOOR) snapshotDatabase(db, before);
  const from = clock.now();
  const to = from + 86_400_000;
  clock.set(to);
  // Split at the due instants to time each job: binary + ranks (11:00), then ROI (00:05 next day).
  const ran = [];
  const parts: string[] = [];
  t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const wait0 = runQueueWait();
  for (const [a, b] of [
    [from, from + 2 * 3_600_000 + 60_000],
    [from + 2 * 3_600_000 + 60_000, to],
  ] as const) {
    const p0 = performance.now();
    chunkStart = p0;
    ran.push(...runDueJobs(runs, a, b));
    parts.push(`${Math.round(performance.now() - p0)} ms`);
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const waitMs = (runQueueWait() - wait0) / 1e6;
  console.log(
    `  binary+ranks ${parts[0]}, roi ${parts[1]}; CPU ${Math.round(cpuMs)} ms, waiting for a CPU ${Math.round(waitMs)} ms`,
  );
  console.log(
    `  chunks: ${[...chunks].map(([k, c]) => `${k} ${c.n} in ${Math.round(c.ms)} ms (longest ${Math.round(c.max)})`).join(', ')}`,
  );
  const commits = [...chunks.values()].reduce((sum, c) => sum + c.n, 0);
  chunks.clear();
  if (FLOOR) {
    runs.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const changes = rowChanges(join(dir, 'bench.sqlite'), before);
    const floors = (['rows', 'sets'] as const).map((mode) => ({
      mode,
      ...writeFloor(
        changes,
        before,
        join(dir, 'bench.sqlite'),
        join(dir, 'floor.sqlite'),
        commits,
        openLikeRuns,
        mode,
      ),
    }));
    rmSync(before, { force: true });
    // The goal's floor is the cheaper way of writing them.
    const floor = floors.reduce((a, b) => (b.cpuMs < a.cpuMs ? b : a));
    floorRatios.push({ cpu: cpuMs / floor.cpuMs, wall: ms / floor.ms });
    console.log(
      `  its rows' floor: ${(changes.inserted + changes.updated + changes.deleted).toLocaleString('en')} rows (${describeChanges(changes)}); ` +
        floors
          .map(
            (f) =>
              `${f.mode === 'rows' ? 'a statement a row' : 'set statements'} in ${f.commits} commits ${Math.round(f.ms)} ms (CPU ${Math.round(f.cpuMs)} ms)`,
          )
          .join(', ') +
        `; the day ÷ the cheaper ${(cpuMs / floor.cpuMs).toFixed(2)}× CPU, ${(ms / floor.ms).toFixed(2)}× wall`,
    );
  }
  totals.push(ms);
  cpuTotals.push(cpuMs);
  ownTotals.push(ms - waitMs);
  console.log(
    `day ${day + 1}: ${Math.round(ms)} ms — ${ran.map((r) => `${r.job} ${r.date}: ${r.summary}`).join('; ')}`,
  );
}
if (!advance)
  console.log(
    `median full daily run over ${MEMBERS} members: ${Math.round(median(totals))} ms (CPU ${Math.round(median(cpuTotals))} ms; without waiting for a CPU ${Math.round(median(ownTotals))} ms)` +
      (floorRatios.length
        ? `; ÷ its rows' floor ${median(floorRatios.map((r) => r.cpu)).toFixed(2)}× CPU, ${median(floorRatios.map((r) => r.wall)).toFixed(2)}× wall (goal ≤ 3×)`
        : ''),
  );

// A purchase by the deepest member (level income 5 sponsors up, volume recorded once on the buyer).
const deepest = db
  .prepare('select member_id as id, depth from binary_stats order by depth desc limit 1')
  .get() as { id: number; depth: number };
const purchases: number[] = [];
for (let k = 0; k < 21; k++) {
  payDeposit(services, openDeposit(services, deepest.id, 100_000_000, 'USDT.BEP20').id);
  const p0 = performance.now();
  buyPackage(services, deepest.id, 'Starter');
  purchases.push(performance.now() - p0);
}
console.log(
  `purchase by a member ${deepest.depth} binary levels deep: median ${median(purchases).toFixed(2)} ms`,
);
runs.sqlite.close();
await fastify.close();
db.close();
rmSync(dir, { recursive: true, force: true });
