/**
 * Server performance budget (issue 6): our server against two references, side by side, with
 * autocannon over loopback (50 connections):
 *   - bare: a bare Fastify route answering the same JSON from memory (the machine's ceiling);
 *   - json-server: json-server serving the same JSON from a file.
 * The subject is `apps/server/src/main.ts` as production runs it (NODE_ENV=production: no QA
 * surface, no output validation, rate limits on) on the `scale` scenario of 100,000 members,
 * the member `demo` holding 1,000 rows in every table. Calls are the provider's REST routes,
 * POST with the bearer token and `jwt` in the body, like the production client.
 *
 * Each endpoint is measured in rounds; within a round the three servers run one after another
 * in a rotating order, so load from other processes falls on all alike; figures are medians of
 * the rounds, and the ratios are taken within each round first.
 *   node --import tsx scripts/bench/http.ts [--members 100000] [--rounds 3] [--duration 4] [--connections 50] [--only view_profile]
 * Budgets: throughput ≥ 50% of bare and ≥ 5× json-server; p99 ≤ 2× bare's p99.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, procedureNames, type ProcedureName } from '@md/shared';
import { buildApp } from '../../apps/server/src/app.ts';
import { DEMO_PASSWORD } from '../../apps/server/src/core/passwords.ts';
import { seedScenario } from '../../apps/server/src/seed/index.ts';
import { addEngineRows, addMoneyRows } from './fixtures.ts';
import { median, stringArg } from './cli.ts';

const MEMBERS = Number(stringArg('members') ?? 100_000);
const ROUNDS = Number(stringArg('rounds') ?? 3);
const DURATION = Number(stringArg('duration') ?? 4);
const CONNECTIONS = Number(stringArg('connections') ?? 50);
const ONLY = stringArg('only');
const HEAVY_ROWS = 1_000;
const MEMBER_ID = 1; // `demo`, the root of the scale scenario

// The measured calls: wallets, profile and the first page of each of the 7 paged tables.
const tableInput = contract['table.view_deposit_transaction'].input;
const measured: ProcedureName[] = [
  'wallet.view_all_wallets_details',
  'user.view_profile',
  ...procedureNames.filter((name) => contract[name].input === tableInput && !contract[name].path.includes('total_pagination')),
];
const endpoints = measured.filter((name) => !ONLY || contract[name].path.includes(ONLY));

// ---- data: the scale scenario, then the measured member's rows ----
const dir = mkdtempSync(join(tmpdir(), 'md-bench-http-'));
const databasePath = join(dir, 'scale.sqlite');
const children: ChildProcess[] = [];
const cleanUp = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
};
// Synchronous, so it also runs when the script dies of an error.
process.once('exit', cleanUp);
process.once('SIGINT', () => process.exit(130));

let started = performance.now();
{
  const { services, fastify } = await buildApp({ databasePath, seed: 'empty', config: { qaControl: false } });
  seedScenario(services, 'scale', { members: MEMBERS });
  services.sqlite.transaction(() => {
    addMoneyRows(services, MEMBER_ID, HEAVY_ROWS);
    addEngineRows(services, MEMBER_ID, HEAVY_ROWS, MEMBERS);
  })();
  await fastify.close();
}
console.log(`data: scale scenario with the measured member's ${HEAVY_ROWS} rows per table in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// ---- the three servers, each in its own process ----
const basePort = 4100 + Math.floor(Math.random() * 500);
/** Spawns a server and waits for `ready` in its output (or returns at once without one). */
const pids = new Map<string, number>();
function start(name: string, args: string[], env: Record<string, string>, ready?: RegExp): Promise<void> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  pids.set(name, child.pid!);
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready?.test(output)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready:\n${output}`)));
    if (!ready) resolve();
  });
}

const subjectPort = basePort;
started = performance.now();
await start(
  'server',
  // SERVER_NODE_OPTIONS: e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the server under load.
  [...(process.env.SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'apps/server/src/main.ts'],
  // The stand-in API, which production serves only when asked (docs/deployment.md).
  { NODE_ENV: 'production', STANDIN: 'on', WALLET_CHECK_STANDIN: 'on', DATABASE_PATH: databasePath, PORT: String(subjectPort), HOST: '127.0.0.1', JWT_SECRET: 'bench-secret-bench-secret-bench-secret' },
  /Member dashboard on/,
);
console.log(`server: ready in ${Math.round(performance.now() - started)} ms`);
const subject = `http://127.0.0.1:${subjectPort}`;

const login = await fetch(`${subject}/user/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'demo', password: DEMO_PASSWORD }),
});
const { JWT: token } = (await login.json()) as { JWT: string };
if (!token) throw new Error(`login answered ${login.status}`);

const bodyOf = (name: ProcedureName) => JSON.stringify(contract[name].input === tableInput ? { jwt: token, pageNo: 1, pageSize: 10 } : { jwt: token });
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

// The JSON our server answers, captured once: the references answer exactly this.
const answers: Record<string, unknown> = {};
for (const name of endpoints) {
  const reply = await fetch(`${subject}${contract[name].path}`, { method: 'POST', headers, body: bodyOf(name) });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`${contract[name].path} answered ${reply.status}: ${text}`);
  answers[contract[name].path] = JSON.parse(text);
  if (contract[name].input === tableInput && (answers[contract[name].path] as { Success: unknown[] }).Success.length !== 10)
    throw new Error(`${contract[name].path}: the first page is not full`);
}
const resource = (path: string) => path.slice(1).replaceAll('/', '-');
writeFileSync(join(dir, 'answers.json'), JSON.stringify(answers));
writeFileSync(join(dir, 'json-server.json'), JSON.stringify(Object.fromEntries(Object.entries(answers).map(([path, answer]) => [resource(path), answer]))));

const barePort = basePort + 1;
const jsonPort = basePort + 2;
await start('bare', ['--import', 'tsx', 'scripts/bench/http-bare.ts', join(dir, 'answers.json'), String(barePort)], {}, /listening/);
await start(
  'json-server',
  ['node_modules/json-server/lib/cli/bin.js', join(dir, 'json-server.json'), '--port', String(jsonPort), '--host', '127.0.0.1', '--quiet', '--no-gzip'],
  {},
);
// json-server prints nothing with --quiet: wait until it answers.
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${jsonPort}/${resource(contract[endpoints[0]!].path)}`)).ok) break;
  } catch {
    if (i > 200) throw new Error('json-server did not start');
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
}

// ---- measurements ----
type Target = 'bare' | 'json-server' | 'server';
interface Sample {
  rps: number;
  p99: number;
  /** CPU time the server process spent per answered request (µs): unlike throughput, barely moved by other processes' load. */
  cpu: number;
}
/** CPU time (user + system) of a process so far, in ms, from /proc (Linux: 100 ticks a second). */
const cpuMsOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const TARGETS: Target[] = ['bare', 'json-server', 'server'];
const requestOf = (target: Target, name: ProcedureName): autocannon.Options => {
  const path = contract[name].path;
  if (target === 'json-server') return { url: `http://127.0.0.1:${jsonPort}/${resource(path)}`, method: 'GET' };
  return { url: `http://127.0.0.1:${target === 'bare' ? barePort : subjectPort}${path}`, method: 'POST', headers, body: bodyOf(name) };
};

async function measure(target: Target, name: ProcedureName, seconds: number): Promise<Sample> {
  const pid = pids.get(target)!;
  const cpuBefore = cpuMsOf(pid);
  const result = await autocannon({ ...requestOf(target, name), connections: CONNECTIONS, duration: seconds });
  const cpu = ((cpuMsOf(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${target} ${contract[name].path}: ${failed} failed requests of ${result.requests.total}`);
  return { rps: result.requests.average, p99: result.latency.p99, cpu };
}

interface Row {
  path: string;
  bare: Sample;
  json: Sample;
  server: Sample;
  ofBare: number;
  ofJson: number;
  p99Ratio: number;
}
const rows: Row[] = [];
for (const name of endpoints) {
  for (const target of TARGETS) await measure(target, name, 1); // warm-up (JIT, caches)
  const samples: Record<Target, Sample[]> = { bare: [], 'json-server': [], server: [] };
  const ofBare: number[] = [];
  const ofJson: number[] = [];
  const p99Ratio: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = TARGETS.map((_, i) => TARGETS[(i + round) % TARGETS.length]!);
    const got = {} as Record<Target, Sample>;
    for (const target of order) got[target] = await measure(target, name, DURATION);
    for (const target of TARGETS) samples[target].push(got[target]);
    ofBare.push(got.server.rps / got.bare.rps);
    ofJson.push(got.server.rps / got['json-server'].rps);
    p99Ratio.push(got.server.p99 / Math.max(1, got.bare.p99));
  }
  const med = (xs: Sample[]): Sample => ({ rps: median(xs.map((x) => x.rps)), p99: median(xs.map((x) => x.p99)), cpu: median(xs.map((x) => x.cpu)) });
  const row: Row = {
    path: contract[name].path,
    bare: med(samples.bare),
    json: med(samples['json-server']),
    server: med(samples.server),
    ofBare: median(ofBare),
    ofJson: median(ofJson),
    p99Ratio: median(p99Ratio),
  };
  rows.push(row);
  console.log(
    `${row.path.padEnd(48)} req/s bare ${Math.round(row.bare.rps)}, json-server ${Math.round(row.json.rps)}, server ${Math.round(row.server.rps)}` +
      ` | server/bare ${(row.ofBare * 100).toFixed(0)}% ${row.ofBare >= 0.5 ? 'ok' : 'MISSED'}` +
      `, server/json-server ${row.ofJson.toFixed(1)}× ${row.ofJson >= 5 ? 'ok' : 'MISSED'}` +
      ` | p99 ms bare ${row.bare.p99}, server ${row.server.p99}: ${row.p99Ratio.toFixed(2)}× ${row.p99Ratio <= 2 ? 'ok' : 'MISSED'}` +
      ` | CPU µs/request bare ${row.bare.cpu.toFixed(0)}, json-server ${row.json.cpu.toFixed(0)}, server ${row.server.cpu.toFixed(0)}`,
  );
}

const worst = (pick: (row: Row) => number, best: 'min' | 'max') =>
  rows.reduce((a, b) => ((best === 'min' ? pick(b) < pick(a) : pick(b) > pick(a)) ? b : a));
const lowBare = worst((r) => r.ofBare, 'min');
const lowJson = worst((r) => r.ofJson, 'min');
const highP99 = worst((r) => r.p99Ratio, 'max');
console.log(
  `\n${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s per server and endpoint (medians; ratios within each round)\n` +
    `lowest server/bare:        ${(lowBare.ofBare * 100).toFixed(0)}% (${lowBare.path}); budget ≥ 50%\n` +
    `lowest server/json-server: ${lowJson.ofJson.toFixed(1)}× (${lowJson.path}); budget ≥ 5×\n` +
    `highest p99 server/bare:   ${highP99.p99Ratio.toFixed(2)}× (${highP99.path}); budget ≤ 2×\n` +
    `CPU per request, server/bare: ${rows.map((r) => (r.server.cpu / r.bare.cpu).toFixed(2)).join(', ')} (same order; 2.00 would be 50% of bare's throughput on a core of its own)`,
);
process.exit(0); // the servers' pipes would keep the script alive
