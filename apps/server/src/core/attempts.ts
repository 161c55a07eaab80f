/**
 * Fixed-window counters on the injectable clock (QA's clock moves them, tests never sleep), and
 * the brute-force limits built on them: failed sign-ins and wrong codes counted per account
 * (whatever address they come from) and per client address (whatever account they aim at).
 * In memory, per server: a restart forgets them, which only ever loosens a limit once.
 */
import { createHash } from 'node:crypto';
import { tooMany } from './errors.ts';
import type { Caller, Services } from './services.ts';

const MINUTE = 60_000;

interface Bucket {
  count: number;
  /** When the window that started with the first hit ends. */
  until: number;
}

/** Keys carry what the client sent (a username may be 60 KB): long ones are stored as their hash. */
const compactKey = (key: string) => (key.length > 128 ? `#${createHash('sha256').update(key).digest('base64url')}` : key);

/**
 * Buckets of one server, bounded so hostile keys cannot fill memory: expired buckets are swept once
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
    return bucket && now < bucket.until ? bucket.count : 0;
  }

  /** Counts one hit and answers the count including it. */
  hit(key: string, now: number, windowMs: number): number {
    const stored = compactKey(key);
    const bucket = this.buckets.get(stored);
    if (bucket && now < bucket.until) return ++bucket.count;
    // Deleted first so the Map's order stays the order windows started in (oldest first).
    this.buckets.delete(stored);
    this.buckets.set(stored, { count: 1, until: now + windowMs });
    if (this.buckets.size >= this.sweepAt) this.sweep(now);
    return 1;
  }

  get size() {
    return this.buckets.size;
  }

  private sweep(now: number) {
    for (const [key, bucket] of this.buckets) if (now >= bucket.until) this.buckets.delete(key);
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

/** One counter set per server; handler contexts are copies of the services, the connection is not. */
const counters = new WeakMap<object, WindowCounter>();
export function counterOf(services: Pick<Services, 'sqlite'>): WindowCounter {
  let counter = counters.get(services.sqlite);
  if (!counter) counters.set(services.sqlite, (counter = new WindowCounter()));
  return counter;
}

export interface FailureLimit {
  /** Failures allowed inside the window; the next attempt is refused with 429. */
  failures: number;
  windowMs: number;
  message: string;
}

/** What each kind of guess may fail, per account and per client (README "Security" lists them). */
export const FAILURE_LIMITS = {
  login: {
    account: { failures: 10, windowMs: 15 * MINUTE, message: 'Too many failed sign-in attempts for this account. Try again in 15 minutes.' },
    client: { failures: 30, windowMs: 15 * MINUTE, message: 'Too many failed sign-in attempts. Try again in 15 minutes.' },
  },
  transactionPassword: {
    account: { failures: 10, windowMs: 15 * MINUTE, message: 'Too many wrong transaction passwords. Try again in 15 minutes.' },
    client: { failures: 30, windowMs: 15 * MINUTE, message: 'Too many wrong transaction passwords. Try again in 15 minutes.' },
  },
  code: {
    account: { failures: 10, windowMs: 60 * MINUTE, message: 'Too many wrong codes for this account. Try again in an hour.' },
    client: { failures: 30, windowMs: 15 * MINUTE, message: 'Too many wrong codes. Try again in 15 minutes.' },
  },
} as const satisfies Record<string, { account: FailureLimit; client: FailureLimit }>;

export type GuessKind = keyof typeof FAILURE_LIMITS;

export interface GuessKeys {
  /** Username (or the email of a registration): case and surrounding spaces do not make a new account. */
  account: string;
  /** Absent for internal calls (seed, QA), which have no client. */
  caller?: Caller | undefined;
}

type LimitCtx = Pick<Services, 'sqlite' | 'clock' | 'config'>;

const keysOf = (kind: GuessKind, keys: GuessKeys) => ({
  account: `${kind}|account|${keys.account.trim().toLowerCase()}`,
  client: keys.caller ? `${kind}|client|${keys.caller.ip}` : null,
});

/** Refuses with 429 before any check is made when the account or the client used up its failures. */
export function assertGuessAllowed(ctx: LimitCtx, kind: GuessKind, keys: GuessKeys): void {
  if (ctx.config.rateLimits === false) return;
  const counter = counterOf(ctx);
  const now = ctx.clock.now();
  const { account, client } = keysOf(kind, keys);
  const limits = FAILURE_LIMITS[kind];
  if (counter.count(account, now) >= limits.account.failures) throw tooMany(limits.account.message);
  if (client && counter.count(client, now) >= limits.client.failures) throw tooMany(limits.client.message);
}

/** Counts a failed guess against the account and the client. */
export function recordFailedGuess(ctx: LimitCtx, kind: GuessKind, keys: GuessKeys): void {
  if (ctx.config.rateLimits === false) return;
  const counter = counterOf(ctx);
  const now = ctx.clock.now();
  const { account, client } = keysOf(kind, keys);
  const limits = FAILURE_LIMITS[kind];
  counter.hit(account, now, limits.account.windowMs);
  if (client) counter.hit(client, now, limits.client.windowMs);
}
