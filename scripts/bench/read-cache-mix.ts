/**
 * What a cached read costs with writes mixed in, in process (no HTTP, so the
 * figure is the read path's own: invoke, the token, the read cache, the handler on a miss).
 * On the `scale` scenario with the measured member's 1,000 rows per table (scripts/bench/fixtures.ts),
 * each read (profile, wallets, earning history page 1 and its page count) is asked for `demo`:
 *   read-only  the reads alone;
 *   mixed      every 10th call a write (purchases and swaps alternately) by one of the funded
 *              writers at least 6 sponsor levels below demo, as scripts/bench/http.ts does;
 * µs per read are counted around the reads only, so the writes' own cost is left out: what is
 * measured is how much the writes slow the reads down. Process CPU (process.cpuUsage) includes other
 * threads (GC, the writes' deferred work); the main thread's wall time around each read includes no
 * other macrotask (a read here runs to its end without yielding to timers) but does include
 * preemption by other processes on a busy machine.
 *   node --import tsx scripts/bench/read-cache-mix.ts [--members 20000] [--reads 20000] [--rounds 3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, type ProcedureName } from '@md/shared';
import { buildApp } from '../../apps/server/src/app.ts';
import { LEVEL_PERCENTAGES } from '../../apps/server/src/modules/engine/income.ts';
import { handlers } from '../../apps/server/src/modules/index.ts';
import { seedScenario } from '../../apps/server/src/seed/index.ts';
import { invoke } from '../../apps/server/src/transport/invoke.ts';
import { addEngineRows, addMoneyRows, fundWriters, pickWriters } from './fixtures.ts';
import { median, numberArg } from './cli.ts';

const MEMBERS = numberArg('members', 20_000);
const READS = numberArg('reads', 20_000);
const ROUNDS = numberArg('rounds', 3);
const MEMBER_ID = 1;
const HEAVY_ROWS = 1_000;
const WRITERS = 1_000;

const dir = mkdtempSync(join(tmpdir(), 'md-read-cache-mix-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const { services, fastify } = await buildApp({
  databasePath: join(dir, 'bench.sqlite'),
  seed: 'empty',
  config: { qaControl: false, validateOutput: false, rateLimits: false },
});
seedScenario(services, 'scale', { members: MEMBERS, historyDays: 0 });
services.sqlite.transaction(() => {
  addMoneyRows(services, MEMBER_ID, HEAVY_ROWS);
  addEngineRows(services, MEMBER_ID, HEAVY_ROWS, MEMBERS);
})();
const writers = pickWriters(services, MEMBER_ID, WRITERS, LEVEL_PERCENTAGES.length + 1);
const plans = services.plan.packages.map((p) => p.name);
const maxPrice = Math.max(...services.plan.packages.map((p) => p.price));
const writesPerWriter = Math.ceil((ROUNDS * READS) / 10 / writers.length) + 1;
services.sqlite.transaction(() =>
  fundWriters(services, writers, writesPerWriter * maxPrice * 1_000_000, writesPerWriter * 1_000_000),
)();
const demo = services.sqlite.prepare('select * from members where id = ?').get(MEMBER_ID) as {
  id: number;
  username: string;
  token_version: number;
};
const demoToken = services.tokens.sign({
  id: demo.id,
  username: demo.username,
  tokenVersion: demo.token_version,
} as never);

const PAGE = { pageNo: 1, pageSize: 10 };
const READS_ASKED: [ProcedureName, unknown][] = [
  ['user.view_profile', {}],
  ['wallet.view_all_wallets_details', {}],
  ['earning.view_all_earning_history', PAGE],
  ['earning.total_pagination_earning_history', PAGE],
];
const caller = (token: string) => ({ ip: '127.0.0.1', authorization: `Bearer ${token}` });

let writeNo = 0;
async function write() {
  const k = writeNo++;
  const i = k >> 1;
  const writer = writers[i % writers.length]!;
  if (k % 2 === 0)
    await invoke(
      services,
      handlers,
      'subscription.buy_subscription_packages',
      { plan: plans[Math.floor(i / writers.length) % plans.length] },
      caller(writer.token),
    );
  else
    await invoke(
      services,
      handlers,
      'wallet.transfer_wallet',
      { amount: 1, from_wallet: 'ROI', to_wallet: 'Deposit' },
      caller(writer.token),
    );
}

/** CPU µs per read over READS reads, every 10th call a write when `mixed` (its CPU not counted). */
async function run(mixed: boolean): Promise<{ cpu: number; wall: number }> {
  let cpu = 0;
  let wall = 0;
  for (let n = 0; n < READS; n++) {
    if (mixed && n % 9 === 0) await write();
    const [name, input] = READS_ASKED[n % READS_ASKED.length]!;
    const before = process.cpuUsage();
    const start = performance.now();
    await invoke(services, handlers, name, input, caller(demoToken));
    wall += performance.now() - start;
    const used = process.cpuUsage(before);
    cpu += used.user + used.system;
  }
  return { cpu: cpu / READS, wall: (wall * 1000) / READS };
}

console.log(
  `scale ${MEMBERS} members, demo with ${HEAVY_ROWS} rows per table, ${writers.length} writers; reads ${READS_ASKED.map(([n]) => contract[n].path).join(', ')} in turn`,
);
const loads: number[] = [];
const results: { readOnly: number; mixed: number; readOnlyWall: number; mixedWall: number }[] = [];
await run(false);
for (let round = 0; round < ROUNDS; round++) {
  const ro = await run(false);
  const mx = await run(true);
  loads.push(loadavg()[0]!);
  results.push({ readOnly: ro.cpu, mixed: mx.cpu, readOnlyWall: ro.wall, mixedWall: mx.wall });
  console.log(
    `round ${round + 1}: µs per read (process CPU / main-thread wall): read-only ${ro.cpu.toFixed(1)} / ${ro.wall.toFixed(1)}, with 10 % writes ${mx.cpu.toFixed(1)} / ${mx.wall.toFixed(1)}`,
  );
}
const m = (key: keyof (typeof results)[number]) => median(results.map((r) => r[key]));
console.log(
  `median µs per read: read-only ${m('readOnly').toFixed(1)} CPU / ${m('readOnlyWall').toFixed(1)} wall, mixed ${m('mixed').toFixed(1)} / ${m('mixedWall').toFixed(1)}: ` +
    `reads/s mixed ÷ read-only ${(m('readOnly') / m('mixed')).toFixed(2)} from CPU, ${(m('readOnlyWall') / m('mixedWall')).toFixed(2)} from wall (goal ≥ 0.8); ` +
    `${writeNo} writes; load average ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} on 2 cores`,
);
await fastify.close();
