#!/usr/bin/env node
// Cold start of `npm start`: time from launch until /config.json answers, with a new database
// and then with the existing one. Median of RUNS runs each (default 3).
//   node scripts/bench/cold-start.mjs [--runs 3] [--server-only] [--database FILE] [--bundle FILE]
// --server-only times what `npm start` runs after its (cached) builds: node apps/server/dist/main.js,
// the bundle, which is built first when needed.
// --database FILE (implies --server-only) times starts on that existing database only, e.g. a
// 1,000,000-member `scale` database from scripts/seed.ts; every start is listed, since the first
// may do one-off work (a migration, a backfill) that later ones skip.
// --bundle FILE runs that bundle instead (an older build, to compare), without building.
import { execSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 3;
const option = (name) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const existingDatabase = option('database');
const bundle = option('bundle');
const serverOnly = args.includes('--server-only') || existingDatabase !== undefined || bundle !== undefined;
const command = serverOnly
  ? ['node', [bundle ?? 'apps/server/dist/main.js']]
  : ['npm', ['start', '--silent']];
const port = 3900 + Math.floor(Math.random() * 50);
if (serverOnly && !bundle)
  execSync('npx turbo run build --filter=@md/server --output-logs=errors-only', {
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });

/**
 * Milliseconds the server's main thread spent waiting for a CPU (Linux schedstat), or 0: on a
 * shared machine, wall time minus this is what the start would take on an idle one.
 */
function runQueueWaitMs(pid) {
  const file = `/proc/${pid}/schedstat`;
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split(' ')[1]) / 1e6 : 0;
}

/** CPU time (user + system, every thread) the process has used so far, ms (Linux), or 0. */
function cpuMs(pid) {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return 0;
  // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th, in clock ticks (100 a second).
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function timeStart(databasePath) {
  const started = performance.now();
  const child = spawn(command[0], command[1], {
    env: { ...process.env, PORT: String(port), DATABASE_PATH: databasePath },
    stdio: 'ignore',
    detached: true,
  });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/config.json`);
        // The child is the server itself only with --server-only (else npm, then turbo).
        if (response.ok)
          return {
            wall: performance.now() - started,
            wait: serverOnly ? runQueueWaitMs(child.pid) : 0,
            cpu: serverOnly ? cpuMs(child.pid) : 0,
          };
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120_000) throw new Error('server did not start within 120 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    process.kill(-child.pid, 'SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (rs) => {
  const walls = rs.map((r) => r.wall);
  const line = `median ${Math.round(median(walls))} ms (runs: ${walls.map((x) => Math.round(x)).join(', ')})`;
  return serverOnly
    ? `${line}; without CPU wait: median ${Math.round(median(rs.map((r) => r.wall - r.wait)))} ms; CPU: median ${Math.round(median(rs.map((r) => r.cpu)))} ms (runs: ${rs.map((r) => Math.round(r.cpu)).join(', ')})`
    : line;
};
if (existingDatabase !== undefined) {
  if (!existsSync(existingDatabase)) throw new Error(`no database at ${existingDatabase}`);
  const starts = [];
  for (let i = 0; i < runs; i++) starts.push(await timeStart(existingDatabase));
  console.log(`server start, existing database ${existingDatabase}: ${fmt(starts)}`);
  process.exit(0);
}
const fresh = [];
const existing = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'md-bench-'));
  const db = join(dir, 'app.sqlite');
  fresh.push(await timeStart(db));
  existing.push(await timeStart(db));
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${serverOnly ? 'server' : 'npm start'} cold start, new database:      ${fmt(fresh)}`);
console.log(`${serverOnly ? 'server' : 'npm start'} cold start, existing database: ${fmt(existing)}`);
