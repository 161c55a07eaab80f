#!/usr/bin/env node
/**
 * What the storage fault checks cost (core/storage.ts, core/health.ts), in CPU time per
 * call (process.cpuUsage, so a loaded machine's run-queue wait is left out), medians of 7 rounds:
 * - the file check before each write call (stat and access of the database, -wal and -shm);
 * - the guard of a read call (the known state only);
 * - the work of one GET /readyz (the file check, a rolled-back write probe, statfs, the last run).
 *   node --import tsx scripts/bench/storage-check.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { readiness } from '../../apps/server/src/core/health.ts';

const dir = mkdtempSync(join(tmpdir(), 'md-bench-storage-'));
try {
  const app = await buildApp({ databasePath: join(dir, 'bench.sqlite'), seed: 'empty' });
  const monitor = app.services.storage!;
  const cpuPerCall = (label: string, call: () => unknown, calls: number) => {
    const rounds: number[] = [];
    for (let round = 0; round < 7; round++) {
      const before = process.cpuUsage();
      for (let i = 0; i < calls; i++) call();
      const used = process.cpuUsage(before);
      rounds.push((used.user + used.system) / calls);
    }
    rounds.sort((a, b) => a - b);
    console.log(`${label}: ${rounds[3]!.toFixed(2)} µs CPU per call (median of 7 rounds of ${calls})`);
  };
  cpuPerCall('file check before a write call', () => monitor.check(), 20_000);
  cpuPerCall('guard of a read call', () => monitor.guard(false), 200_000);
  cpuPerCall('GET /readyz work', () => readiness(app.services), 2_000);
  await app.fastify.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
