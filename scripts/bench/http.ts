/**
 * Server speed where it is used: our server against two references, side by
 * side, with autocannon over loopback (50 connections):
 *   - bare: a bare Fastify app answering the same JSON from memory (the machine's ceiling), on the
 *     REST routes and on tRPC-shaped GET routes (scripts/bench/http-bare.ts);
 *   - json-server: json-server serving the same JSON from a file.
 * The subject is the server as `npm start` runs it, the bundle `apps/server/dist/main.js` (built
 * first; `--tsx`: the sources through tsx instead), in production mode (NODE_ENV=production: no QA
 * surface, no output validation, rate limits on) on the `scale` scenario (100,000 members by
 * default), the member `demo` (the root) holding 1,000 rows in every table. The reads are wallets,
 * profile and the first page of each of the 7 paged tables, each measured as:
 *   rest       POST <path> with the bearer token and `jwt` in the body, like the production client;
 *   trpc       GET /trpc/<procedure>?input=<json> with the bearer header, as the web app's httpLink sends it;
 *   batch      GET /trpc/<procedure>?batch=1&input={"0":<json>}, as its httpBatchLink sends one call;
 *   off        REST on a second server process with READ_CACHE=off, on the same database;
 *   qa         REST on another server process with QA control on (QA_CONTROL=on: worlds, the clock,
 *              the journal, fault rules, the gateway's routing), otherwise the same production
 *              config, on the same database; its row says what QA control adds to a cached read as
 *              CPU µs per request on ÷ off (`rest`), taken within each round (goal ≤ 1.05);
 *              with `--before BUNDLE`, another build's pair (QA control off and on) runs beside them
 *              in the same rounds, so a change's before and after come from one run (with `off`,
 *              that build with the read cache off runs beside this one's likewise);
 *   mixed      REST, with every 10th request a write (purchases and swaps, alternately) by one of
 *              `--writers` members funded for the whole run, at least 6 sponsor levels below `demo`
 *              (so no write touches demo's rows: its answers stay the same). Purchases rotate over
 *              writers and packages so no member buys the same package twice within the server's
 *              10 s repeat window (which would answer without writing); the run checks in the
 *              database that every answered write wrote. Its ratio counts every request of the mix
 *              (as bare's beside it): the reads alone ran at 0.9 of it.
 *   writes     the same writes alone (with `mixed`): the CPU a write costs, so the table can say
 *              what a read costs within the mix.
 * and the references: bare REST, bare tRPC (with `trpc`), bare with the same 10 % writes (with
 * `mixed`), json-server (with `json`).
 *
 * Each read is measured in rounds; within a round every variant runs once, in a rotating order,
 * so load from other processes falls on all alike. Ratios are taken within each round, then the
 * median and min–max over rounds are printed, with the CPU time the measured process spent per
 * request (from /proc: barely moved by other processes' load, unlike throughput) and the load
 * average while the run lasted.
 *   node --import tsx scripts/bench/http.ts [--members 100000] [--rounds 3] [--duration 4] [--connections 50]
 *     [--only view_profile,earning] [--modes json,trpc,batch,off,mixed,qa] [--writers 5000] [--server BUNDLE] [--before BUNDLE]
 * A quick run (about 2 min): --members 20000 --rounds 2 --duration 2 --only view_profile,view_all_earning
 * (--only takes parts of paths, comma-separated: `earning` alone also matches level_earning_transaction).
 * Goals: REST ≥ 0.7 of bare; tRPC ≥ 0.9 of REST; mixed ≥ 0.8 of read-only; cache-off
 * tables ≥ 0.5 of bare; every read ≥ 5× json-server; QA control on ≤ 1.05× the CPU of off. And REST p99 ≤ 2× bare's p99.
 * QA control alone (about 2 min): --members 20000 --rounds 5 --duration 3 --only view_all_wallets,view_profile --modes qa
 */
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, procedureNames, type ProcedureName } from '@md/shared';
import { buildApp } from '../../apps/server/src/app.ts';
import { DEMO_PASSWORD } from '../../apps/server/src/core/passwords.ts';
import { LEVEL_PERCENTAGES } from '../../apps/server/src/modules/engine/income.ts';
import { seedScenario } from '../../apps/server/src/seed/index.ts';
import { addEngineRows, addMoneyRows, fundWriters, pickWriters, type Writer } from './fixtures.ts';
import { median, numberArg, stringArg } from './cli.ts';

const MEMBERS = numberArg('members', 100_000);
const ROUNDS = numberArg('rounds', 3);
const DURATION = numberArg('duration', 4);
const CONNECTIONS = numberArg('connections', 50);
// Enough that ~1,400 purchases a second meet no writer's package twice within the 10-second repeat
// window (2,000 writers × 6 packages came round in ~9 s: some purchases were answered as repeats).
const WRITERS = numberArg('writers', 5_000);
const ONLY = stringArg('only')?.split(',').filter(Boolean);
const MODE_NAMES = ['json', 'trpc', 'batch', 'off', 'mixed', 'qa'] as const;
type Mode = (typeof MODE_NAMES)[number];
const MODES = new Set((stringArg('modes') ?? MODE_NAMES.join(',')).split(',').filter(Boolean));
for (const mode of MODES)
  if (!MODE_NAMES.includes(mode as Mode))
    throw new Error(`--modes: unknown mode ${mode} (known: ${MODE_NAMES.join(', ')})`);
const on = (mode: Mode) => MODES.has(mode);
const HEAVY_ROWS = 1_000;
const MEMBER_ID = 1; // `demo`, the root of the scale scenario
/** Every WRITE_EVERY-th request of a mixed run is a write: 10 %. */
const WRITE_EVERY = 10;
/** A generous ceiling on the writes a second the server could answer (~1,400 with group commit), to fund the writers for the whole run. */
const MAX_WRITES_PER_SECOND = 3_000;
const SWAP_AMOUNT = 1;
/** Unmeasured reads after a writing variant, before the next one. */
const SETTLE_SECONDS = 1;
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret';

// The measured calls: wallets, profile and the first page of each of the 7 paged tables.
const tableInput = contract['table.view_deposit_transaction'].input;
const isTable = (name: ProcedureName) => contract[name].input === tableInput;
const measured: ProcedureName[] = [
  'wallet.view_all_wallets_details',
  'user.view_profile',
  ...procedureNames.filter((name) => isTable(name) && !contract[name].path.includes('total_pagination')),
];
const endpoints = measured.filter((name) => !ONLY || ONLY.some((part) => contract[name].path.includes(part)));
if (endpoints.length === 0)
  throw new Error(
    `--only ${ONLY?.join(',')} matches none of ${measured.map((name) => contract[name].path).join(', ')}`,
  );

// ---- data: the scale scenario, the measured member's rows, the funded writers ----
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

const readSeconds = endpoints.length * (1 + ROUNDS * DURATION); // each variant: a 1 s warm-up, then its rounds
let writers: Writer[] = [];
let plans: string[] = [];
let started = performance.now();
{
  const { services, fastify } = await buildApp({
    databasePath,
    seed: 'empty',
    jwtSecret: JWT_SECRET,
    config: { qaControl: false },
  });
  seedScenario(services, 'scale', { members: MEMBERS, historyDays: 0 });
  services.sqlite.transaction(() => {
    addMoneyRows(services, MEMBER_ID, HEAVY_ROWS);
    addEngineRows(services, MEMBER_ID, HEAVY_ROWS, MEMBERS);
  })();
  if (on('mixed')) {
    writers = pickWriters(services, MEMBER_ID, WRITERS, LEVEL_PERCENTAGES.length + 1);
    if (writers.length === 0)
      throw new Error(
        `no member is ${LEVEL_PERCENTAGES.length + 1} sponsor levels below demo: raise --members`,
      );
    if (writers.length < WRITERS)
      console.log(`writers: only ${writers.length} members are deep enough (asked ${WRITERS})`);
    plans = services.plan.packages.map((p) => p.name);
    const maxPrice = Math.max(...services.plan.packages.map((p) => p.price));
    // Two variants write (mixed and writes alone), half the writes are purchases, half swaps, spread evenly over the writers.
    const perWriter = Math.ceil((2 * MAX_WRITES_PER_SECOND * readSeconds) / 2 / writers.length) + 1;
    services.sqlite.transaction(() =>
      fundWriters(services, writers, perWriter * maxPrice * 1_000_000, perWriter * SWAP_AMOUNT * 1_000_000),
    )();
  }
  await fastify.close();
}
console.log(
  `data: scale scenario (${MEMBERS} members) with the measured member's ${HEAVY_ROWS} rows per table` +
    (writers.length ? `, ${writers.length} funded writers` : '') +
    ` in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

// ---- the servers, each in its own process ----
const basePort = 4100 + Math.floor(Math.random() * 500);
/** Spawns a server and waits for `ready` in its output (or returns at once without one). */
const pids = new Map<string, number>();
function start(name: string, args: string[], env: Record<string, string>, ready?: RegExp): Promise<void> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    child.once('exit', (code) =>
      reject(new Error(`${name} exited (${code}) before it was ready:\n${output}`)),
    );
    if (!ready) resolve();
  });
}

const THROUGH_TSX = process.argv.includes('--tsx');
/** `--server FILE`: another build's bundle (e.g. the previous main's) instead of building this one. */
const OTHER_SERVER = stringArg('server');
if (!THROUGH_TSX && !OTHER_SERVER)
  execFileSync(process.execPath, ['apps/server/build.mjs'], { stdio: 'inherit' });
const subjectPort = basePort;
const offPort = basePort + 3;
const qaPort = basePort + 4;
/**
 * `--before FILE` (with `qa` or `off`): that build with QA control off and on, or with the read
 * cache off, measured beside this one.
 */
const BEFORE = on('qa') || on('off') ? stringArg('before') : undefined;
const beforePort = basePort + 5;
const beforeQaPort = basePort + 6;
const beforeOffPort = basePort + 7;
const startServer = (name: string, port: number, env: Record<string, string>, bundle?: string) =>
  start(
    name,
    // SERVER_NODE_OPTIONS: e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the server under load.
    // The bundle `npm start` runs (apps/server/build.mjs), built at the start of the run; --tsx: the
    // sources through tsx, as `npm run dev` and the tests run them (tsx names every closure it
    // creates, a cost per call the bundle does not pay).
    [
      ...(process.env.SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? []),
      ...(THROUGH_TSX
        ? ['--import', 'tsx', 'apps/server/src/main.ts']
        : [bundle ?? OTHER_SERVER ?? 'apps/server/dist/main.js']),
    ],
    // The stand-in API, which production serves only when asked (docs/deployment.md).
    {
      NODE_ENV: 'production',
      STANDIN: 'on',
      WALLET_CHECK_STANDIN: 'on',
      DATABASE_PATH: databasePath,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET,
      ...env,
    },
    /Member dashboard on/,
  );
started = performance.now();
await startServer('server', subjectPort, {});
// Started one after the other: both open (and check) the same database file.
if (on('off')) await startServer('server-off', offPort, { READ_CACHE: 'off' });
if (on('qa')) await startServer('server-qa', qaPort, { QA_CONTROL: 'on' });
if (BEFORE && on('qa')) {
  await startServer('server-before', beforePort, {}, BEFORE);
  await startServer('server-before-qa', beforeQaPort, { QA_CONTROL: 'on' }, BEFORE);
}
if (BEFORE && on('off')) await startServer('server-before-off', beforeOffPort, { READ_CACHE: 'off' }, BEFORE);
console.log(
  `server${on('off') || on('qa') ? 's' : ''}: ready in ${Math.round(performance.now() - started)} ms`,
);
const subject = `http://127.0.0.1:${subjectPort}`;

const login = await fetch(`${subject}/user/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'demo', password: DEMO_PASSWORD }),
});
const { JWT: token } = (await login.json()) as { JWT: string };
if (!token) throw new Error(`login answered ${login.status}`);

/** The input the web app sends (the token rides in the header); REST adds the body token. */
const inputOf = (name: ProcedureName) => (isTable(name) ? { pageNo: 1, pageSize: 10 } : {});
const bodyOf = (name: ProcedureName) => JSON.stringify({ jwt: token, ...inputOf(name) });
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const trpcHeaders = { authorization: `Bearer ${token}` };
const trpcPath = (name: ProcedureName) =>
  `/trpc/${name}?input=${encodeURIComponent(JSON.stringify(inputOf(name)))}`;
const batchPath = (name: ProcedureName) =>
  `/trpc/${name}?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: inputOf(name) }))}`;

async function answerOf(url: string, init: RequestInit): Promise<unknown> {
  const reply = await fetch(url, init);
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`${url} answered ${reply.status}: ${text}`);
  return JSON.parse(text);
}

// The JSON our server answers, captured once: the references answer exactly this.
const answers: Record<string, unknown> = {};
for (const name of endpoints) {
  const path = contract[name].path;
  const rest = await answerOf(`${subject}${path}`, { method: 'POST', headers, body: bodyOf(name) });
  answers[path] = rest;
  if (isTable(name) && (rest as { Success: unknown[] }).Success.length !== 10)
    throw new Error(`${path}: the first page is not full`);
  if (on('trpc') || on('batch')) {
    const single = await answerOf(`${subject}${trpcPath(name)}`, { headers: trpcHeaders });
    const batch = await answerOf(`${subject}${batchPath(name)}`, { headers: trpcHeaders });
    // Both transports answer the same data; tRPC wraps it in result.data (an array of them for a batch).
    if (JSON.stringify((single as { result?: { data?: unknown } }).result?.data) !== JSON.stringify(rest))
      throw new Error(`${name}: tRPC answered ${JSON.stringify(single).slice(0, 300)}, not REST's data`);
    if (JSON.stringify(batch) !== JSON.stringify([single]))
      throw new Error(`${name}: the batched answer is not [the single answer]`);
    answers[`/trpc/${name}`] = single;
  }
  // The other servers of the run answer exactly what the subject does.
  for (const [mode, port, server] of [
    ['off', offPort, 'the cache-off server'],
    ['qa', qaPort, 'the server with QA control on'],
  ] as const) {
    if (!on(mode)) continue;
    const answer = await answerOf(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers,
      body: bodyOf(name),
    });
    if (JSON.stringify(answer) !== JSON.stringify(rest))
      throw new Error(`${path}: ${server} answers differently`);
  }
}

// ---- the writes of the mixed runs ----
const PURCHASE_PATH = contract['subscription.buy_subscription_packages'].path;
const SWAP_PATH = contract['wallet.transfer_wallet'].path;
const writes = { purchases: 0, swaps: 0, failed: [] as string[] };
/** Writes handed to autocannon for the server (sent, or set up when a run stopped). */
const sent = { purchases: 0, swaps: 0 };
let writeCount = 0;
/** The k-th write: purchases and swaps alternately; purchase p is writer p mod W buying package ⌊p / W⌋ mod packages. */
function writeRequest(k: number): {
  path: string;
  headers: Record<string, string>;
  body: string;
  kind: 'purchase' | 'swap';
} {
  const i = k >> 1;
  const writer = writers[i % writers.length]!;
  const writerHeaders = { authorization: `Bearer ${writer.token}`, 'content-type': 'application/json' };
  if (k % 2 === 0) {
    const plan = plans[Math.floor(i / writers.length) % plans.length]!;
    return {
      path: PURCHASE_PATH,
      headers: writerHeaders,
      body: JSON.stringify({ jwt: writer.token, plan }),
      kind: 'purchase',
    };
  }
  const to = Math.floor(i / writers.length) % 2 ? 'Withdrawal' : 'Deposit';
  return {
    path: SWAP_PATH,
    headers: writerHeaders,
    body: JSON.stringify({ jwt: writer.token, amount: SWAP_AMOUNT, from_wallet: 'ROI', to_wallet: to }),
    kind: 'swap',
  };
}
const counts = (db: Database.Database) => ({
  purchases: (db.prepare('select count(*) as n from subscriptions').get() as { n: number }).n,
  swaps: (db.prepare("select count(*) as n from transfers where reason = 'swap'").get() as { n: number }).n,
});
let countsBefore = { purchases: 0, swaps: 0 };
if (on('mixed')) {
  // One answer of each, through the server, for the bare reference to answer.
  for (let k = 0; k < 2; k++) {
    const { path, headers: writeHeaders, body } = writeRequest(writeCount++);
    answers[path] = await answerOf(`${subject}${path}`, { method: 'POST', headers: writeHeaders, body });
  }
  const db = new Database(databasePath, { readonly: true });
  countsBefore = counts(db);
  db.close();
}

const resource = (path: string) => path.slice(1).replaceAll('/', '-');
writeFileSync(join(dir, 'answers.json'), JSON.stringify(answers));
writeFileSync(
  join(dir, 'json-server.json'),
  JSON.stringify(
    Object.fromEntries(
      endpoints.map((name) => [resource(contract[name].path), answers[contract[name].path]]),
    ),
  ),
);

const barePort = basePort + 1;
const jsonPort = basePort + 2;
await start(
  'bare',
  ['--import', 'tsx', 'scripts/bench/http-bare.ts', join(dir, 'answers.json'), String(barePort)],
  {},
  /listening/,
);
if (on('json')) {
  await start(
    'json-server',
    [
      'node_modules/json-server/lib/cli/bin.js',
      join(dir, 'json-server.json'),
      '--port',
      String(jsonPort),
      '--host',
      '127.0.0.1',
      '--quiet',
      '--no-gzip',
    ],
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
}

// ---- the variants ----
type VariantName =
  | 'bare'
  | 'bare-trpc'
  | 'bare-mixed'
  | 'json'
  | 'rest'
  | 'trpc'
  | 'batch'
  | 'off'
  | 'mixed'
  | 'writes'
  | 'qa'
  | 'before'
  | 'before-qa'
  | 'before-off';
interface Variant {
  name: VariantName;
  /** The process whose CPU time is counted. */
  process:
    | 'bare'
    | 'json-server'
    | 'server'
    | 'server-off'
    | 'server-qa'
    | 'server-before'
    | 'server-before-qa'
    | 'server-before-off';
  options: (name: ProcedureName) => autocannon.Options;
}
const restRead = (port: number) => (name: ProcedureName) => ({
  url: `http://127.0.0.1:${port}${contract[name].path}`,
  method: 'POST' as const,
  headers,
  body: bodyOf(name),
});
const trpcRead = (port: number) => (name: ProcedureName) => ({
  url: `http://127.0.0.1:${port}${trpcPath(name)}`,
  method: 'GET' as const,
  headers: trpcHeaders,
});
/** Nine reads then one write, per connection, in turn (only writes with `reads` 0). */
const mixed =
  (port: number, countWrites: boolean, reads = WRITE_EVERY - 1) =>
  (name: ProcedureName) => {
    const read: autocannon.Request = {
      method: 'POST',
      path: contract[name].path,
      headers,
      body: bodyOf(name),
    };
    const write: autocannon.Request = {
      method: 'POST',
      setupRequest: (request, context) => {
        const { kind, ...next } = writeRequest(writeCount++);
        (context as { kind?: string }).kind = kind;
        if (countWrites) sent[kind === 'purchase' ? 'purchases' : 'swaps']++;
        return { ...request, ...next };
      },
      ...(countWrites && {
        onResponse: (status: number, body: string, context: object) => {
          const kind = (context as { kind?: 'purchase' | 'swap' }).kind;
          if (status === 200) writes[kind === 'purchase' ? 'purchases' : 'swaps']++;
          else if (writes.failed.length < 5) writes.failed.push(`${kind} ${status}: ${body.slice(0, 200)}`);
        },
      }),
    };
    return {
      url: `http://127.0.0.1:${port}`,
      requests: [...Array<autocannon.Request>(reads).fill(read), write],
    };
  };
const jsonRead = (name: ProcedureName): autocannon.Options => ({
  url: `http://127.0.0.1:${jsonPort}/${resource(contract[name].path)}`,
  method: 'GET',
});
const batchRead = (name: ProcedureName): autocannon.Options => ({
  ...trpcRead(subjectPort)(name),
  url: `http://127.0.0.1:${subjectPort}${batchPath(name)}`,
});
const variants: Variant[] = [
  { name: 'bare', process: 'bare', options: restRead(barePort) },
  { name: 'rest', process: 'server', options: restRead(subjectPort) },
];
if (on('json')) variants.push({ name: 'json', process: 'json-server', options: jsonRead });
if (on('trpc'))
  variants.push(
    { name: 'bare-trpc', process: 'bare', options: trpcRead(barePort) },
    { name: 'trpc', process: 'server', options: trpcRead(subjectPort) },
  );
if (on('batch')) variants.push({ name: 'batch', process: 'server', options: batchRead });
if (on('off')) variants.push({ name: 'off', process: 'server-off', options: restRead(offPort) });
if (on('qa')) variants.push({ name: 'qa', process: 'server-qa', options: restRead(qaPort) });
if (BEFORE && on('qa'))
  variants.push(
    { name: 'before', process: 'server-before', options: restRead(beforePort) },
    { name: 'before-qa', process: 'server-before-qa', options: restRead(beforeQaPort) },
  );
if (BEFORE && on('off'))
  variants.push({ name: 'before-off', process: 'server-before-off', options: restRead(beforeOffPort) });
if (on('mixed'))
  variants.push(
    { name: 'bare-mixed', process: 'bare', options: mixed(barePort, false) },
    { name: 'mixed', process: 'server', options: mixed(subjectPort, true) },
    // The writes alone: what a write costs the server, so the table can tell what the reads in the mix cost.
    { name: 'writes', process: 'server', options: mixed(subjectPort, true, 0) },
  );

// ---- measurements ----
interface Sample {
  rps: number;
  p99: number;
  /** CPU time the measured process spent per answered request (µs): unlike throughput, barely moved by other processes' load. */
  cpu: number;
}
/** CPU time (user + system) of a process so far, in ms, from /proc (Linux: 100 ticks a second). */
const cpuMsOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const loads: number[] = [];
async function measure(variant: Variant, name: ProcedureName, seconds: number): Promise<Sample> {
  const pid = pids.get(variant.process)!;
  const cpuBefore = cpuMsOf(pid);
  const result = await autocannon({ ...variant.options(name), connections: CONNECTIONS, duration: seconds });
  const cpu = ((cpuMsOf(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  loads.push(loadavg()[0]!);
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0)
    throw new Error(
      `${variant.name} ${contract[name].path}: ${failed} failed requests of ${result.requests.total}${writes.failed.length ? `; writes: ${writes.failed.join('; ')}` : ''}`,
    );
  return { rps: result.requests.average, p99: result.latency.p99, cpu };
}

const restVariant = variants.find((v) => v.name === 'rest')!;
/**
 * Measures; after a variant that writes, reads for SETTLE_SECONDS unmeasured, so what the writes
 * leave behind (answers to read again, WAL to checkpoint, garbage) is not billed to the next variant.
 */
async function measureAndSettle(variant: Variant, name: ProcedureName, seconds: number): Promise<Sample> {
  const sample = await measure(variant, name, seconds);
  if (variant.name === 'mixed' || variant.name === 'writes') await measure(restVariant, name, SETTLE_SECONDS);
  return sample;
}

/** A ratio over rounds: its median, lowest and highest. */
interface Spread {
  med: number;
  min: number;
  max: number;
}
const spread = (xs: number[]): Spread | undefined =>
  xs.length ? { med: median(xs), min: Math.min(...xs), max: Math.max(...xs) } : undefined;
interface Row {
  name: ProcedureName;
  samples: Partial<Record<VariantName, Sample>>;
  ratios: Record<string, Spread | undefined>;
  /** Which server variant is lowest against json-server. */
  lowJson?: VariantName;
}
const rows: Row[] = [];
const med = (xs: Sample[]): Sample => ({
  rps: median(xs.map((x) => x.rps)),
  p99: median(xs.map((x) => x.p99)),
  cpu: median(xs.map((x) => x.cpu)),
});
/** The cache-on reads held to ≥ 5× json-server (cache off is shown beside its own goal). */
const JSON_COMPARED: VariantName[] = ['rest', 'trpc', 'batch'];
started = performance.now();
for (const name of endpoints) {
  for (const variant of variants) await measureAndSettle(variant, name, 1); // warm-up (JIT, caches)
  const samples = Object.fromEntries(variants.map((v) => [v.name, [] as Sample[]])) as Partial<
    Record<VariantName, Sample[]>
  >;
  const perRound: Record<string, number[]> = {};
  const add = (key: string, value: number | undefined) => {
    if (value !== undefined && Number.isFinite(value)) (perRound[key] ??= []).push(value);
  };
  const jsonLows = new Map<VariantName, number>();
  for (let round = 0; round < ROUNDS; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
    const got: Partial<Record<VariantName, Sample>> = {};
    for (const variant of order) got[variant.name] = await measureAndSettle(variant, name, DURATION);
    for (const variant of variants) samples[variant.name]!.push(got[variant.name]!);
    const rps = (v: VariantName) => got[v]?.rps;
    const ratio = (a: VariantName, b: VariantName) =>
      rps(a) !== undefined && rps(b) ? rps(a)! / rps(b)! : undefined;
    add('rest/bare', ratio('rest', 'bare'));
    add('trpc/rest', ratio('trpc', 'rest'));
    add('batch/rest', ratio('batch', 'rest'));
    add('trpc/bare-trpc', ratio('trpc', 'bare-trpc'));
    add('off/bare', ratio('off', 'bare'));
    add('before: off/bare', ratio('before-off', 'bare'));
    add('mixed/rest', ratio('mixed', 'rest'));
    add('bare-mixed/bare', ratio('bare-mixed', 'bare'));
    // CPU, not throughput: what QA control costs the process per request, whatever else runs.
    add('qa cpu/rest cpu', got.qa && got.rest ? got.qa.cpu / got.rest.cpu : undefined);
    add('qa rps/rest rps', ratio('qa', 'rest'));
    add(
      'before: qa cpu/rest cpu',
      got['before-qa'] && got.before ? got['before-qa'].cpu / got.before.cpu : undefined,
    );
    add('p99 rest/bare', got.rest && got.bare ? got.rest.p99 / Math.max(1, got.bare.p99) : undefined);
    if (got.json) {
      const lowest = JSON_COMPARED.filter((v) => got[v]).reduce((a, b) => (rps(b)! < rps(a)! ? b : a));
      jsonLows.set(lowest, (jsonLows.get(lowest) ?? 0) + 1);
      add('read/json', rps(lowest)! / got.json.rps);
      add('off/json', ratio('off', 'json'));
    }
  }
  const row: Row = {
    name,
    samples: Object.fromEntries(Object.entries(samples).map(([v, xs]) => [v, med(xs)])),
    ratios: Object.fromEntries(Object.entries(perRound).map(([key, xs]) => [key, spread(xs)])),
    lowJson: [...jsonLows].sort((a, b) => b[1] - a[1])[0]?.[0],
  };
  rows.push(row);
  console.log(
    `${contract[name].path.padEnd(46)} req/s ${variants.map((v) => `${v.name} ${Math.round(row.samples[v.name]!.rps)}`).join(', ')}` +
      ` | CPU µs/req ${variants.map((v) => `${v.name} ${row.samples[v.name]!.cpu.toFixed(0)}`).join(', ')}`,
  );
}
const minutes = (performance.now() - started) / 60_000;

// ---- did every answered write write? ----
let writeCheck = '';
if (on('mixed')) {
  const db = new Database(databasePath, { readonly: true });
  const after = counts(db);
  db.close();
  const purchases = after.purchases - countsBefore.purchases;
  const swaps = after.swaps - countsBefore.swaps;
  // Written ≥ answered (writes in flight when a run stops are written unanswered); written < sent
  // only by writes set up but never sent when a run stopped, or by purchases answered as repeats.
  const ok = purchases >= writes.purchases && swaps >= writes.swaps;
  writeCheck =
    `writes in the mixed and writes-only runs: purchases ${sent.purchases} sent, ${writes.purchases} answered, ${purchases} written; ` +
    `swaps ${sent.swaps} sent, ${writes.swaps} answered, ${swaps} written (${writers.length} writers) ` +
    (!ok
      ? 'MISSED: fewer written than answered: purchases answered as repeats (raise --writers)'
      : purchases === sent.purchases && swaps === sent.swaps
        ? 'ok: every write sent wrote'
        : `ok, though ${sent.purchases - purchases + sent.swaps - swaps} sent did not write (set up as a run stopped, or repeats)`);
}

// ---- the table ----
const GOALS: {
  key: string;
  title: string;
  goal: number;
  applies?: (name: ProcedureName) => boolean;
  times?: boolean;
  /** The goal is a ceiling (met at or below it). */
  atMost?: boolean;
}[] = [
  { key: 'rest/bare', title: 'REST ÷ bare (≥ 0.7)', goal: 0.7 },
  { key: 'trpc/rest', title: 'tRPC ÷ REST (≥ 0.9)', goal: 0.9 },
  { key: 'batch/rest', title: 'batched tRPC ÷ REST (≥ 0.9)', goal: 0.9 },
  { key: 'off/bare', title: 'cache off ÷ bare (tables ≥ 0.5)', goal: 0.5, applies: isTable },
  { key: 'mixed/rest', title: '10 % writes ÷ read-only (≥ 0.8)', goal: 0.8 },
  { key: 'read/json', title: 'lowest read ÷ json-server (≥ 5×)', goal: 5, times: true },
  {
    key: 'qa cpu/rest cpu',
    title: 'QA control on ÷ off, CPU µs per request (≤ 1.05)',
    goal: 1.05,
    atMost: true,
  },
];
const meets = (g: (typeof GOALS)[number], x: number) => (g.atMost ? x <= g.goal : x >= g.goal);
/** The CPU-time equivalent of a throughput ratio: what it would be if each process had a core of its own. */
const CPU_OF: Record<string, [VariantName, VariantName]> = {
  'rest/bare': ['bare', 'rest'],
  'trpc/rest': ['rest', 'trpc'],
  'batch/rest': ['rest', 'batch'],
  'off/bare': ['bare', 'off'],
  'mixed/rest': ['rest', 'mixed'],
};
const shown = GOALS.filter((g) => rows.some((r) => r.ratios[g.key]));
const fmt = (x: number, times?: boolean) => (times ? `${x.toFixed(1)}×` : x.toFixed(2));
/** CPU µs of a write (measured alone) and of a read within the mix (the mix's per-request CPU less its writes'). */
const readsInMix = (row: Row) => {
  const { mixed: mix, writes: alone, rest } = row.samples;
  if (!mix || !alone || !rest) return '';
  const read = (mix.cpu * WRITE_EVERY - alone.cpu) / (WRITE_EVERY - 1);
  return `; writes alone ${Math.round(alone.rps)}/s at ${alone.cpu.toFixed(0)} µs CPU each, a read in the mix ${read.toFixed(0)} µs (alone ${rest.cpu.toFixed(0)})`;
};
const cell = (row: Row, g: (typeof GOALS)[number]) => {
  const s = row.ratios[g.key];
  if (!s) return '–';
  const verdict = g.applies && !g.applies(row.name) ? '' : meets(g, s.med) ? ' ok' : ' **MISSED**';
  const [fast, slow] =
    g.key === 'read/json' && row.lowJson ? (['json', row.lowJson] as const) : (CPU_OF[g.key] ?? []);
  const cpu =
    fast && slow && row.samples[fast] && row.samples[slow]
      ? `, cpu ${fmt(row.samples[fast].cpu / row.samples[slow].cpu, g.times)}`
      : '';
  // A reference beside the goal's ratio.
  const besides: Record<string, string | undefined> = {
    'trpc/rest': row.ratios['trpc/bare-trpc'] && `; ÷ bare tRPC ${fmt(row.ratios['trpc/bare-trpc'].med)}`,
    'off/bare': [
      row.ratios['off/json'] && `; ÷ json-server ${fmt(row.ratios['off/json'].med, true)}`,
      row.ratios['before: off/bare'] &&
        `; the --before build ${fmt(row.ratios['before: off/bare'].med)} (${fmt(row.ratios['before: off/bare'].min)}–${fmt(row.ratios['before: off/bare'].max)}), ${row.samples['before-off']!.cpu.toFixed(0)} against ${row.samples.off!.cpu.toFixed(0)} µs`,
    ].join(''),
    'mixed/rest': [
      row.ratios['bare-mixed/bare'] && `; bare ${fmt(row.ratios['bare-mixed/bare'].med)}`,
      readsInMix(row),
    ].join(''),
    'read/json': row.lowJson && ` (${row.lowJson})`,
    'qa cpu/rest cpu':
      row.ratios['qa rps/rest rps'] &&
      `; req/s on ÷ off ${fmt(row.ratios['qa rps/rest rps'].med)}, ${row.samples.qa!.cpu.toFixed(0)} against ${row.samples.rest!.cpu.toFixed(0)} µs` +
        (row.ratios['before: qa cpu/rest cpu']
          ? `; the --before build ${fmt(row.ratios['before: qa cpu/rest cpu'].med)} (${fmt(row.ratios['before: qa cpu/rest cpu'].min)}–${fmt(row.ratios['before: qa cpu/rest cpu'].max)}), ${row.samples['before-qa']!.cpu.toFixed(0)} against ${row.samples.before!.cpu.toFixed(0)} µs`
          : ''),
  };
  const extra = besides[g.key] ?? '';
  return `${fmt(s.med, g.times)} (${fmt(s.min, g.times)}–${fmt(s.max, g.times)}${cpu}${extra})${verdict}`;
};
const load = spread(loads)!;
const out: string[] = [
  '',
  `${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s per variant and read, ${MEMBERS} members, ${minutes.toFixed(1)} min of measuring; ` +
    `load average (1 min) during the run ${load.min.toFixed(2)}–${load.max.toFixed(2)} (median ${load.med.toFixed(2)}) on ${cpus().length} cores`,
  'Ratios of requests/s within each round: median (min–max over rounds, cpu = the same ratio from CPU µs per request); goal met (ok) or MISSED on the median.',
  '',
  `| read | ${shown.map((g) => g.title).join(' | ')} |`,
  `|---|${shown.map(() => '---').join('|')}|`,
  ...rows.map((row) => `| ${contract[row.name].path} | ${shown.map((g) => cell(row, g)).join(' | ')} |`),
  '',
  'Requests/s and CPU µs per request (medians over rounds); p99 ms of REST and bare:',
  '',
  `| read | ${variants.map((v) => v.name).join(' | ')} | p99 REST / bare |`,
  `|---|${variants.map(() => '---').join('|')}|---|`,
  ...rows.map(
    (row) =>
      `| ${contract[row.name].path} | ${variants.map((v) => `${Math.round(row.samples[v.name]!.rps)} / ${row.samples[v.name]!.cpu.toFixed(0)} µs`).join(' | ')} | ${row.samples.rest!.p99} / ${row.samples.bare!.p99} |`,
  ),
];
if (writeCheck) out.push('', writeCheck);
const missed = rows.flatMap((row) =>
  shown
    .filter(
      (g) => row.ratios[g.key] && (!g.applies || g.applies(row.name)) && !meets(g, row.ratios[g.key]!.med),
    )
    .map((g) => `${contract[row.name].path} ${g.key}`),
);
out.push('', missed.length ? `MISSED: ${missed.join(', ')}` : 'every goal met');
console.log(out.join('\n'));
process.exit(0); // the servers' pipes would keep the script alive
