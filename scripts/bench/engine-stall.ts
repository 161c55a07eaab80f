/**
 * Requests while a daily run executes: the real server (the bundle `npm start` runs, or
 * the sources with --tsx) on a copy of a big database, a read (`/user/view_profile`) and a write
 * (a swap, `/wallet/transfer_wallet` ROI → Withdrawal, 0.01 USDT) sent every 50 ms by one signed-in
 * member while `POST /__qa/clock { advance: 'PT15H6M' }` runs Monday's binary matching and ranks and
 * Tuesday's ROI. Prints each kind's p50 / p99 / max latency during the run (and for a few seconds
 * before it, idle, for comparison), the run's wall time, the server's CPU time (all threads, and
 * the request thread alone) and the time its threads waited for a CPU (on a shared machine the
 * wall time counts other processes' turns too).
 *
 *   node --import tsx scripts/seed.ts --scenario scale --members 200000 --database /tmp/md-scale/stall/scale-200k.sqlite
 *   node --import tsx scripts/bench/engine-stall.ts --db /tmp/md-scale/stall/scale-200k.sqlite [--every 50] [--tsx] [--server BUNDLE]
 *
 * The database is copied (the original stays as it was). A `scale` database without packages (before
 * the scenario had them) gets them here as scripts/bench/engine-daily.ts builds them: a Gold package
 * for every other member and a purchase's volume for one in ten. The member (`demo`, id 1) gets
 * 100,000 USDT in its ROI wallet to swap from, and the clock is put on the Monday 09:00 UTC after the
 * newest member joined. `--server FILE` runs another bundle (the previous main's, built in a worktree)
 * on the same copy, for the figures before.
 */
import { spawn, execFileSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { manualClock } from '../../apps/server/src/core/clock.ts';
import { moneyTransaction, transfer } from '../../apps/server/src/modules/ledger/ledger.ts';
import { numberArg, stringArg } from './cli.ts';

const root = resolve(import.meta.dirname, '../..');
const source = stringArg('db');
if (!source || !existsSync(source)) {
  console.error(
    'usage: engine-stall.ts --db FILE (a scale database: node --import tsx scripts/seed.ts --scenario scale --members N --database FILE)',
  );
  process.exit(1);
}
const EVERY_MS = numberArg('every', 50);
const IDLE_MS = numberArg('idle', 3_000);
const useTsx = process.argv.includes('--tsx');
/** Another build of the server to measure (e.g. the previous main's bundle, for the figures before). */
const otherServer = stringArg('server');

const dir = mkdtempSync(join(resolve(source, '..'), 'engine-stall-'));
const databasePath = join(dir, 'stall.sqlite');
copyFileSync(source, databasePath);
if (existsSync(`${source}-wal`)) copyFileSync(`${source}-wal`, `${databasePath}-wal`);

/** Packages and volume where the database has none; the demo member's ROI to swap from; the clock on a Monday 09:00 UTC. */
function prepare(): { members: number; packages: number; monday: string } {
  const sqlite = new Database(databasePath);
  sqlite.pragma('journal_mode = WAL');
  const one = (sql: string) => (sqlite.prepare(sql).get() as { n: number | null }).n ?? 0;
  const members = one('select count(*) as n from members');
  const newest = one('select max(created_at) as n from members');
  // The Monday after the newest member (and package), 09:00 UTC: 09:00 or 10:00 in London, before 11:00.
  const day = new Date(newest + 86_400_000);
  day.setUTCHours(9, 0, 0, 0);
  while (day.getUTCDay() !== 1) day.setUTCDate(day.getUTCDate() + 1);
  const clock = manualClock(day.getTime());
  if (one("select count(*) as n from subscriptions where status = 'ACTIVE'") === 0) {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const subscribe = sqlite.prepare(
      `insert into subscriptions (trans_id, member_id, plan, amount, roi_basis_points, max_earnings, binary_volume, rank_volume, created_at)
       values (?, ?, 'Gold', 1000000000, 150, 3000000000, 1000000000, 1000000000, ?)`,
    );
    const volume = sqlite.prepare(
      'update binary_stats set own_binary_pending = own_binary_pending + ?, own_rank_pending = own_rank_pending + ? where member_id = ?',
    );
    sqlite.transaction(() => {
      for (const { id } of sqlite.prepare('select id from members order by id').all() as { id: number }[]) {
        if (id % 2 === 0) subscribe.run(`PKB${id}`, id, newest);
        if (random() < 0.1) volume.run(250_000_000, 250_000_000, id);
      }
    })();
  }
  moneyTransaction({ sqlite }, () =>
    transfer({ sqlite, clock }, [
      {
        transId: 'BENCHSTALL',
        from: { system: 'payouts' },
        to: { member: 1, wallet: 'ROI' },
        amount: 100_000_000_000,
        reason: 'roi',
        memberId: 1,
        at: clock.now() - 1,
      },
    ]),
  );
  sqlite
    .prepare(
      'insert into clock_state (id, offset_ms) values (1, ?) on conflict(id) do update set offset_ms = excluded.offset_ms',
    )
    .run(clock.now() - Date.now());
  const packages = one("select count(*) as n from subscriptions where status = 'ACTIVE'");
  sqlite.close();
  return { members, packages, monday: day.toISOString() };
}

async function startServer(): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  if (!useTsx && !otherServer)
    execFileSync(process.execPath, ['build.mjs'], { cwd: join(root, 'apps/server'), stdio: 'inherit' });
  const args = otherServer
    ? [resolve(otherServer)]
    : useTsx
      ? ['--import', 'tsx', 'apps/server/src/main.ts']
      : ['apps/server/dist/main.js'];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_PATH: databasePath,
      PORT: '0',
      HOST: '127.0.0.1',
      JWT_SECRET: 'engine-stall-bench',
      NODE_ENV: 'development',
    },
  });
  let output = '';
  const url = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const port = /Member dashboard on http:\/\/localhost:(\d+)/.exec(output)?.[1];
      if (port) done(`http://127.0.0.1:${port}`);
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
      if (process.env.ENGINE_TRACE_CHUNKS === '1') process.stderr.write(d);
    });
    child.on('exit', (code, signal) =>
      fail(new Error(`server exited (${code ?? signal}) before listening: ${output}`)),
    );
  });
  return { child, url };
}

const post = async (url: string, path: string, body: unknown, token?: string) => {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

/** CPU ms of a process's threads (all, and the first one: the request thread), and ms they waited for a CPU (Linux). */
function cpuOf(pid: number): { all: number; main: number; waited: number } {
  let all = 0;
  let main = 0;
  let waited = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, clock ticks of 10 ms
      all += ms;
      if (Number(tid) === pid) main = ms;
      waited += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
    } catch {
      // a thread that ended meanwhile
    }
  }
  return { all, main, waited };
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const describe = (xs: number[]) =>
  `p50 ${quantile(xs, 0.5).toFixed(1)} ms, p99 ${quantile(xs, 0.99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length})`;

const facts = prepare();
console.log(
  `${facts.members} members, ${facts.packages} ACTIVE packages; clock at ${facts.monday}; a read and a write every ${EVERY_MS} ms`,
);
const { child, url } = await startServer();
try {
  const login = await post(url, '/user/login', { username: 'demo', password: 'Demo@1234' });
  if (login.status !== 200) throw new Error(`login: ${JSON.stringify(login.body)}`);
  const token = String(login.body.JWT);

  interface Sample {
    kind: 'read' | 'write';
    at: number;
    ms: number;
    status: number;
    during: boolean;
  }
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<void>>();
  let during = false;
  const send = (kind: Sample['kind']) => {
    const started = performance.now();
    const phase = during;
    const call =
      kind === 'read'
        ? post(url, '/user/view_profile', {}, token)
        : post(
            url,
            '/wallet/transfer_wallet',
            { amount: 0.01, from_wallet: 'ROI', to_wallet: 'Withdrawal' },
            token,
          );
    const done = call.then(
      (r) =>
        void samples.push({
          kind,
          at: Date.now(),
          ms: performance.now() - started,
          status: r.status,
          during: phase,
        }),
      () =>
        void samples.push({
          kind,
          at: Date.now(),
          ms: performance.now() - started,
          status: 0,
          during: phase,
        }),
    );
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };
  const load = setInterval(() => {
    send('read');
    send('write');
  }, EVERY_MS);

  await new Promise((done) => setTimeout(done, IDLE_MS));
  during = true;
  const cpu0 = cpuOf(child.pid!);
  const t0 = performance.now();
  // To Tuesday 00:06: the member's token (24 h on the server clock) stays valid through the run.
  const clock = await post(url, '/__qa/clock?wait=true', { advance: 'PT15H6M' });
  const wall = performance.now() - t0;
  const cpu1 = cpuOf(child.pid!);
  during = false;
  clearInterval(load);
  await Promise.all(inFlight);
  if (clock.status !== 200) throw new Error(`clock: ${JSON.stringify(clock.body)}`);

  for (const { job, date, summary } of clock.body.ran as { job: string; date: string; summary: string }[])
    console.log(`  ${job} ${date}: ${summary}`);
  console.log(
    `run: ${Math.round(wall)} ms wall; server CPU ${Math.round(cpu1.all - cpu0.all)} ms (request thread ${Math.round(cpu1.main - cpu0.main)} ms), its threads waited ${Math.round(cpu1.waited - cpu0.waited)} ms for a CPU`,
  );
  for (const phase of [false, true]) {
    for (const kind of ['read', 'write'] as const) {
      const of = samples.filter((s) => s.kind === kind && s.during === phase);
      const failed = of.filter((s) => s.status !== 200);
      console.log(
        `${phase ? 'during the run' : 'idle          '} ${kind.padEnd(5)}: ${describe(of.map((s) => s.ms))}${failed.length ? `; ${failed.length} not 200: ${[...new Set(failed.map((s) => s.status))].join(', ')}` : ''}`,
      );
    }
  }
  // With ENGINE_TRACE_CHUNKS=1 the worker prints each chunk (stderr): the slowest requests, to set beside it.
  if (process.env.ENGINE_TRACE_CHUNKS === '1')
    for (const s of samples
      .filter((x) => x.during)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10))
      console.log(`slow ${s.kind} ${s.ms.toFixed(0)} ms answered at ${s.at}`);
} finally {
  child.kill('SIGTERM');
  await new Promise((done) => child.once('exit', done));
  rmSync(dir, { recursive: true, force: true });
}
