/**
 * The `binary_paths` extension on the `scale` scenario:
 *   node --import tsx scripts/bench/binary-paths.ts [--members 1000000] [--runs 30]
 * In process (fastify.inject, rate limits off), medians of `--runs` calls:
 * - binary.view_leg_bottom of the tree's root, on the leg holding the deepest member and on the
 *   other (each walks its whole outer edge: one recursive statement down members_parent_side);
 * - binary.view_path from the root to the deepest member (a scope walk, then its whole chain up
 *   by primary key), and to a member a few levels down;
 * - binary.view_path of a name outside the caller's downline and of an unknown one (the same 404).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { DEMO_PASSWORD } from '../../apps/server/src/core/passwords.ts';
import { seedScenario } from '../../apps/server/src/seed/index.ts';
import { median, numberArg } from './cli.ts';

const MEMBERS = numberArg('members', 1_000_000);
const RUNS = numberArg('runs', 30);

const dir = mkdtempSync(join(tmpdir(), 'md-bench-binary-paths-'));
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

const sql = <T>(query: string, ...params: unknown[]) => services.sqlite.prepare(query).get(...params) as T;
const deepest = sql<{ id: number; username: string; depth: number }>(
  'select m.id, m.username, s.depth from binary_stats s join members m on m.id = s.member_id order by s.depth desc limit 1',
);
const root = sql<{ id: number; username: string }>(
  'select id, username from members where parent_id is null order by id limit 1',
);
// The side of the root the deepest member hangs under.
const deepSide = sql<{ side: '0' | '1' }>(
  `with recursive up(id, parent, side) as (select id, parent_id, side from members where id = ? union all select m.id, m.parent_id, m.side from members m join up on m.id = up.parent)
   select side from up where parent = ?`,
  deepest.id,
  root.id,
).side;
const otherLegChild = sql<{ username: string }>(
  'select username from members where parent_id = ? and side <> ?',
  root.id,
  deepSide,
);
const shallow = sql<{ username: string }>(
  'select m.username from binary_stats s join members m on m.id = s.member_id where s.depth = 5 limit 1',
);

const login = async (username: string) =>
  (
    await fastify.inject({
      method: 'POST',
      url: '/user/login',
      payload: { username, password: DEMO_PASSWORD },
    })
  ).json().JWT as string;
const rootToken = await login(root.username);
const otherToken = await login(otherLegChild.username);

async function timed(label: string, url: string, token: string, payload: object, status = 200) {
  const times: number[] = [];
  let body = '';
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const reply = await fastify.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
    times.push(performance.now() - start);
    if (reply.statusCode !== status) throw new Error(`${url}: ${reply.statusCode} ${reply.body}`);
    body = reply.body;
  }
  const answer = JSON.parse(body) as { Success?: { Username: string; Levels: number } };
  console.log(
    `${label.padEnd(64)} ${median(times).toFixed(2)} ms${answer.Success ? ` (${answer.Success.Username}, ${answer.Success.Levels.toLocaleString('en-US')} levels)` : ''}`,
  );
  return answer;
}

const deepLeg = await timed(
  `view_leg_bottom of the root, the deep leg (side ${deepSide})`,
  '/binary/view_leg_bottom',
  rootToken,
  { side: deepSide },
);
await timed('view_leg_bottom of the root, the other leg', '/binary/view_leg_bottom', rootToken, {
  side: deepSide === '0' ? '1' : '0',
});
await timed(
  `view_path from the root to the deepest member (depth ${deepest.depth.toLocaleString('en-US')})`,
  '/binary/view_path',
  rootToken,
  { username: deepest.username },
);
await timed('view_path from the root to a member 5 levels down', '/binary/view_path', rootToken, {
  username: shallow.username,
});
const outside = await timed(
  'view_path, a member outside the downline (404)',
  '/binary/view_path',
  otherToken,
  { username: deepest.username },
  404,
);
const unknown = await timed(
  'view_path, an unknown name (404)',
  '/binary/view_path',
  otherToken,
  { username: 'nobody_at_all' },
  404,
);
if (JSON.stringify(outside) !== JSON.stringify(unknown))
  throw new Error('outside and unknown answer differently');
console.log(
  `(the deep leg's bottom is ${deepLeg.Success!.Levels === deepest.depth ? 'the deepest member' : 'not the deepest member'})`,
);

await fastify.close();
rmSync(dir, { recursive: true, force: true });
