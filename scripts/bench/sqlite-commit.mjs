#!/usr/bin/env node
// The cost of syncing each commit: small write transactions (5 inserts, about a payment's size) on
// a WAL file database with synchronous=NORMAL and =FULL, interleaved in rounds so both see the same
// disk load. Prints the median and p90 per commit.
//   node scripts/bench/sqlite-commit.mjs [--commits 500]
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const commits = Number(args[args.indexOf('--commits') + 1]) || 500;
const dir = mkdtempSync(join(tmpdir(), 'md-bench-sync-'));
const db = new Database(join(dir, 'bench.sqlite'));
db.pragma('journal_mode = WAL');
db.exec('create table t (id integer primary key, v integer)');
const insert = db.prepare('insert into t (v) values (?)');
const commit = db.transaction((v) => {
  for (let i = 0; i < 5; i++) insert.run(v);
});
const times = { NORMAL: [], FULL: [] };
const rounds = 10;
for (let round = 0; round < rounds; round++)
  for (const mode of ['NORMAL', 'FULL']) {
    db.pragma(`synchronous = ${mode}`);
    for (let i = 0; i < commits / rounds; i++) {
      const started = performance.now();
      commit(i);
      times[mode].push(performance.now() - started);
    }
  }
const at = (xs, q) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)];
for (const mode of ['NORMAL', 'FULL'])
  console.log(
    `synchronous=${mode}: median ${at(times[mode], 0.5).toFixed(3)} ms, p90 ${at(times[mode], 0.9).toFixed(3)} ms per commit (${times[mode].length} commits)`,
  );
db.close();
rmSync(dir, { recursive: true, force: true });
