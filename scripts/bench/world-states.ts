/**
 * Declared world states: how long each example in world-states/ takes to build into a fresh
 * in-memory database, and the 5,000-deep leg against its baseline, measured in the same run: the
 * same chain placed one member at a time by registration's path (each placement raising every
 * ancestor's team_size) instead of the builder's batch.
 *   node --import tsx scripts/bench/world-states.ts [--depth 5000] [--runs 3]
 * Prints wall and CPU time (medians of --runs); timings under load are noisy, compare the ratio.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWorldState, type WorldState } from '../../packages/shared/src/index.ts';
import { buildApp } from '../../apps/server/src/app.ts';
import { manualClock } from '../../apps/server/src/core/clock.ts';
import { DEMO_PASSWORD_HASH } from '../../apps/server/src/core/passwords.ts';
import type { Services } from '../../apps/server/src/core/services.ts';
import { insertMember } from '../../apps/server/src/modules/auth/members.ts';
import { buildWorldState } from '../../apps/server/src/seed/declared-state.ts';
import { median, numberArg } from './cli.ts';

const DEPTH = numberArg('depth', 5000);
const RUNS = numberArg('runs', 3);
const EXAMPLES = join(import.meta.dirname, '..', '..', 'world-states');

/** Wall and CPU milliseconds of `work` on a fresh empty in-memory app (the app's build not counted). */
async function timed(work: (services: Services) => void): Promise<{ wall: number; cpu: number }> {
  const app = await buildApp({ databasePath: ':memory:', seed: 'empty', clock: manualClock() });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  work(app.services);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await app.fastify.close();
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

async function medianOf(work: (services: Services) => void) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) samples.push(await timed(work));
  return { wall: median(samples.map((s) => s.wall)), cpu: median(samples.map((s) => s.cpu)) };
}

const show = (label: string, r: { wall: number; cpu: number }) =>
  console.log(
    `${label.padEnd(40)} wall ${r.wall.toFixed(0).padStart(6)} ms   cpu ${r.cpu.toFixed(0).padStart(6)} ms`,
  );

const parse = (doc: unknown): WorldState => {
  const parsed = parseWorldState(doc);
  if (!parsed.success) throw new Error(parsed.error);
  return parsed.state;
};

for (const file of readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const state = parse(JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')));
  show(file, await medianOf((services) => buildWorldState(services, state)));
}

const leg = parse({
  date: '2026-03-04T12:00:00Z',
  members: [{ username: 'root' }],
  legs: [{ under: 'root', side: '0', depth: DEPTH }],
});
const batched = await medianOf((services) => buildWorldState(services, leg));
const oneByOne = await medianOf((services) =>
  services.sqlite.transaction(() => {
    const member = (username: string, sponsorId: number | null) =>
      insertMember(services, {
        username,
        name: username,
        email: `${username}@example.com`,
        country: 'United Kingdom',
        passwordHash: DEMO_PASSWORD_HASH,
        sponsorId,
        side: '0',
        createdAt: services.clock.now(),
      });
    let above = member('root', null);
    for (let n = 1; n <= DEPTH; n++) above = member(`root_l${n}`, above.id);
  })(),
);
show(`leg ${DEPTH} deep, builder (batch)`, batched);
show(`leg ${DEPTH} deep, one by one (baseline)`, oneByOne);
console.log(
  `ratio builder / baseline: ${(batched.wall / oneByOne.wall).toFixed(3)} (cpu ${(batched.cpu / oneByOne.cpu).toFixed(3)})`,
);
