/**
 * What QA worlds cost, over HTTP on loopback against one server on a database file:
 *   node --import tsx scripts/bench/worlds.ts [--creations 20] [--resets 5] [--scale 0|1] [--worlds 50] [--reads 4000]
 * - creation of a `demo` world (median and max of `--creations`; the first, which seeds the
 *   template, apart) beside POST /__qa/reset { scenario: 'demo' } of the default world in the same run;
 * - with --scale 1, the same for `scale` (its template seeds 100,000 members once);
 * - a declared state of 20 members (POST /__qa/worlds { state }), median of 5;
 * - memory per idle world: RSS and V8 heap after `--worlds` more worlds, per world (after a GC);
 * - reads spread over `--worlds` worlds (a member of each, round robin) ÷ the same reads on one
 *   world, 8 in flight: what a world costs a read once it exists.
 * Figures vary with load: the load average and the process's CPU time are printed beside them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { median, numberArg } from './cli.ts';

const CREATIONS = numberArg('creations', 20);
const RESETS = numberArg('resets', 5);
const SCALE = numberArg('scale', 0) === 1;
const WORLDS = numberArg('worlds', 50);
const READS = numberArg('reads', 4_000);
const IN_FLIGHT = 8;

const gc = (globalThis as { gc?: () => void }).gc;
const cpuStart = process.cpuUsage();
const dir = mkdtempSync(join(tmpdir(), 'md-worlds-bench-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const app = await buildApp({
  databasePath: join(dir, 'bench.sqlite'),
  seed: 'demo',
  webDist: '',
  config: { rateLimits: false, validateOutput: false },
  worlds: { max: WORLDS + CREATIONS * 2 + 20, perClient: WORLDS + CREATIONS * 2 + 20 },
  logger: { level: 'error' },
});
const base = await app.fastify.listen({ port: 0, host: '127.0.0.1' });
console.log(
  `worlds: load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, ${CREATIONS} creations, ${WORLDS} idle worlds, ${READS} reads`,
);

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T & { Error?: string };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${json.Error}`);
  return json;
}
const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};
const ms = (x: number) => `${x.toFixed(0)} ms`;
const created: string[] = [];
const createWorld = async (body: object) => {
  const world = await call<{ id: string }>('POST', '/__qa/worlds', body);
  created.push(world.id);
  return world.id;
};

async function creationAgainstReset(scenario: string, creations: number, resets: number) {
  const first = await timed(() => createWorld({ from: scenario }));
  const times: number[] = [];
  for (let i = 0; i < creations; i++) times.push(await timed(() => createWorld({ from: scenario })));
  const resetTimes: number[] = [];
  for (let i = 0; i < resets; i++)
    resetTimes.push(await timed(() => call('POST', '/__qa/reset', { scenario })));
  const reset = median(resetTimes);
  console.log(
    `${scenario.padEnd(6)} world: median ${ms(median(times))}, max ${ms(Math.max(...times))} (of ${creations}; the first, seeding the template, ${ms(first)})` +
      ` | reset: median ${ms(reset)} (of ${resets}) | world ÷ reset ${(median(times) / reset).toFixed(3)}`,
  );
  // The default world back to demo for what follows.
  if (scenario !== 'demo') await call('POST', '/__qa/reset', { scenario: 'demo' });
}

await creationAgainstReset('demo', CREATIONS, RESETS);
if (SCALE) await creationAgainstReset('scale', Math.min(CREATIONS, 5), 1);

// A declared state of 20 members: a root and a chain of 19 under it on the left, each sponsored by the one above.
{
  const members = [{ username: 'chain00' }].concat(
    Array.from({ length: 19 }, (_, i) => ({
      username: `chain${String(i + 1).padStart(2, '0')}`,
      sponsor: `chain${String(i).padStart(2, '0')}`,
      side: '0',
    })) as { username: string }[],
  );
  const state = { date: '2026-03-04T12:00:00Z', members };
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push(await timed(() => createWorld({ state })));
  console.log(
    `declared state of 20 members: median ${ms(median(times))}, max ${ms(Math.max(...times))} (of 5)`,
  );
}

// Memory per idle world.
for (const id of created.splice(0)) await call('DELETE', `/__qa/worlds/${id}`);
gc?.();
const before = process.memoryUsage();
const idle: string[] = [];
for (let i = 0; i < WORLDS; i++) idle.push(await createWorld({ from: 'demo' }));
// Each world opened: a call into each (its app and database are open from creation on).
for (const id of idle) await call('GET', '/__qa/clock', undefined, { 'x-qa-world': id });
gc?.();
const after = process.memoryUsage();
const per = (key: 'rss' | 'heapUsed') => ((after[key] - before[key]) / WORLDS / 1024 / 1024).toFixed(1);
console.log(
  `memory per idle world: RSS ${per('rss')} MB, V8 heap ${per('heapUsed')} MB (${WORLDS} worlds${gc ? '' : '; run with --expose-gc for steadier figures'})`,
);

// Reads: a member's profile, spread over every world ÷ all on one world.
// One sign-in at a time: the password hashing queue answers a burst of 50 with 'busy'.
const tokens: (readonly [string, string])[] = [];
for (const world of idle) {
  const { JWT } = await call<{ JWT: string }>(
    'POST',
    '/user/login',
    { username: 'demo', password: 'Demo@1234' },
    { 'x-qa-world': world },
  );
  tokens.push([world, JWT] as const);
}
async function readRate(targets: readonly (readonly [string, string])[]) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < READS) {
        const [world, token] = targets[next++ % targets.length]!;
        const response = await fetch(`${base}/user/view_profile`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${token}`,
            'x-qa-world': world,
          },
          body: '{}',
        });
        if (!response.ok) throw new Error(`read: ${response.status}`);
        await response.arrayBuffer();
      }
    }),
  );
  return READS / ((performance.now() - started) / 1000);
}
await readRate(tokens); // warm every world's caches and statements
const one = await readRate(tokens.slice(0, 1));
const spread = await readRate(tokens);
const oneAgain = await readRate(tokens.slice(0, 1));
const oneRate = (one + oneAgain) / 2;
console.log(
  `reads: one world ${oneRate.toFixed(0)}/s, spread over ${WORLDS} worlds ${spread.toFixed(0)}/s: ratio ${(spread / oneRate).toFixed(2)}`,
);

const cpu = process.cpuUsage(cpuStart);
console.log(
  `process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; load average ${loadavg()[0]!.toFixed(2)}`,
);
await app.fastify.close();
