/**
 * Tree lookups, on the `scale` scenario:
 *   node --import tsx scripts/bench/tree-scope.ts [--members 1000000] [--runs 300] [--flood 20]
 * - the scope check's cost, in process (fastify.inject): a member asks for members outside its
 *   own downline and for names nobody has; both answer the same 404 (the bench stops if not),
 *   and their medians should be the same within noise (else the timing says who exists). Once
 *   with the same names again and again (the deepest member of the tree; its rows stay cached),
 *   once with a new name each time (members spread over the ids; the rows are read cold);
 * - the same for the P2P recipient check (`level.downline_exist`, the sponsor tree);
 * - starvation, over loopback HTTP: another member's profile reads, alone, while one member keeps
 *   `--flood` lookups of that deepest member in flight, and while it keeps as many lookups of
 *   unknown names in flight (what any cheap call in flight costs the others). Rate limits are
 *   off, so this is the cost of the lookups themselves (with them on, a member gets 300 tree calls
 *   a minute);
 * - the start-up backfill of every tree column, as a database of the previous main gets it.
 * Medians of `--runs` samples (with their interquartile range for the lookups), outside and
 * unknown alternating so drift touches both alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { DEMO_PASSWORD } from '../../apps/server/src/core/passwords.ts';
import { backfillBinaryStats } from '../../apps/server/src/modules/engine/stats.ts';
import { downlineCheck, type Tree } from '../../apps/server/src/modules/network/scope.ts';
import { seedScenario } from '../../apps/server/src/seed/index.ts';
import { median, numberArg } from './cli.ts';

const MEMBERS = numberArg('members', 1_000_000);
const RUNS = numberArg('runs', 300);
const FLOOD = numberArg('flood', 20);

const dir = mkdtempSync(join(tmpdir(), 'md-bench-tree-scope-'));
const app = await buildApp({
  databasePath: join(dir, 'scale.sqlite'),
  seed: 'empty',
  config: { rateLimits: false, validateOutput: false },
});
const { services, fastify } = app;
const t0 = performance.now();
const summary = seedScenario(services, 'scale', { members: MEMBERS, historyDays: 0 });
console.log(
  `seed ${MEMBERS.toLocaleString('en-US')} members: ${((performance.now() - t0) / 1000).toFixed(1)} s (max depth ${summary.scale!.maxDepth})`,
);

// The deepest member, and the caller: the root's child on the other leg (so the deepest member
// is outside its downline, and its chain is walked the whole way up by an unbounded check).
const deepest = services.sqlite
  .prepare(
    'select m.id, m.username, s.depth from binary_stats s join members m on m.id = s.member_id order by s.depth desc limit 1',
  )
  .get() as { id: number; username: string; depth: number };
const deepestLeg = services.sqlite
  .prepare(
    `with recursive up(id, parent) as (select id, parent_id from members where id = ? union all select m.id, m.parent_id from members m join up on m.id = up.parent)
     select id from up where parent = 1`,
  )
  .get(deepest.id) as { id: number };
const caller = services.sqlite
  .prepare('select username from members where parent_id = 1 and id <> ?')
  .get(deepestLeg.id) as { username: string };
const reader = 'demo';

const login = async (username: string) =>
  (
    await fastify.inject({
      method: 'POST',
      url: '/user/login',
      payload: { username, password: DEMO_PASSWORD },
    })
  ).json().JWT as string;
const callerToken = await login(caller.username);
const readerToken = await login(reader);
const LOOKUP = '/binary/view_binary_downline';

// 1. Outside against unknown, in process, on the binary tree and the P2P check, in two regimes:
// the same name again and again (its rows stay in the page cache), and a new name each time.
/** `count` members outside `rootId`'s downline in `tree`, spread over the ids. */
function outsideNames(tree: Tree, rootId: number, count: number): string[] {
  const names: string[] = [];
  for (let id = 7; names.length < count; id = (id * 48_271) % MEMBERS || 1) {
    if (!downlineCheck(services, tree, rootId, { id }).inside)
      names.push(
        (services.sqlite.prepare('select username from members where id = ?').get(id) as { username: string })
          .username,
      );
  }
  return names;
}
/** Median and interquartile range (the noise a difference of medians is set against). */
function spread(times: number[]): string {
  const sorted = [...times].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))]!;
  return `${median(times).toFixed(3)} ms (IQR ${at(0.25).toFixed(3)}–${at(0.75).toFixed(3)})`;
}
async function outsideAgainstUnknown(
  url: string,
  token: string,
  status: number,
  outside: (i: number) => string,
  unknown: (i: number) => string,
) {
  const outsideTimes: number[] = [];
  const unknownTimes: number[] = [];
  const answers: string[] = [];
  for (let i = 0; i < RUNS * 2; i++) {
    const isOutside = i % 2 === 0;
    const start = performance.now();
    const reply = await fastify.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}` },
      payload: { username: isOutside ? outside(i >> 1) : unknown(i >> 1) },
    });
    (isOutside ? outsideTimes : unknownTimes).push(performance.now() - start);
    if (reply.statusCode !== status) throw new Error(`${url}: ${reply.statusCode} ${reply.body}`);
    if (i < 2) answers.push(reply.body);
  }
  if (answers[0] !== answers[1])
    throw new Error(`${url}: outside answers ${answers[0]}, unknown ${answers[1]}`);
  return `outside ${spread(outsideTimes)}, unknown ${spread(unknownTimes)}`;
}
const callerId = (
  services.sqlite.prepare('select id from members where username = ?').get(caller.username) as { id: number }
).id;
const binaryOutside = outsideNames('binary', callerId, RUNS);
console.log(
  `${`${LOOKUP}, the same name again`.padEnd(56)} ${await outsideAgainstUnknown(
    LOOKUP,
    callerToken,
    404,
    () => deepest.username,
    () => 'nobody_at_all',
  )} (the outside one: depth ${deepest.depth.toLocaleString('en-US')})`,
);
console.log(
  `${`${LOOKUP}, a new name each time`.padEnd(56)} ${await outsideAgainstUnknown(
    LOOKUP,
    callerToken,
    404,
    (i) => binaryOutside[i]!,
    (i) => `nobody${i}`,
  )}`,
);
// The sponsor tree, asked by the deepest binary member (it sponsors nobody: everyone is outside).
const sponsorDeepest = services.sqlite
  .prepare(
    'select m.username, s.sponsor_depth as depth from binary_stats s join members m on m.id = s.member_id where m.id <> ? order by s.sponsor_depth desc limit 1',
  )
  .get(deepest.id) as { username: string; depth: number };
const deepToken = await login(deepest.username);
const sponsorOutside = outsideNames('sponsor', deepest.id, RUNS);
const EXISTS = '/level/downline_exist';
console.log(
  `${`${EXISTS}, the same name again`.padEnd(56)} ${await outsideAgainstUnknown(
    EXISTS,
    deepToken,
    200,
    () => sponsorDeepest.username,
    () => 'nobody_at_all',
  )} (sponsor depth ${sponsorDeepest.depth})`,
);
console.log(
  `${`${EXISTS}, a new name each time`.padEnd(56)} ${await outsideAgainstUnknown(
    EXISTS,
    deepToken,
    200,
    (i) => sponsorOutside[i]!,
    (i) => `nobody${i}`,
  )}`,
);

// 2. Another member's reads, alone and during a flood, over loopback HTTP.
const origin = await fastify.listen({ port: 0, host: '127.0.0.1' });
const call = (path: string, token: string, body: object) =>
  fetch(origin + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
async function readMedian(runs = RUNS): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const reply = await call('/user/view_profile', readerToken, {});
    await reply.arrayBuffer();
    times.push(performance.now() - start);
    if (reply.status !== 200) throw new Error(`profile: ${reply.status}`);
  }
  return median(times);
}
/** The reads' median while the caller keeps FLOOD lookups of `username` in flight, and the lookups' rate. */
async function duringFlood(username: string, runs = RUNS): Promise<string> {
  let flooding = true;
  let floodCalls = 0;
  const floodStart = performance.now();
  const flooders = Array.from({ length: FLOOD }, async () => {
    while (flooding) {
      const reply = await call(LOOKUP, callerToken, { username });
      await reply.arrayBuffer();
      floodCalls++;
    }
  });
  const reads = await readMedian(runs);
  flooding = false;
  await Promise.all(flooders);
  return `median ${reads.toFixed(2)} ms (${Math.round(floodCalls / ((performance.now() - floodStart) / 1000)).toLocaleString('en-US')} lookups/s)`;
}
// Warm-up (not shown): the first flood runs slower whichever name it asks for (JIT, allocation).
for (const username of [deepest.username, 'nobody_at_all']) await duringFlood(username, RUNS / 3);
console.log(
  `${"another member's profile read, idle".padEnd(56)} median ${(await readMedian()).toFixed(2)} ms`,
);
console.log(
  `${`the same, ${FLOOD} lookups of the deepest member in flight`.padEnd(56)} ${await duringFlood(deepest.username)}`,
);
console.log(
  `${`the same, ${FLOOD} lookups of an unknown name in flight`.padEnd(56)} ${await duringFlood('nobody_at_all')}`,
);
// 3. The backfill a database of the previous main gets at start-up (one pointer missing: the full pass).
services.sqlite.prepare('update binary_stats set binary_jump_id = null where member_id = 1').run();
const backfillStart = performance.now();
backfillBinaryStats(services);
console.log(
  `${`start-up backfill of the tree columns, ${MEMBERS.toLocaleString('en-US')} members`.padEnd(56)} ${((performance.now() - backfillStart) / 1000).toFixed(1)} s`,
);

await fastify.close();
rmSync(dir, { recursive: true, force: true });
