#!/usr/bin/env node
// Cold start of `npm start`: time from launch until /config.json answers, with a new database
// and then with the existing one. Median of RUNS runs each (default 3).
//   node scripts/bench/cold-start.mjs [--runs 3] [--server-only]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 3;
const serverOnly = args.includes('--server-only');
const command = serverOnly ? ['node', ['apps/server/dist/main.js']] : ['npm', ['start', '--silent']];
const port = 3900 + Math.floor(Math.random() * 50);

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
        if (response.ok) return performance.now() - started;
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
const fresh = [];
const existing = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'md-bench-'));
  const db = join(dir, 'app.sqlite');
  fresh.push(await timeStart(db));
  existing.push(await timeStart(db));
  rmSync(dir, { recursive: true, force: true });
}
const fmt = (xs) => `median ${Math.round(median(xs))} ms (runs: ${xs.map((x) => Math.round(x)).join(', ')})`;
console.log(`${serverOnly ? 'server' : 'npm start'} cold start, new database:      ${fmt(fresh)}`);
console.log(`${serverOnly ? 'server' : 'npm start'} cold start, existing database: ${fmt(existing)}`);
