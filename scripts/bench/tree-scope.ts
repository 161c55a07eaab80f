/**
 * Tree lookups (issue 11 point 5), on the `scale` scenario:
 *   node --import tsx scripts/bench/tree-scope.ts [--members 1000000] [--runs 300] [--flood 20]
 * - the scope check's cost, in process (fastify.inject): a member asks for the deepest member of
 *   the tree, outside its own downline, and for a name nobody has; both answer the same 404, and
 *   their medians should be the same within noise (else the timing says who exists);
 * - starvation, over loopback HTTP: another member's profile reads, alone and while one member
 *   keeps `--flood` lookups of that deepest member in flight. Rate limits are off, so this is
 *   the cost of the lookups themselves (with them on, a member gets 300 tree calls a minute).
 * Medians of `--runs` samples, outside and unknown alternating so drift touches both alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { DEMO_PASSWORD } from '../../apps/server/src/core/passwords.ts';
import { seedScenario } from '../../apps/server/src/seed/index.ts';
import { median, numberArg } from './cli.ts';

const MEMBERS = numberArg('members', 1_000_000);
const RUNS = numberArg('runs', 300);
const FLOOD = numberArg('flood', 20);

const dir = mkdtempSync(join(tmpdir(), 'md-bench-tree-scope-'));
const app = await buildApp({ databasePath: join(dir, 'scale.sqlite'), seed: 'empty', config: { rateLimits: false, validateOutput: false } });
const { services, fastify } = app;
const t0 = performance.now();
const summary = seedScenario(services, 'scale', { members: MEMBERS });
console.log(`seed ${MEMBERS.toLocaleString('en-US')} members: ${((performance.now() - t0) / 1000).toFixed(1)} s (max depth ${summary.scale!.maxDepth})`);

// The deepest member, and the caller: the root's child on the other leg (so the deepest member
// is outside its downline, and its chain is walked the whole way up by an unbounded check).
const deepest = services.sqlite
  .prepare('select m.id, m.username, s.depth from binary_stats s join members m on m.id = s.member_id order by s.depth desc limit 1')
  .get() as { id: number; username: string; depth: number };
const deepestLeg = services.sqlite
  .prepare(
    `with recursive up(id, parent) as (select id, parent_id from members where id = ? union all select m.id, m.parent_id from members m join up on m.id = up.parent)
     select id from up where parent = 1`,
  )
  .get(deepest.id) as { id: number };
const caller = services.sqlite.prepare('select username from members where parent_id = 1 and id <> ?').get(deepestLeg.id) as { username: string };
const reader = 'demo';

const login = async (username: string) =>
  (await fastify.inject({ method: 'POST', url: '/user/login', payload: { username, password: DEMO_PASSWORD } })).json().JWT as string;
const callerToken = await login(caller.username);
const readerToken = await login(reader);
const lookup = { url: '/binary/view_binary_downline', headers: { authorization: `Bearer ${callerToken}` } };

// 1. Outside-deep against unknown, in process.
const outsideTimes: number[] = [];
const unknownTimes: number[] = [];
for (let i = 0; i < RUNS * 2; i++) {
  const outside = i % 2 === 0;
  const start = performance.now();
  const reply = await fastify.inject({ method: 'POST', ...lookup, payload: { username: outside ? deepest.username : `nobody${i}` } });
  (outside ? outsideTimes : unknownTimes).push(performance.now() - start);
  if (reply.statusCode !== 404) throw new Error(`lookup: ${reply.statusCode} ${reply.body}`);
}
console.log(`${`lookup of an outside member (depth ${deepest.depth.toLocaleString('en-US')})`.padEnd(48)} median ${median(outsideTimes).toFixed(3)} ms`);
console.log(`${'lookup of an unknown name'.padEnd(48)} median ${median(unknownTimes).toFixed(3)} ms`);

// 2. Another member's reads, alone and during a flood, over loopback HTTP.
const origin = await fastify.listen({ port: 0, host: '127.0.0.1' });
const call = (path: string, token: string, body: object) =>
  fetch(origin + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
async function readMedian(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const reply = await call('/user/view_profile', readerToken, {});
    await reply.arrayBuffer();
    times.push(performance.now() - start);
    if (reply.status !== 200) throw new Error(`profile: ${reply.status}`);
  }
  return median(times);
}
const idle = await readMedian();
let flooding = true;
let floodCalls = 0;
const floodStart = performance.now();
const flooders = Array.from({ length: FLOOD }, async () => {
  while (flooding) {
    const reply = await call(lookup.url, callerToken, { username: deepest.username });
    await reply.arrayBuffer();
    floodCalls++;
  }
});
const underFlood = await readMedian();
flooding = false;
await Promise.all(flooders);
const floodSeconds = (performance.now() - floodStart) / 1000;
console.log(`${"another member's profile read, idle".padEnd(48)} median ${idle.toFixed(2)} ms`);
console.log(
  `${`the same while ${FLOOD} deep lookups are in flight`.padEnd(48)} median ${underFlood.toFixed(2)} ms (${Math.round(floodCalls / floodSeconds).toLocaleString('en-US')} lookups/s)`,
);

await fastify.close();
rmSync(dir, { recursive: true, force: true });
