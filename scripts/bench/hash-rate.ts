/**
 * The sustainable rate of password work (sign-ins, P2P and withdrawal transaction passwords), and
 * realistic traffic against it:
 *   node --import tsx scripts/bench/hash-rate.ts [--seconds 30] [--members 50] [--every 10]
 * - baseline: one scrypt hash at a time, alone (median of 20): the cost of one;
 * - saturated: 200 hashes through the queue, kept full: hashes per second, as a ratio of one core's
 *   rate from the baseline (the pool runs HASH_CONCURRENCY at once);
 * - realistic: an in-process server (demo seed), `--members` members each sending a P2P transfer
 *   every `--every` seconds at a random phase for `--seconds`, then 40 sign-ins at once: busy
 *   answers (429) counted, answer times (median, p95) as ratios of the baseline hash.
 * Figures vary with load: the load average and the process's CPU time are printed beside them.
 */
import { loadavg } from 'node:os';
import { buildApp } from '../../apps/server/src/app.ts';
import {
  HASH_CONCURRENCY,
  HASH_MAX_WAITING,
  hashPassword,
  hashQueueStats,
} from '../../apps/server/src/core/passwords.ts';
import { moneyTransaction, transfer } from '../../apps/server/src/modules/ledger/ledger.ts';
import { DEMO_TRANSACTION_PASSWORD } from '../../apps/server/src/seed/demo-money.ts';
import { median, numberArg } from './cli.ts';

const SECONDS = numberArg('seconds', 30);
const MEMBERS = numberArg('members', 50);
const EVERY = numberArg('every', 10);

const cpuStart = process.cpuUsage();
const wallStart = performance.now();
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
const ms = (x: number) => `${x.toFixed(1)} ms`;

console.log(
  `hash-rate: ${HASH_CONCURRENCY} hashing at once, ${HASH_MAX_WAITING} may wait; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

// ---- baseline: one hash alone ----
const alone: number[] = [];
for (let i = 0; i < 20; i++) {
  const started = performance.now();
  await hashPassword('Bench@1234');
  alone.push(performance.now() - started);
}
const one = median(alone);
console.log(
  `baseline         one hash alone: ${ms(one)} (median of 20): ${(1000 / one).toFixed(1)} a second per core`,
);

// ---- saturated ----
{
  const total = 200;
  let sent = 0;
  const started = performance.now();
  const bound = HASH_CONCURRENCY + HASH_MAX_WAITING;
  await new Promise<void>((done) => {
    let finished = 0;
    const more = () => {
      while (sent < total && sent - finished < bound) {
        sent++;
        void hashPassword('Bench@1234').then(() => {
          finished++;
          if (finished === total) done();
          else more();
        });
      }
    };
    more();
  });
  const rate = (total / (performance.now() - started)) * 1000;
  console.log(
    `saturated        ${total} hashes through the queue: ${rate.toFixed(1)} a second = ${(rate / (1000 / one)).toFixed(2)} × one core's rate (the sustainable rate)`,
  );
}

// ---- realistic traffic ----
const app = await buildApp({ databasePath: ':memory:', seed: 'demo', jwtSecret: 'hash-rate-bench' });
const { fastify, services } = app;
let addresses = 0;
const post = async (url: string, payload: unknown, token?: string) => {
  const started = performance.now();
  const response = await fastify.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify(payload),
    remoteAddress: `10.${Math.floor(addresses / 250) % 250}.${addresses % 250}.${1 + (addresses++ % 200)}`,
  });
  return {
    status: response.statusCode,
    ms: performance.now() - started,
    error: response.statusCode === 200 ? undefined : String((response.json() as { Error?: string }).Error),
  };
};
/** Answers other than 200 and busy, by status and message. */
const others = (replies: { status: number; error?: string | undefined }[]) =>
  [
    ...new Set(
      replies.filter((r) => r.status !== 200 && r.status !== 429).map((r) => `${r.status} ${r.error}`),
    ),
  ].join('; ') || 'none';
const pairs = services.sqlite
  .prepare(
    `select s.id, s.username as sender, min(d.username) as recipient from members s join members d on d.sponsor_id = s.id where s.username <> 'demo' and s.totp_enabled = 0 group by s.id order by s.id limit ?`,
  )
  .all(MEMBERS) as { id: number; sender: string; recipient: string }[];
services.sqlite
  .prepare(
    `update members set transaction_password_hash = (select transaction_password_hash from members where username = 'demo') where id in (${pairs.map(() => '?').join(',')})`,
  )
  .run(...pairs.map((p) => p.id));
for (const { id } of pairs)
  moneyTransaction(services, () =>
    transfer(services, [
      {
        transId: `BENCH${id}`,
        from: { system: 'payouts' },
        to: { member: id, wallet: 'Deposit' },
        amount: 10_000 * 1_000_000,
        reason: 'direct_income',
        memberId: id,
      },
    ]),
  );
const tokens: string[] = [];
for (const { sender } of pairs) {
  const response = await fastify.inject({
    method: 'POST',
    url: '/user/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ username: sender, password: 'Demo@1234' }),
    remoteAddress: `10.200.0.${tokens.length + 1}`,
  });
  tokens.push((response.json() as { JWT: string }).JWT);
}

const refusedBefore = hashQueueStats().refused;
const transfers: { status: number; ms: number; error?: string | undefined }[] = [];
const sends: Promise<void>[] = [];
const end = performance.now() + SECONDS * 1000;
await Promise.all(
  pairs.map(async ({ recipient }, i) => {
    await new Promise((done) => setTimeout(done, Math.random() * EVERY * 1000));
    while (performance.now() < end) {
      sends.push(
        post(
          '/transfer_to_user',
          { username: recipient, amount: 1, password: DEMO_TRANSACTION_PASSWORD },
          tokens[i],
        ).then((reply) => void transfers.push(reply)),
      );
      await new Promise((done) => setTimeout(done, EVERY * 1000));
    }
  }),
);
await Promise.all(sends);
const transferTimes = transfers.map((t) => t.ms);
const busyTransfers = transfers.filter((t) => t.status === 429).length;
console.log(
  `realistic        ${MEMBERS} members, a P2P transfer each every ${EVERY} s for ${SECONDS} s: ${transfers.length} sent, ${busyTransfers} busy, other answers: ${others(transfers)}; answer median ${ms(median(transferTimes))} (${(median(transferTimes) / one).toFixed(1)} × one hash), p95 ${ms(quantile(transferTimes, 0.95))} (${(quantile(transferTimes, 0.95) / one).toFixed(1)} ×)`,
);

const signIns = await Promise.all(
  pairs.slice(0, 40).map(({ sender }) => post('/user/login', { username: sender, password: 'Demo@1234' })),
);
const signInTimes = signIns.map((s) => s.ms);
console.log(
  `sign-ins         40 at once: ${signIns.filter((s) => s.status === 200).length} in, ${signIns.filter((s) => s.status === 429).length} busy, other answers: ${others(signIns)}; last answered after ${ms(Math.max(...signInTimes))} (${(Math.max(...signInTimes) / one).toFixed(1)} × one hash)`,
);
console.log(
  `queue            refused during the realistic runs: ${hashQueueStats().refused - refusedBefore}; peak waiting ${hashQueueStats().peakWaiting} of ${HASH_MAX_WAITING}`,
);
await fastify.close();
const cpu = process.cpuUsage(cpuStart);
console.log(
  `time             wall ${((performance.now() - wallStart) / 1000).toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; load average now ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
