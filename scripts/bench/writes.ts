/**
 * What a money write costs, and what reading the wallets costs with the read cache off as history
 * grows, in process (no HTTP: the figure is the call path's own: invoke, the token, the handler).
 * On the `scale` scenario (20,000 members by default) in a file database, as the server opens it:
 *   purchase     subscription.buy_subscription_packages through invoke, by funded writers at least
 *                6 sponsor levels below the root, rotating packages (no repeat within the 10 s window);
 *   swap         wallet.transfer_wallet ROI → Deposit through invoke;
 *   p2p          sendP2p (the money move: the transaction password's scrypt check before it is left
 *                out, it is measured on its own as `password`);
 *   withdrawal   requestWithdrawal (the same);
 *   wallets      wallet.view_all_wallets_details with the read cache off for a member with `--small`
 *                transfers and one with `--large` (100,000 by default, over 24 months).
 * CPU µs per call from process.cpuUsage, every thread of the process (the system part, printed
 * beside it, is mostly the kernel writing the WAL's frames, two writes a page, and the thread pool's
 * sync of them; the wall time beside it includes the wait for that sync). The calls run in the
 * server's WAL regime: its automatic checkpoint (whose cost falls on the calls, as on the server) and
 * the WAL reused from its start after each, never a file growing from empty (every sync would then
 * write the file's size too: ~80 µs more a call). The WAL pages per call are counted apart, over
 * PAGE_CALLS more calls with the checkpoint off. Each kind runs in rounds,
 * interleaved so load falls on all alike; medians over rounds. `--sync group|normal|full`: `group`
 * (the server's: NORMAL, then each call waits for the shared sync its answer would wait for,
 * core/group-commit.ts; one call at a time, so one sync each), or the bare pragma. `--only purchase,swap` limits the kinds (for a --cpu-prof of one).
 *   node --import tsx scripts/bench/writes.ts [--members 20000] [--calls 400] [--rounds 5] [--warm 2000] [--large 100000] [--sync full]
 *   node --cpu-prof --cpu-prof-dir /tmp/prof --import tsx scripts/bench/writes.ts --only purchase --calls 4000 --rounds 1
 * `--statements`: also each kind's SQLite time per call, statement by statement (BEGIN and COMMIT
 * included; the timing adds a little to the CPU figures).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { amountToMicros, type ProcedureName } from '@md/shared';
import { buildApp } from '../../apps/server/src/app.ts';
import { insertMember } from '../../apps/server/src/modules/auth/members.ts';
import { LEVEL_PERCENTAGES } from '../../apps/server/src/modules/engine/income.ts';
import { handlers } from '../../apps/server/src/modules/index.ts';
import { creditFromSystem, moneyTransaction } from '../../apps/server/src/modules/ledger/ledger.ts';
import {
  saveWalletAddress,
  setTransactionPasswordHash,
} from '../../apps/server/src/modules/security/security.ts';
import { sendP2p } from '../../apps/server/src/modules/transfers/p2p.ts';
import { requestWithdrawal } from '../../apps/server/src/modules/withdrawals/withdrawals.ts';
import { DEMO_PASSWORD_HASH, verifyPassword } from '../../apps/server/src/core/passwords.ts';
import { DEMO_TRANSACTION_PASSWORD, DEMO_WALLET_ADDRESS } from '../../apps/server/src/seed/demo-money.ts';
import { seedScenario } from '../../apps/server/src/seed/index.ts';
import { invoke } from '../../apps/server/src/transport/invoke.ts';
import { fundWriters, pickWriters } from './fixtures.ts';
import { median, numberArg, stringArg } from './cli.ts';
import { statementTimes } from './statement-times.ts';

const MEMBERS = numberArg('members', 20_000);
const CALLS = numberArg('calls', 400);
/**
 * Calls of each kind before the rounds, not measured: V8 takes ~1,500 calls to settle a write's
 * code (a swap cost 0.36–0.42 ms of CPU a call over its first 800, 0.18–0.21 from its 1,600th).
 */
const WARM = numberArg('warm', 2_000);
const ROUNDS = numberArg('rounds', 5);
const SMALL = numberArg('small', 10);
const LARGE = numberArg('large', 100_000);
const SYNC = stringArg('sync') ?? 'group';
const KINDS = ['purchase', 'swap', 'p2p', 'withdrawal', 'wallets'] as const;
type Kind = (typeof KINDS)[number];
const ONLY = new Set((stringArg('only') ?? KINDS.join(',')).split(','));
/** `--statements`: each kind's SQLite time per call, statement by statement (statement-times.ts). */
const statements = process.argv.includes('--statements') ? statementTimes() : undefined;
const DAY = 86_400_000;
/** Calls of each kind whose WAL frames are counted (after the timed rounds). */
const PAGE_CALLS = Math.min(CALLS, 100);

const dir = mkdtempSync(join(tmpdir(), 'md-bench-writes-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const { services, fastify } = await buildApp({
  databasePath: join(dir, 'bench.sqlite'),
  seed: 'empty',
  config: { qaControl: false, validateOutput: false, rateLimits: false, readCache: false },
});
seedScenario(services, 'scale', { members: MEMBERS, historyDays: 0 });
if (SYNC !== 'group') services.sqlite.pragma(`synchronous = ${SYNC}`);
/** What the answer of a call waits for before it leaves (nothing without group commit). */
const answered = async (result: unknown) => {
  await result;
  if (SYNC === 'group') await services.groupCommit?.synced();
};
const writers = pickWriters(services, 1, 1_000, LEVEL_PERCENTAGES.length + 1);
const plans = services.plan.packages.map((p) => p.name);
const maxPrice = Math.max(...services.plan.packages.map((p) => p.price));
const perWriter = Math.ceil((WARM + ROUNDS * CALLS + PAGE_CALLS) / writers.length) + 2;
// A writer buying a package it bought within the repeat window is answered without a write.
if (ONLY.has('purchase') && WARM + ROUNDS * CALLS + PAGE_CALLS > writers.length * plans.length)
  throw new Error(
    `${Math.ceil((WARM + ROUNDS * CALLS + PAGE_CALLS) / writers.length)} purchases per writer would repeat one of the ${plans.length} packages: fewer --warm, --rounds or --calls`,
  );
services.sqlite.transaction(() => {
  fundWriters(services, writers, perWriter * maxPrice * 1_000_000, perWriter * 1_000_000);
  creditFromSystem(
    services,
    'payouts',
    writers.map((w) => ({
      transId: `BENCHW${w.id}`,
      memberId: w.id,
      wallet: 'Withdrawal' as const,
      amount: perWriter * 20_000_000,
      reason: 'roi' as const,
      at: services.clock.now(),
    })),
  );
  for (const w of writers) {
    setTransactionPasswordHash(services, w.id, DEMO_PASSWORD_HASH);
    saveWalletAddress(services, w.id, DEMO_WALLET_ADDRESS);
  }
})();
// Each writer's P2P recipient: a member of its downline (a new one where it has none).
const recipientOf = new Map<number, string>();
for (const w of writers) {
  const child = services.sqlite
    .prepare('select username from members where sponsor_id = ? limit 1')
    .pluck()
    .get(w.id) as string | undefined;
  recipientOf.set(
    w.id,
    child ??
      insertMember(services, {
        username: `${w.username}_p2p`,
        name: 'P2P',
        email: `${w.username}_p2p@example.com`,
        country: 'United Kingdom',
        passwordHash: DEMO_PASSWORD_HASH,
        sponsorId: w.id,
        side: '0',
        createdAt: services.clock.now(),
      }).username,
  );
}

// Two readers: `small` transfers and `large`, credited over 24 months.
const reader = (name: string, transfers: number) => {
  const id = insertMember(services, {
    username: name,
    name,
    email: `${name}@example.com`,
    country: 'United Kingdom',
    passwordHash: DEMO_PASSWORD_HASH,
    sponsorId: 1,
    side: '0',
    createdAt: services.clock.now(),
  }).id;
  const now = services.clock.now();
  const wallets = ['ROI', 'Direct', 'Binary', 'Level', 'Rank'] as const;
  for (let done = 0; done < transfers; done += 10_000) {
    moneyTransaction(services, () =>
      creditFromSystem(
        services,
        'payouts',
        Array.from({ length: Math.min(10_000, transfers - done) }, (_, k) => ({
          transId: `BENCHR${id}-${done + k}`,
          memberId: id,
          wallet: wallets[(done + k) % wallets.length]!,
          amount: 1_000_000,
          reason: 'roi' as const,
          at: now - Math.floor(((done + k) / transfers) * 730 * DAY),
        })),
      ),
    );
  }
  return { id, token: services.tokens.sign({ id, username: name, tokenVersion: 0 } as never) };
};
const small = reader('bench_small', SMALL);
const large = reader('bench_large', LARGE);

const caller = (token: string) => ({ ip: '127.0.0.1', authorization: `Bearer ${token}` });
const call = (name: ProcedureName, input: unknown, token: string) =>
  invoke(services, handlers, name, input, caller(token));
let n = 0;
const writerFor = () => writers[n++ % writers.length]!;
// Purchases count apart: a writer's k-th purchase is the k-th package, none bought twice.
let bought = 0;
const ops: Record<Exclude<Kind, 'wallets'>, () => unknown> = {
  purchase: () => {
    const k = bought++;
    return call(
      'subscription.buy_subscription_packages',
      { plan: plans[Math.floor(k / writers.length) % plans.length] },
      writers[k % writers.length]!.token,
    );
  },
  swap: () =>
    call(
      'wallet.transfer_wallet',
      { amount: 1, from_wallet: 'ROI', to_wallet: 'Deposit' },
      writerFor().token,
    ),
  p2p: () => {
    const w = writerFor();
    return sendP2p(services, w.id, recipientOf.get(w.id)!, amountToMicros(1));
  },
  withdrawal: () => requestWithdrawal(services, writerFor().id, amountToMicros(20), DEMO_WALLET_ADDRESS),
};

/** CPU and wall µs per call of `op`, over CALLS calls, in the server's WAL regime. */
async function measure(op: () => unknown): Promise<{ cpu: number; system: number; wall: number }> {
  // Every frame checkpointed: the next commit writes the WAL from its start, over the file's blocks.
  services.sqlite.pragma('wal_checkpoint(PASSIVE)');
  const before = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await answered(op());
  const wall = ((performance.now() - start) * 1000) / CALLS;
  const used = process.cpuUsage(before);
  return { cpu: (used.user + used.system) / CALLS, system: used.system / CALLS, wall };
}

/** The WAL pages a call of `op` writes: PAGE_CALLS calls with the automatic checkpoint off, their frames counted. */
async function walPages(op: () => unknown): Promise<number> {
  services.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const autocheckpoint = services.sqlite.pragma('wal_autocheckpoint', { simple: true }) as number;
  services.sqlite.pragma('wal_autocheckpoint = 0');
  for (let i = 0; i < PAGE_CALLS; i++) await answered(op());
  const { log } = (services.sqlite.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!;
  services.sqlite.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
  return log / PAGE_CALLS;
}

console.log(
  `scale ${MEMBERS} members, ${writers.length} writers, synchronous=${SYNC}; ${CALLS} calls per kind and round, ${ROUNDS} rounds`,
);
const samples = new Map<string, { cpu: number; system: number; wall: number }[]>();
const loads: number[] = [];
const variants: [string, () => unknown][] = [];
for (const kind of ['purchase', 'swap', 'p2p', 'withdrawal'] as const)
  if (ONLY.has(kind)) variants.push([kind, ops[kind]]);
if (ONLY.has('wallets')) {
  variants.push([
    `wallets (${SMALL} transfers)`,
    () => call('wallet.view_all_wallets_details', {}, small.token),
  ]);
  variants.push([
    `wallets (${LARGE} transfers)`,
    () => call('wallet.view_all_wallets_details', {}, large.token),
  ]);
}
for (const [, op] of variants) for (let i = 0; i < WARM; i++) await answered(op());
for (let round = 0; round < ROUNDS; round++) {
  for (let v = 0; v < variants.length; v++) {
    const [name, op] = variants[(v + round) % variants.length]!;
    // With --statements, only the calls' own statements are counted (an automatic checkpoint is in its COMMIT's).
    const result = await measure(statements ? () => statements.during(name, async () => op()) : op);
    samples.set(name, [...(samples.get(name) ?? []), result]);
  }
  loads.push(loadavg()[0]!);
}
const pages = new Map<string, number>();
for (const [name, op] of variants) pages.set(name, await walPages(op));
if (ONLY.has('p2p') || ONLY.has('withdrawal')) {
  const before = process.cpuUsage();
  for (let i = 0; i < 5; i++) await verifyPassword(DEMO_TRANSACTION_PASSWORD, DEMO_PASSWORD_HASH);
  const used = process.cpuUsage(before);
  console.log(
    `password: the transaction password's check before a P2P transfer or a withdrawal: ${((used.user + used.system) / 5 / 1000).toFixed(1)} ms CPU`,
  );
}
for (const [name, results] of samples) {
  const cpu = median(results.map((r) => r.cpu));
  const system = median(results.map((r) => r.system));
  const wall = median(results.map((r) => r.wall));
  console.log(
    `${name.padEnd(28)} ${(cpu / 1000).toFixed(3)} ms CPU (system ${(system / 1000).toFixed(3)}), ${(wall / 1000).toFixed(3)} ms wall, ${pages.get(name)!.toFixed(1)} WAL pages per call (median of ${results.length} rounds)`,
  );
}
if (statements)
  for (const [name, results] of samples) console.log(statements.report(name, CALLS * results.length));
if (ONLY.has('wallets')) {
  const wall = (k: number) => median(samples.get(`wallets (${k} transfers)`)!.map((r) => r.cpu));
  console.log(
    `wallets, cache off: ${LARGE} transfers ÷ ${SMALL} transfers = ${(wall(LARGE) / wall(SMALL)).toFixed(2)}× the CPU (goal ≤ 1.2)`,
  );
}
console.log(`load average ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} on 2 cores`);
await fastify.close();
