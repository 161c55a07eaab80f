/**
 * Password and transaction-password hashing: scrypt (memory-hard) with a per-hash salt,
 * compared in constant time. Stored as `scrypt$N$r$p$salt$hash` (base64url) so the cost can
 * be raised later without invalidating existing hashes.
 *
 * Rule: every hash (and every check, dummy ones included) goes through one bounded queue: a fixed
 * number run at once, a bounded number wait, and one lane (a signed-in member, or the client
 * address of a call without a session: hashLane) may have only a few queued or running. What does
 * not fit is refused at once with 429 before any hashing, so a flood from one address is answered
 * in microseconds instead of queued for seconds, and waiting hashes are taken in turn from each
 * lane, so a member behind a flood waits for one hash, not the flood, and fifty members behind one
 * office address each get their turn.
 *
 * Sizes follow the machine (os.availableParallelism): the sustainable rate is HASH_CONCURRENCY
 * hashes per ~50 ms (bench hash-rate: about 20 a second per hashing core), and the queue holds
 * about three seconds of that, so a burst of realistic traffic (40 sign-ins at once, 50 members
 * sending a transfer together) waits its turn instead of being refused.
 */
import { availableParallelism } from 'node:os';
import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { RETRY_SOON_SECONDS, tooMany } from './errors.ts';

const COST = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

/**
 * Hashes running at once: one per core but one, which is left to the event loop (on 2 cores, 2 at
 * once made a flood's refusals and a member's sign-in during it twice as slow: bench auth-timing);
 * at most libuv's 4 pool threads. About 50 ms each here.
 */
export const HASH_CONCURRENCY = Math.max(1, Math.min(availableParallelism() - 1, 4));
/** About how long one hash takes on one core (scrypt N=2^14, r=8; bench hash-rate measures it). */
const HASH_MS = 50;
/** The longest a hash should wait for its turn with the queue full. */
const MAX_WAIT_MS = 3_000;
/** Hashes waiting for a turn, all lanes together: ~3 s of work for the hashing cores (60 with one). */
export const HASH_MAX_WAITING = Math.max(32, Math.ceil((MAX_WAIT_MS / HASH_MS) * HASH_CONCURRENCY));
/** Hashes queued or running for one lane (a member's several tabs, a shared office's sign-ins, stay far below). */
export const HASH_MAX_PER_CLIENT = 16;
export const HASH_BUSY_MESSAGE = 'The server is busy. Please try again in a moment.';

/**
 * The lane of a call's hashes: its signed-in member, else its client address (sign-in,
 * registration, reset). Members behind one address (an office, a carrier's NAT) share nothing.
 */
export const hashLane = (ctx: { caller: { ip: string }; member: { id: number } | null }): string =>
  ctx.member ? `member ${ctx.member.id}` : ctx.caller.ip;

/** Internal calls (seed, tests, QA) have no address: their lane is bounded only by the global limit. */
const INTERNAL = '';

/** Waiting jobs per address, in the order addresses first queued; taken round-robin. */
const lanes = new Map<string, (() => void)[]>();
/** Hashes queued or running per client address. */
const perClient = new Map<string, number>();
const gauge = { running: 0, waiting: 0, peakRunning: 0, peakWaiting: 0, peakPerClient: 0, refused: 0 };

/** The queue's state and its high-water marks since the process started (read-only; tests and benches). */
export function hashQueueStats() {
  return {
    concurrency: HASH_CONCURRENCY,
    maxWaiting: HASH_MAX_WAITING,
    maxPerClient: HASH_MAX_PER_CLIENT,
    running: gauge.running,
    waiting: gauge.waiting,
    clients: perClient.size,
    peakRunning: gauge.peakRunning,
    peakWaiting: gauge.peakWaiting,
    peakPerClient: gauge.peakPerClient,
    refused: gauge.refused,
  };
}

function dispatch() {
  while (gauge.running < HASH_CONCURRENCY && gauge.waiting > 0) {
    const [lane, jobs] = lanes.entries().next().value!;
    const job = jobs.shift()!;
    // The lane goes to the back (or away when empty): the next hash is another address's.
    lanes.delete(lane);
    if (jobs.length > 0) lanes.set(lane, jobs);
    gauge.waiting--;
    job();
  }
}

/** Runs `work` in the queue, or refuses with 429 at once (before any hash) when it does not fit. */
function queued<T>(client: string | undefined, work: () => Promise<T>): Promise<T> {
  const mine = client === undefined ? 0 : (perClient.get(client) ?? 0);
  const full = gauge.running >= HASH_CONCURRENCY && gauge.waiting >= HASH_MAX_WAITING;
  if (mine >= HASH_MAX_PER_CLIENT || full) {
    gauge.refused++;
    return Promise.reject(tooMany(HASH_BUSY_MESSAGE, RETRY_SOON_SECONDS, 'SERVER_BUSY'));
  }
  if (client !== undefined) {
    perClient.set(client, mine + 1);
    gauge.peakPerClient = Math.max(gauge.peakPerClient, mine + 1);
  }
  return new Promise<T>((resolve, reject) => {
    const start = () => {
      gauge.running++;
      gauge.peakRunning = Math.max(gauge.peakRunning, gauge.running);
      work()
        .then(resolve, reject)
        .finally(() => {
          gauge.running--;
          if (client !== undefined) {
            const left = perClient.get(client)! - 1;
            if (left > 0) perClient.set(client, left);
            else perClient.delete(client);
          }
          dispatch();
        });
    };
    if (gauge.running < HASH_CONCURRENCY) return start();
    const lane = client ?? INTERNAL;
    const jobs = lanes.get(lane);
    if (jobs) jobs.push(start);
    else lanes.set(lane, [start]);
    gauge.waiting++;
    gauge.peakWaiting = Math.max(gauge.peakWaiting, gauge.waiting);
  });
}

const derive = (plain: string, salt: Buffer, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(
      plain.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 256 * (options.N ?? COST.N) * (options.r ?? COST.r) },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );

const stored = (salt: Buffer, key: Buffer) =>
  ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');

/** `client`: the call's lane (hashLane); internal calls without a caller leave it out. */
export async function hashPassword(plain: string, client?: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await queued(client, () => derive(plain, salt, COST));
  return stored(salt, key);
}

/**
 * The same hash, computed on this thread: for a builder that must stay in one synchronous
 * transaction (a declared world state's passwords). Never on a request path: it blocks the loop.
 */
export function hashPasswordSync(plain: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(plain.normalize('NFKC'), salt, KEY_LENGTH, {
    ...COST,
    maxmem: 256 * COST.N * COST.r,
  });
  return stored(salt, key);
}

/** False for a wrong password and for a malformed stored hash (never throws on bad data; 429 when busy). */
export async function verifyPassword(plain: string, stored: string, client?: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !keyText) return false;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  if (![options.N, options.r, options.p].every((v) => Number.isInteger(v) && v > 0)) return false;
  const expected = Buffer.from(keyText, 'base64url');
  const actual = await queued(client, () => derive(plain, Buffer.from(saltText, 'base64url'), options));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The demo password of seeded members and its precomputed hash, so seeding costs no KDF time. */
export const DEMO_PASSWORD = 'Demo@1234';
export const DEMO_PASSWORD_HASH =
  'scrypt$16384$8$1$iCCEvM2w9pK5urLoFOXNKA$aw0CwkgbaCDLnu__a0DD3JWnl_DbYF_-TDI_A7bEKY0';

/** Checked against unknown usernames so a wrong name costs as long as a wrong password (and queues like one). */
export const verifyAgainstDummy = (plain: string, client?: string) =>
  verifyPassword(plain, DEMO_PASSWORD_HASH, client).then(() => false);
