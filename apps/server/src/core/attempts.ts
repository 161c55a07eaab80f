/**
 * Fixed-window counters on the injectable clock (QA's clock moves them, tests never sleep), and
 * the brute-force limits built on them (docs/security.md).
 *
 * Rule: a guess (password, TOTP, transaction password, emailed code) is reserved before it is
 * checked: in one synchronous step, every limit it falls under is checked and counted. A wrong
 * guess keeps its count; a right one, or one never evaluated (the hashing queue was full, the
 * request was refused for another reason), gives it back. So however many requests arrive
 * together, the guesses the server evaluates never pass a limit.
 *
 * A limit is refused with its message ("Too many wrong...") only when the guesses that FAILED
 * reach it. When guesses still being checked fill it, a new one waits for them to settle and is
 * then judged on what they turned out to be (a burst of right passwords all go through, one after
 * another); past GUESS_WAITERS_MAX waiting on one limit it is answered busy, never "wrong".
 *
 * Sign-in failures are counted per account and address pair, per address across accounts, and per
 * account across addresses with a higher ceiling that refuses only addresses that have not signed
 * in to the account lately: strangers cannot lock the owner out, and guessing stays bounded
 * (NIST 800-63B: at most 100 failures per account). In memory, per server: a restart forgets
 * them, which only ever loosens a limit once; a QA reset clears them.
 */
import { createHash } from 'node:crypto';
import { RETRY_SOON_SECONDS, tooMany } from './errors.ts';
import { HASH_BUSY_MESSAGE } from './passwords.ts';
import type { Caller, Services } from './services.ts';
import { UseOrder } from './use-order.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface Bucket {
  count: number;
  /** When the window started (its first hit). */
  start: number;
  /** When it ends. */
  until: number;
  /** Of `count`, the guesses still being checked (reserveGuess; always 0 for request rates). */
  pending?: number;
}

/** Keys carry what the client sent (a username may be 60 KB): long ones are stored as their hash. */
const compactKey = (key: string) =>
  key.length > 128 ? `#${createHash('sha256').update(key).digest('base64url')}` : key;

/**
 * A window has lapsed once its end has passed, or when the clock is now before its start (QA
 * moved the clock back): a window never lasts longer because the clock went back.
 */
const lapsed = (bucket: Bucket, now: number) => now >= bucket.until || now < bucket.start;

/**
 * Buckets of one server, bounded so hostile keys cannot fill memory: lapsed buckets are swept once
 * the map grows, and past MAX_BUCKETS live ones the oldest go first (a limit then restarts early for
 * them, which is the lesser harm).
 */
export class WindowCounter {
  static readonly MAX_BUCKETS = 200_000;
  private readonly buckets = new Map<string, Bucket>();
  private sweepAt = 10_000;

  /** Hits inside the key's current window (0 when it has lapsed). */
  count(key: string, now: number): number {
    const bucket = this.buckets.get(compactKey(key));
    return bucket && !lapsed(bucket, now) ? bucket.count : 0;
  }

  /** Of the hits inside the key's current window, those still being checked. */
  pending(key: string, now: number): number {
    const bucket = this.buckets.get(compactKey(key));
    return bucket && !lapsed(bucket, now) ? (bucket.pending ?? 0) : 0;
  }

  /** Milliseconds until the key's current window ends (0 when it has lapsed). */
  remainingMs(key: string, now: number): number {
    const bucket = this.buckets.get(compactKey(key));
    return bucket && !lapsed(bucket, now) ? bucket.until - now : 0;
  }

  /** Counts one hit and answers the count including it. */
  hit(key: string, now: number, windowMs: number): number {
    return this.take(key, now, windowMs).count;
  }

  /** Counts one hit and answers its bucket, so the hit can be given back (`giveBack`). */
  take(key: string, now: number, windowMs: number): Bucket {
    const stored = compactKey(key);
    const bucket = this.buckets.get(stored);
    if (bucket && !lapsed(bucket, now)) {
      bucket.count++;
      return bucket;
    }
    // Deleted first so the Map's order stays the order windows started in (oldest first).
    this.buckets.delete(stored);
    const fresh = { count: 1, start: now, until: now + windowMs };
    this.buckets.set(stored, fresh);
    if (this.buckets.size >= this.sweepAt) this.sweep(now);
    return fresh;
  }

  /** Takes back one hit; a bucket whose window has been replaced since is no longer counted anyway. */
  static giveBack(bucket: Bucket): void {
    if (bucket.count > 0) bucket.count--;
  }

  /** Forgets every window (QA reset). */
  clear(): void {
    this.buckets.clear();
    this.sweepAt = 10_000;
  }

  get size() {
    return this.buckets.size;
  }

  private sweep(now: number) {
    for (const [key, bucket] of this.buckets) if (lapsed(bucket, now)) this.buckets.delete(key);
    // Down to 90 % of the bound, so the next sweep is thousands of new keys away (sweeps stay rare).
    if (this.buckets.size >= WindowCounter.MAX_BUCKETS) {
      const keep = WindowCounter.MAX_BUCKETS * 0.9;
      for (const key of this.buckets.keys()) {
        if (this.buckets.size <= keep) break;
        this.buckets.delete(key);
      }
    }
    this.sweepAt = Math.min(Math.max(10_000, this.buckets.size * 2), WindowCounter.MAX_BUCKETS);
  }
}

/** How long a successful sign-in makes its address known to the account, and how many are kept. */
export const KNOWN_ADDRESS_MS = 30 * DAY;
export const KNOWN_ADDRESSES_PER_ACCOUNT = 5;

/**
 * The addresses each account signed in from lately (the few most recent per account), which the
 * per-account ceiling does not refuse. Bounded: past MAX_ACCOUNTS an account that signed in
 * longest ago (among the older half: core/use-order.ts) is forgotten first (its owner then meets
 * the ceiling like a new address would).
 */
export class KnownAddresses {
  static readonly MAX_ACCOUNTS = 100_000;
  /** Each account's addresses (when each last signed in), the accounts in the order they last signed in. */
  private readonly accounts = new UseOrder<string, { addresses: Map<string, number>; at: number }>();

  remember(account: string, address: string, now: number): void {
    let known = this.accounts.entries.get(account);
    if (known) this.accounts.used(account, known);
    else this.accounts.add(account, (known = { addresses: new Map(), at: 0 }));
    // Re-inserted so an account's few addresses stay in the order of last use (oldest first).
    const { addresses } = known;
    addresses.delete(address);
    addresses.set(address, now);
    if (addresses.size > KNOWN_ADDRESSES_PER_ACCOUNT) addresses.delete(addresses.keys().next().value!);
    if (this.accounts.entries.size > KnownAddresses.MAX_ACCOUNTS) this.accounts.evict(account);
  }

  /** A sign-in "in the future" (QA moved the clock back) still counts: moving the clock never locks anyone. */
  has(account: string, address: string, now: number): boolean {
    const at = this.accounts.entries.get(account)?.addresses.get(address);
    return at !== undefined && now - at < KNOWN_ADDRESS_MS;
  }

  clear(): void {
    this.accounts.entries.clear();
  }
}

interface LimitState {
  counter: WindowCounter;
  known: KnownAddresses;
  /** Guesses waiting for the guesses in flight on a limit's key to settle, by key. */
  waiters: Map<string, (() => void)[]>;
}

/** One state per server; handler contexts are copies of the services, the connection is not. */
const states = new WeakMap<object, LimitState>();
function stateOf(services: Pick<Services, 'sqlite'>): LimitState {
  let state = states.get(services.sqlite);
  if (!state)
    states.set(
      services.sqlite,
      (state = { counter: new WindowCounter(), known: new KnownAddresses(), waiters: new Map() }),
    );
  return state;
}

/** The counter of one server: the request-rate limits (transport/rate-limit.ts) count in it too. */
export const counterOf = (services: Pick<Services, 'sqlite'>): WindowCounter => stateOf(services).counter;

/** Forgets every count and known address of the server: QA's reset and snapshot restore call it. */
export function resetGuessLimits(services: Pick<Services, 'sqlite'>): void {
  const { counter, known } = stateOf(services);
  counter.clear();
  known.clear();
  // Guesses waiting on the forgotten counts are judged again on the fresh ones.
  for (const [key, waiting] of stateOf(services).waiters) {
    stateOf(services).waiters.delete(key);
    for (const wake of waiting) wake();
  }
}

export interface FailureLimit {
  /** What one count covers: the account, the client address, or the two together. */
  per: 'account' | 'client' | 'pair';
  /** Failures allowed inside the window (in-flight guesses included); the next guess is refused with 429. */
  failures: number;
  windowMs: number;
  message: string;
  /** Not applied to an address that signed in to the account in the last 30 days (its failures still count). */
  exceptKnownAddresses?: boolean;
}

const limit = (
  per: FailureLimit['per'],
  failures: number,
  windowMs: number,
  message: string,
  exceptKnownAddresses = false,
): FailureLimit => ({
  per,
  failures,
  windowMs,
  message,
  ...(exceptKnownAddresses ? { exceptKnownAddresses } : {}),
});

export const LIMIT_MESSAGES = {
  signInPair: 'Too many failed sign-in attempts for this account. Try again in 15 minutes.',
  signInClient: 'Too many failed sign-in attempts. Try again in 15 minutes.',
  signInAccount:
    'Too many failed sign-in attempts for this account. Sign in from a device you have used before, or reset your password.',
  transactionPassword: 'Too many wrong transaction passwords. Try again in 15 minutes.',
  codeAccount: 'Too many wrong codes for this account. Try again in an hour.',
  codeClient: 'Too many wrong codes. Try again in 15 minutes.',
} as const;

/**
 * What each kind of guess may fail (docs/security.md lists them), checked in this order. Sign-in:
 * 10 per account from one address, 30 per address, and 100 a day per account for addresses it has
 * not signed in from. The transaction password and codes are guessed by the account's own session
 * or about one subject, so they keep a plain per-account count.
 */
export const FAILURE_LIMITS = {
  login: {
    pair: limit('pair', 10, 15 * MINUTE, LIMIT_MESSAGES.signInPair),
    client: limit('client', 30, 15 * MINUTE, LIMIT_MESSAGES.signInClient),
    account: limit('account', 100, DAY, LIMIT_MESSAGES.signInAccount, true),
  },
  transactionPassword: {
    account: limit('account', 10, 15 * MINUTE, LIMIT_MESSAGES.transactionPassword),
    client: limit('client', 30, 15 * MINUTE, LIMIT_MESSAGES.transactionPassword),
  },
  code: {
    account: limit('account', 10, 60 * MINUTE, LIMIT_MESSAGES.codeAccount),
    client: limit('client', 30, 15 * MINUTE, LIMIT_MESSAGES.codeClient),
  },
} as const satisfies Record<string, Record<string, FailureLimit>>;

export type GuessKind = keyof typeof FAILURE_LIMITS;

export interface GuessKeys {
  /** Username (or the email of a registration): case and surrounding spaces do not make a new account. */
  account: string;
  /** Absent for internal calls (seed, QA), which have no client: only the account is counted. */
  caller?: Caller | undefined;
}

type LimitCtx = Pick<Services, 'sqlite' | 'clock' | 'config'>;

/** A reserved guess: settle it once it has been checked. */
export interface Guess {
  /** The guess was wrong: it stays counted. */
  fail(): void;
  /** The guess was right or was never evaluated: its count is given back (nothing once failed or released). */
  release(): void;
}

const UNLIMITED: Guess = { fail() {}, release() {} };

const accountOf = (account: string) => account.trim().toLowerCase();

function keyOf(
  kind: GuessKind,
  rule: FailureLimit,
  account: string,
  address: string | undefined,
): string | null {
  if (rule.per === 'account') return `${kind}|account|${account}`;
  if (address === undefined) return null;
  return rule.per === 'client' ? `${kind}|client|${address}` : `${kind}|pair|${address}|${account}`;
}

/** Guesses that may wait on one limit's in-flight guesses; more are answered busy at once. */
export const GUESS_WAITERS_MAX = 32;

/**
 * Reserves one guess against every limit of its kind, or refuses with 429 before anything is
 * checked. Synchronous: call it before the first await of the check, and settle the answer
 * (`fail` when wrong, `release` in a finally). For checks that settle before they return (codes,
 * TOTP) no guess is ever in flight; a check that awaits (a password hash) uses reserveGuessInTurn.
 */
export function reserveGuess(ctx: LimitCtx, kind: GuessKind, keys: GuessKeys): Guess {
  if (ctx.config.rateLimits === false) return UNLIMITED;
  const reserved = tryReserve(ctx, stateOf(ctx), kind, keys);
  if (typeof reserved === 'string') throw tooMany(HASH_BUSY_MESSAGE, RETRY_SOON_SECONDS, 'SERVER_BUSY');
  return reserved;
}

/**
 * reserveGuess for a check that awaits: when guesses in flight fill a limit, waits for them to
 * settle and is then judged on what they turned out to be. When it need not wait (the usual case)
 * the reservation is made synchronously, in the call itself.
 */
export async function reserveGuessInTurn(ctx: LimitCtx, kind: GuessKind, keys: GuessKeys): Promise<Guess> {
  if (ctx.config.rateLimits === false) return UNLIMITED;
  const state = stateOf(ctx);
  for (;;) {
    const reserved = tryReserve(ctx, state, kind, keys);
    if (typeof reserved !== 'string') return reserved;
    const waiting = state.waiters.get(reserved) ?? [];
    if (waiting.length >= GUESS_WAITERS_MAX)
      throw tooMany(HASH_BUSY_MESSAGE, RETRY_SOON_SECONDS, 'SERVER_BUSY');
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      state.waiters.set(reserved, waiting);
    });
  }
}

/** The reserved guess, or the key of a limit that guesses in flight fill (wait on it, then try again). */
function tryReserve(ctx: LimitCtx, state: LimitState, kind: GuessKind, keys: GuessKeys): Guess | string {
  const { counter, known } = state;
  const now = ctx.clock.now();
  const account = accountOf(keys.account);
  const address = keys.caller?.ip;
  const keyed = Object.values(FAILURE_LIMITS[kind] as Record<string, FailureLimit>).flatMap((rule) => {
    const key = keyOf(kind, rule, account, address);
    return key === null ? [] : [{ rule, key }];
  });
  // Every limit is checked before any is counted, so a refused guess spends nothing; a limit that
  // failures reached refuses even when another only waits on guesses in flight.
  let fullInFlight: string | null = null;
  for (const { rule, key } of keyed) {
    const count = counter.count(key, now);
    if (count < rule.failures) continue;
    if (rule.exceptKnownAddresses && address !== undefined && known.has(account, address, now)) continue;
    if (count - counter.pending(key, now) >= rule.failures)
      throw tooMany(rule.message, counter.remainingMs(key, now) / 1000);
    fullInFlight ??= key;
  }
  if (fullInFlight !== null) return fullInFlight;
  const taken = keyed.map(({ key, rule }) => ({ key, bucket: counter.take(key, now, rule.windowMs) }));
  for (const { bucket } of taken) bucket.pending = (bucket.pending ?? 0) + 1;
  let settled = false;
  const settle = (keepCount: boolean) => {
    if (settled) return;
    settled = true;
    for (const { key, bucket } of taken) {
      if (bucket.pending) bucket.pending--;
      if (!keepCount) WindowCounter.giveBack(bucket);
      // Whoever waited on this limit is judged again, now that this guess is known.
      const waiting = state.waiters.get(key);
      if (waiting) {
        state.waiters.delete(key);
        for (const wake of waiting) wake();
      }
    }
  };
  return {
    fail: () => settle(true),
    release: () => settle(false),
  };
}

/**
 * The caller's address signed in to the account (or proved its mailbox with a reset code): the
 * per-account sign-in ceiling does not refuse it for 30 days.
 */
export function rememberAddress(ctx: LimitCtx, account: string, caller: Caller | undefined): void {
  if (!caller) return;
  stateOf(ctx).known.remember(accountOf(account), caller.ip, ctx.clock.now());
}
