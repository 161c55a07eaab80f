/**
 * The network at scale, on the `scale` scenario:
 *   node --import tsx scripts/bench/network.ts [--members 100000] [--runs 15]
 * - seeding N members;
 * - the first page of the binary tree and of the binary-volume table for the root member;
 * - the hover details of the deepest member;
 * - a purchase by the member deepest in the binary tree (10,000+ levels with 1,000,000 members);
 * - one full daily run (ROI, binary matching, ranks) through the QA clock, when the engine runs.
 * Medians of the runs, over HTTP (fastify.inject) as a client sees them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { DEMO_PASSWORD } from '../../apps/server/src/core/passwords.ts';
import { openDeposit, payDeposit } from '../../apps/server/src/modules/deposits/deposits.ts';
import { seedScenario } from '../../apps/server/src/seed/index.ts';
import { median, numberArg } from './cli.ts';

const MEMBERS = numberArg('members', 100_000);
const RUNS = numberArg('runs', 15);

const dir = mkdtempSync(join(tmpdir(), 'md-bench-network-'));
const app = await buildApp({
  databasePath: join(dir, 'scale.sqlite'),
  seed: 'empty',
  config: { rateLimits: false, validateOutput: false },
});
const { services, fastify } = app;

let t0 = performance.now();
const summary = seedScenario(services, 'scale', { members: MEMBERS, historyDays: 0 });
console.log(
  `seed ${MEMBERS.toLocaleString('en-US')} members: ${((performance.now() - t0) / 1000).toFixed(2)} s (max depth ${summary.scale!.maxDepth}, mean ${summary.scale!.meanDepth})`,
);

const login = async (username: string) =>
  (
    await fastify.inject({
      method: 'POST',
      url: '/user/login',
      payload: { username, password: DEMO_PASSWORD },
    })
  ).json().JWT as string;
const post = (url: string, token: string, payload: object) =>
  fastify.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload });
async function timed(label: string, run: () => Promise<{ statusCode: number; body: string }>) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const reply = await run();
    times.push(performance.now() - start);
    if (reply.statusCode !== 200) throw new Error(`${label}: ${reply.statusCode} ${reply.body}`);
  }
  console.log(`${label.padEnd(52)} median ${median(times).toFixed(2)} ms`);
}

const root = await login('demo');
const deepest = services.sqlite
  .prepare(
    'select m.id, m.username, s.depth from binary_stats s join members m on m.id = s.member_id order by s.depth desc limit 1',
  )
  .get() as { id: number; username: string; depth: number };
await timed('binary tree, first page (root)', () =>
  post('/binary/view_binary_downline', root, { username: 'demo' }),
);
await timed(`node details (depth ${deepest.depth})`, () =>
  post('/binary/view_binary_downline_details', root, { username: deepest.username }),
);
await timed('binary volume table, first page (root)', () =>
  post('/binary/view_binary_transaction', root, { pageNo: 1, pageSize: 10 }),
);
await timed('level tree, first page (root)', () => post('/level/view_downline', root, { username: 'demo' }));

// A purchase by the deepest member: fund it, then time the purchase itself.
const deep = await login(deepest.username);
const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const deposit = openDeposit(services, deepest.id, 100_000_000, 'USDT.BEP20');
  payDeposit(services, deposit.transId);
  const start = performance.now();
  const reply = await post('/subscription/buy_subscription_packages', deep, { plan: 'Starter' });
  times.push(performance.now() - start);
  if (reply.statusCode !== 200) throw new Error(`purchase: ${reply.body}`);
}
console.log(
  `${`purchase at binary depth ${deepest.depth}`.padEnd(52)} median ${median(times).toFixed(2)} ms`,
);

// One full day of runs through the QA clock (what ran depends on the engine being present).
t0 = performance.now();
const day = await fastify.inject({
  method: 'POST',
  url: '/__qa/clock?wait=true',
  payload: { advance: 'P1D' },
});
const ran = (day.json() as { ran?: unknown[] }).ran ?? [];
console.log(
  `daily run over ${MEMBERS.toLocaleString('en-US')} members: ${((performance.now() - t0) / 1000).toFixed(2)} s (${ran.length} runs: ${JSON.stringify(ran).slice(0, 200)})`,
);

await fastify.close();
rmSync(dir, { recursive: true, force: true });
