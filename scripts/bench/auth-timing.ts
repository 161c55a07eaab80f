/**
 * Authentication timings (a known and an unknown name answer alike), against `main.ts` in a child process (its own event loop, so
 * the work a server does after an answer is not counted in it), on a new database file
 * (synchronous=FULL: every commit waits for the disk, as in production), production settings
 * with QA control on:
 *   node --import tsx scripts/bench/auth-timing.ts [--runs 100] [--flood 300] [--floods 5]
 * - reset_password_email and forgot_username: median answer for a known and an unknown name (or
 *   email), interleaved, each from a fresh loopback address so the per-address rate limits stay out
 *   of it, with a pause after each call for the work done after the answer (mailing the code);
 * - a flood of `--flood` concurrent sign-ins with unknown names from one address: median answer
 *   of its refusals (429, by message) and of its checked guesses (these include waiting for the
 *   burst's 300 connections to be taken in), one more sign-in sent from the flooding address once
 *   the flood is being refused (the refusal alone), against a member's sign-in alone and a member's
 *   sign-in from another address sent at the same moment.
 * Answers are timed by the client, over HTTP on loopback, one connection per request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { solveChallenge } from 'altcha-lib';
import Database from 'better-sqlite3';
import { median, numberArg } from './cli.ts';

const RUNS = numberArg('runs', 100);
const FLOOD = numberArg('flood', 300);
const FLOODS = numberArg('floods', 5);

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'md-bench-auth-'));
const databasePath = join(dir, 'app.sqlite');
let child: ChildProcess | undefined;
// Synchronous, so it also runs when the script dies of an error.
process.once('exit', () => {
  if (child?.exitCode === null) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});
process.once('SIGINT', () => process.exit(130));

// ---- the server ----
const port = await new Promise<number>((done, fail) => {
  child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_PATH: databasePath,
      PORT: '0',
      NODE_ENV: 'production',
      STANDIN: 'on',
      WALLET_CHECK_STANDIN: 'on',
      QA_CONTROL: 'on',
      JWT_SECRET: 'auth-timing-bench',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    const found = /Member dashboard on http:\/\/localhost:(\d+)/.exec(output)?.[1];
    if (found) done(Number(found));
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  child.once('exit', (code) => fail(new Error(`the server exited (${code}) before listening:\n${output}`)));
});

interface Reply {
  status: number;
  body: Record<string, unknown>;
  ms: number;
}
function send(method: 'GET' | 'POST', path: string, body: unknown, from: string): Promise<Reply> {
  return new Promise((done, fail) => {
    const payload = method === 'POST' ? JSON.stringify(body) : undefined;
    const started = performance.now();
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        localAddress: from,
        agent: false,
        headers: payload ? { 'content-type': 'application/json' } : {},
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          done({
            status: response.statusCode!,
            body: JSON.parse(text) as Record<string, unknown>,
            ms: performance.now() - started,
          }),
        );
      },
    );
    request.on('error', fail);
    request.end(payload);
  });
}
let addresses = 0;
/** A loopback address of its own (Linux routes all of 127/8 to loopback). */
const nextAddress = () => `127.1.${Math.floor(addresses / 250)}.${1 + (addresses++ % 250)}`;
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

// The demo scenario's members (the server wrote the file; WAL lets a reader in beside it).
const file = new Database(databasePath, { readonly: true });
const members = file
  .prepare("select username, email from members where username <> 'demo' order by id")
  .all() as { username: string; email: string }[];
file.close();

async function captcha(): Promise<string> {
  const { body } = await send('GET', '/captcha/challenge', undefined, '127.0.0.1');
  const challenge = body as {
    algorithm: string;
    challenge: string;
    salt: string;
    signature: string;
    maxnumber: number;
  };
  const solution = await solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise;
  if (!solution) throw new Error('captcha not solved');
  const { algorithm, salt, signature } = challenge;
  return Buffer.from(
    JSON.stringify({ algorithm, challenge: challenge.challenge, number: solution.number, salt, signature }),
  ).toString('base64');
}

/** Known and unknown calls interleaved; each answer must be 200 (a refusal would time something else). */
async function knownVsUnknown(label: string, call: (known: boolean, i: number) => Promise<Reply>) {
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < RUNS; i++)
    for (const known of i % 2 ? [true, false] : [false, true]) {
      const reply = await call(known, i);
      if (reply.status !== 200)
        throw new Error(`${label} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
      times[known ? 'known' : 'unknown'].push(reply.ms);
      // The mail of a known name is written after its answer: let it finish before the next call (it starts 20 ms after the answer).
      await pause(60);
    }
  const [k, u] = [median(times.known), median(times.unknown)];
  console.log(
    `${label.padEnd(22)} known ${fmt(k)}  unknown ${fmt(u)}  (difference ${fmt(k - u)}, medians of ${RUNS} each)`,
  );
}

console.log(`auth timing: main.ts (production settings, QA on), new database ${databasePath}`);
await knownVsUnknown('reset_password_email', (known, i) =>
  send(
    'POST',
    '/user/reset_password_email',
    { username: known ? members[i % members.length]!.username : `nobody_${i}` },
    nextAddress(),
  ),
);
const captchas: string[] = [];
for (let i = 0; i < 2 * RUNS; i++) captchas.push(await captcha());
await knownVsUnknown('forgot_username', (known, i) =>
  send(
    'POST',
    '/user/forgot_username',
    {
      email: known ? members[i % members.length]!.email : `nobody${i}@nowhere.test`,
      captcha: captchas.pop()!,
    },
    nextAddress(),
  ),
);

// ---- a flood of unknown names from one address ----
const signIn = (from: string) =>
  send('POST', '/user/login', { username: 'demo', password: 'Demo@1234' }, from);
const alone: number[] = [];
for (let i = 0; i < 20; i++) {
  const reply = await signIn(nextAddress());
  if (reply.status !== 200) throw new Error(`sign-in answered ${reply.status}`);
  alone.push(reply.ms);
}
const refusals = new Map<string, number[]>();
const guesses: number[] = [];
const during: number[] = [];
const probes: number[] = [];
const failedDuring: string[] = [];
for (let round = 0; round < FLOODS; round++) {
  const from = nextAddress();
  const answered: Reply[] = [];
  const flood = Promise.all(
    Array.from({ length: FLOOD }, (_, i) =>
      send('POST', '/user/login', { username: `flood_${round}_${i}`, password: 'Wrong@1234' }, from).then(
        (r) => (answered.push(r), r),
      ),
    ),
  );
  while (!answered.some((r) => r.status === 429)) await pause(1);
  const [member, probe] = await Promise.all([
    signIn(nextAddress()),
    send('POST', '/user/login', { username: `probe_${round}`, password: 'Wrong@1234' }, from),
  ]);
  if (probe.status !== 429) throw new Error(`the probe from the flooding address answered ${probe.status}`);
  probes.push(probe.ms);
  if (member.status === 200) during.push(member.ms);
  else failedDuring.push(`${member.status} ${String(member.body.Error)}`);
  for (const reply of await flood) {
    if (reply.status === 429) {
      const message = String(reply.body.Error);
      refusals.set(message, [...(refusals.get(message) ?? []), reply.ms]);
    } else guesses.push(reply.ms);
  }
  await pause(500);
}
const allRefusals = [...refusals.values()].flat();
console.log(`flood of ${FLOOD} unknown-name sign-ins from one address, ${FLOODS} times:`);
console.log(
  `  refused (429)          median ${fmt(median(allRefusals))}, max ${fmt(Math.max(...allRefusals))} (${allRefusals.length} answers)`,
);
for (const [message, times] of refusals)
  console.log(`    ${String(times.length).padStart(5)} × '${message}'  median ${fmt(median(times))}`);
console.log(
  `  checked (400)          median ${fmt(median(guesses))}, max ${fmt(Math.max(...guesses))} (${guesses.length} answers: the address's share of the hashing queue)`,
);
console.log(
  `  one more from the flooding address, sent during the flood: median ${fmt(median(probes))} (429, ${FLOODS} runs)`,
);
console.log(`a member's sign-in alone                 median ${fmt(median(alone))} (20 runs)`);
console.log(
  `a member's sign-in from another address during the flood: median ${during.length ? fmt(median(during)) : '-'} (${during.length} of ${FLOODS}${failedDuring.length ? `; refused: ${failedDuring.join(', ')}` : ''})`,
);
process.exit(0);
