/**
 * Idempotency keys of money moves (DESIGN §11; docs/decisions/money-and-ledger.md, "Keys are stored
 * with the move"), after Stripe and the IETF draft "The Idempotency-Key HTTP Header Field":
 * - a money move (a contract entry marked `idempotent`) may carry an Idempotency-Key header, scoped
 *   to the token's member;
 * - the move's answer is written with the key, the call's fingerprint (procedure and parameters) and
 *   the time in the move's own transaction (`moneyAnswer` in modules/ledger), so no crash can leave a
 *   move without its answer or an answer without its move;
 * - the same key with the same parameters is answered from the store, marked `Idempotent-Replayed:
 *   true`, and moves nothing; with other parameters it is refused (422); while the first call is
 *   still running a second one is refused (409) and runs nothing;
 * - refusals (insufficient balance, a wrong password) move nothing and are not stored: a retry runs
 *   again. Answers are kept IDEMPOTENCY_RETENTION_MS on the server clock.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_RETENTION_MS } from '@md/shared';
import { AppError, badRequest } from './errors.ts';
import { prepared } from './prepared.ts';

export const IDEMPOTENCY_MESSAGES = {
  malformed: `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`,
  inFlight: `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry once it has been answered`,
  mismatch: `This ${IDEMPOTENCY_KEY_HEADER} was already used with other parameters; send a new key for a new request`,
} as const;

const KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/** The header's key, or undefined without one; a malformed key is refused before anything runs. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(',') : header.trim();
  if (!KEY_PATTERN.test(key)) throw badRequest(IDEMPOTENCY_MESSAGES.malformed);
  return key;
}

/** A keyed money call while it runs: the outermost `moneyAnswer` records its answer and sets `recorded`. */
export interface IdempotencyClaim {
  memberId: number;
  key: string;
  procedure: string;
  fingerprint: string;
  recorded: boolean;
}

/** The procedure and its parameters as parsed (the body token left out, the key order the schema's). */
export const fingerprintOf = (procedure: string, parameters: unknown) =>
  createHash('sha256').update(procedure).update('\n').update(JSON.stringify(parameters)).digest('base64url');

export interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: unknown;
}

/** The answer stored under the member's key, unless none or older than the retention. */
export function storedAnswer(
  sqlite: Database.Database,
  memberId: number,
  key: string,
  now: number,
): StoredAnswer | undefined {
  const row = prepared(
    sqlite,
    'select fingerprint, status, body from idempotency_keys where member_id = ? and key = ? and created_at > ?',
  ).get(memberId, key, now - IDEMPOTENCY_RETENTION_MS) as
    { fingerprint: string; status: number; body: string } | undefined;
  return row && { fingerprint: row.fingerprint, status: row.status, body: JSON.parse(row.body) };
}

/** The stored answer when its fingerprint is the claim's; a 422 when the key was used for other parameters. */
export function replayOf(stored: StoredAnswer, fingerprint: string): StoredAnswer {
  if (stored.fingerprint !== fingerprint) throw new AppError(422, IDEMPOTENCY_MESSAGES.mismatch);
  return stored;
}

/**
 * Writes the claim's answer (inside the caller's transaction) and prunes answers past the
 * retention, which the created_at index finds without a scan. A row of an expired key is replaced.
 */
export function recordAnswer(
  sqlite: Database.Database,
  claim: IdempotencyClaim,
  status: number,
  body: unknown,
  now: number,
) {
  prepared(sqlite, 'delete from idempotency_keys where created_at <= ?').run(now - IDEMPOTENCY_RETENTION_MS);
  prepared(
    sqlite,
    'insert or replace into idempotency_keys (member_id, key, procedure, fingerprint, status, body, created_at) values (?, ?, ?, ?, ?, ?, ?)',
  ).run(claim.memberId, claim.key, claim.procedure, claim.fingerprint, status, JSON.stringify(body), now);
  claim.recorded = true;
}

/**
 * The keys of calls running now, per world (Services.inFlightKeys): a second call with a running
 * key is refused at once. Node runs one call's synchronous part at a time, so check-and-add is atomic.
 */
export function enterFlight(inFlight: Set<string>, memberId: number, key: string): () => void {
  const id = `${memberId}\n${key}`;
  if (inFlight.has(id)) throw new AppError(409, IDEMPOTENCY_MESSAGES.inFlight);
  inFlight.add(id);
  return () => inFlight.delete(id);
}
