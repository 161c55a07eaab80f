#!/usr/bin/env node
/**
 * Build a database from a scenario, with a progress bar:
 *   node --import tsx scripts/seed.ts --scenario scale --members 1000000 --database data/scale.sqlite [--history-days N]
 * `scale` without --history-days leaves every daily run owed (the daily-run benchmarks' start);
 * with it, the engine plays that many days (as QA's worlds and resets get it).
 * The file is replaced. Then `DATABASE_PATH=data/scale.sqlite npm start` serves it.
 */
import { existsSync, rmSync } from 'node:fs';
import { buildApp } from '../apps/server/src/app.ts';
import { seedScenario } from '../apps/server/src/seed/index.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const scenario = arg('scenario') ?? 'scale';
const members = arg('members') ? Number(arg('members')) : undefined;
const historyDays = Number(arg('history-days') ?? 0);
const databasePath = arg('database') ?? `data/${scenario}.sqlite`;

// Replaced on purpose: its marker goes too (@md/db refuses to recreate a file whose marker remains).
for (const suffix of ['', '-wal', '-shm', '.created'])
  if (existsSync(databasePath + suffix)) rmSync(databasePath + suffix);
const started = performance.now();
const { services, fastify } = await buildApp({ databasePath, seed: 'empty' });
const bar = (done: number, total: number) => {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(
    `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`,
  );
};
const summary = seedScenario(services, scenario, {
  ...(members ? { members } : {}),
  historyDays,
  onProgress: bar,
});
process.stderr.write('\n');
await fastify.close();
console.log(
  `${scenario}: ${JSON.stringify(summary)} in ${((performance.now() - started) / 1000).toFixed(1)} s → ${databasePath}`,
);
