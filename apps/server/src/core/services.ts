/** What every handler gets: the database, the clock, the mailer, tokens and the server config. */
import type Database from 'better-sqlite3';
import type { Db, members } from '@md/db';
import type { Plan } from '@md/shared';
import type { Clock } from './clock.ts';
import type { GroupCommit } from './group-commit.ts';
import type { IdempotencyClaim } from './idempotency.ts';
import type { Jobs } from './jobs.ts';
import type { Mailer } from './mailer.ts';
import type { StorageMonitor } from './storage.ts';

export type Member = typeof members.$inferSelect;

export interface ServerConfig {
  /** Check every answer against the contract's output schema (on in development and tests). */
  validateOutput: boolean;
  qaControl: boolean;
  /** Seconds after which a deposit window is paid by itself (local demo). */
  demoAutopaySeconds?: number;
  /** Public origin used in registration links and mails. */
  publicUrl: string;
  /** Announced to the web app in /config.json: how long a call may go unanswered. */
  requestTimeoutMs: number;
  /** Keep the answers of the pure reads (tables, profile) until the next database write; on unless false. */
  readCache?: boolean;
  /** Rate limits on the sensitive endpoints (off only in load benchmarks). */
  rateLimits: boolean;
  /** HMAC key of the ALTCHA captcha (random per process unless given). */
  captchaHmacKey: string;
  /** Work of a captcha challenge: the solver tries up to this many numbers. */
  captchaMaxNumber: number;
  /**
   * Web Push (modules/push): also accept push endpoints on loopback (127.0.0.0/8, ::1, localhost)
   * and over plain http, for a push service on this machine. Honoured only while QA control is on;
   * otherwise an endpoint must be https to a public host.
   */
  pushLoopback?: boolean;
}

export interface TokenService {
  /** A token for a new session of the member, recording the caller's device and address. */
  sign(member: Pick<Member, 'id' | 'username' | 'tokenVersion'>, caller?: Caller): string;
  /**
   * The member and session of a valid token; throws 401 'Invalid Authentication' or 'Session
   * Expired'. With the caller, the session's last-seen time and address are kept (once a minute).
   */
  authenticate(token: string, caller?: Caller): { member: Member; sessionId: string };
  /** The member of a valid token (authenticate without the bookkeeping). */
  verify(token: string): Member;
  /**
   * Writes the sessions' last-seen times that wait to be written (authenticate keeps them a
   * moment): inside the caller's transaction when one is open, else in one of their own.
   */
  flushLastSeen(): void;
}

export interface Services {
  db: Db;
  sqlite: Database.Database;
  clock: Clock;
  mailer: Mailer;
  tokens: TokenService;
  config: ServerConfig;
  /** Package tiers and the withdrawal fee (defaults, or PLAN_FILE). */
  plan: Plan;
  /** Watches the database files (core/storage.ts); absent where nothing serves requests (a worker, a script). */
  storage?: StorageMonitor;
  /** Answers wait on it until earlier commits are on disk (core/group-commit.ts); absent in memory and outside the server. */
  groupCommit?: GroupCommit;
  /** Turns at the write lock with the daily runs' worker (engine/runner.ts); absent when the runs run in process. */
  writeTurns?: WriteTurns;
  /** The Idempotency-Keys of the money calls running now, `member\nkey` (core/idempotency.ts). */
  inFlightKeys: Set<string>;
  /** The server's long operations (core/jobs.ts): one registry, shared by every world's Services. */
  jobs: Jobs;
}

/**
 * Turns at the write lock between this thread and another connection of the process (the daily
 * runs' worker). A call that writes takes a turn before it runs: while the other connection holds
 * the lock, `take` answers a promise that settles when it lets go (the thread answers reads
 * meanwhile, instead of sleeping in SQLite's busy wait), and the other waits for `release`, given
 * back once the call's synchronous part (its transaction, in most handlers) is done.
 */
export interface WriteTurns {
  take(): Promise<void> | undefined;
  release(): void;
  /** The other connection holds the lock now: bookkeeping that can wait (a session's last-seen) skips a turn. */
  held(): boolean;
}

/** Who is calling: the transport fills this from the HTTP request. */
export interface Caller {
  ip: string;
  authorization?: string | undefined;
  /** The User-Agent header: a sign-in records it as the session's device. */
  userAgent?: string | undefined;
  /** The Idempotency-Key header of a money move (core/idempotency.ts). */
  idempotencyKey?: string | undefined;
}

export interface Ctx extends Services {
  caller: Caller;
  member: Member | null;
  /** The session of the call's token (its `jti`), null without one. */
  sessionId?: string | null;
  /** A money move with an Idempotency-Key: `moneyAnswer` (modules/ledger) stores its answer with the key. */
  idempotency?: IdempotencyClaim;
  /** Marks the answer as the replay of an earlier one (the Idempotent-Replayed header). */
  replayed?: () => void;
}
export interface AuthedCtx extends Ctx {
  member: Member;
}
