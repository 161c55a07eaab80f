/**
 * Money moves that survive a lost answer (DESIGN §11). A member on a phone can lose the connection
 * after the server took a purchase and before its answer arrived; buying again would pay twice.
 * - With the server's `idempotency_keys` capability, each confirmed intent gets a key; a call whose
 *   answer was lost (no answer, a timeout, a gateway's 502/503/504) or that is still running at the server
 *   (409) is sent again with the same key, with backoff, a bounded number of times. The server
 *   answers a key it has seen with its first answer and moves nothing, so the member learns the
 *   truth: it went through, or it was refused and nothing was charged.
 * - Without the capability a money move is never sent twice: the member is told plainly that the
 *   outcome is unknown and where to look before trying again.
 * Money moves are never queued for later: the member always sees an outcome now.
 */
import type { Operation } from '@trpc/client';
import { failureKind, httpStatusOf, isServerUnreachable } from './errors.ts';

/** Pauses before each resend: the first comes quickly, the last ~7.5 s after the loss. */
export const RESEND_DELAYS_MS: readonly number[] = [500, 1_000, 2_000, 4_000];

/**
 * The English of the money-move toasts, for the browser suite that waits for them (e2e). The
 * toasts themselves say the catalog's app.moneyMove.* in the member's language; a test checks
 * the English of both agrees.
 */
export const MONEY_MOVE_MESSAGES = {
  checking: (action: string) => `We couldn't confirm your ${action} yet — checking…`,
  wentThrough: (action: string) => `Your ${action} went through`,
  didNotGoThrough: (reason: string) => `It did not go through, nothing was charged. ${reason}`,
  unknown: (action: string) =>
    `We couldn't confirm whether your ${action} went through. Check Transactions before you try again.`,
} as const;

/** The operation context that carries a money move's key to the links (trpc.ts, provider-link.ts). */
export const keyedContext = (key: string | undefined) => (key ? { context: { idempotencyKey: key } } : {});

/** The key an operation carries, if it is a keyed money move. */
export function idempotencyKeyOf(op: Pick<Operation, 'context'>): string | undefined {
  const key = op.context.idempotencyKey;
  return typeof key === 'string' && key ? key : undefined;
}

/**
 * The server may have done it and the answer got lost: no answer, a timeout, or a gateway's
 * 502/503/504. A 500 is the server's own failure, whose transaction rolled back: nothing moved.
 */
export const isLostAnswer = (error: unknown) =>
  failureKind(error) === 'timeout' || isServerUnreachable(error);

/** The key's first call is still running at the server. */
const isStillRunning = (error: unknown) => failureKind(error) === 'server' && httpStatusOf(error) === 409;

export type MoneyMoveOutcome<T> =
  /** `recovered`: the first answer was lost and a resend learned it went through. */
  | { status: 'done'; answer: T; recovered: boolean }
  | { status: 'refused'; error: unknown; recovered: boolean }
  /** Still no answer after the resends, or no key to resend with: it may or may not have happened. */
  | { status: 'unknown'; error: unknown };

export interface MoneyMoveOptions {
  /** The server honours Idempotency-Key (its `idempotency_keys` capability). */
  keyed: boolean;
  /** The first answer was lost and resends begin: say so while they run. */
  onChecking?: () => void;
  delaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  newKey?: () => string;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends one money move: `send` makes the call with the key it is given (undefined without the
 * capability). Answers what became of it; never sends it twice without a key.
 */
export async function sendMoneyMove<T>(
  send: (key: string | undefined) => Promise<T>,
  {
    keyed,
    onChecking,
    delaysMs = RESEND_DELAYS_MS,
    sleep = wait,
    newKey = () => crypto.randomUUID(),
  }: MoneyMoveOptions,
): Promise<MoneyMoveOutcome<T>> {
  const key = keyed ? newKey() : undefined;
  let lastError: unknown;
  try {
    return { status: 'done', answer: await send(key), recovered: false };
  } catch (error) {
    if (!isLostAnswer(error) && !(keyed && isStillRunning(error)))
      return { status: 'refused', error, recovered: false };
    if (!keyed) return { status: 'unknown', error };
    lastError = error;
  }
  onChecking?.();
  for (const delay of delaysMs) {
    await sleep(delay);
    try {
      return { status: 'done', answer: await send(key), recovered: true };
    } catch (error) {
      if (!isLostAnswer(error) && !isStillRunning(error))
        return { status: 'refused', error, recovered: true };
      lastError = error;
    }
  }
  return { status: 'unknown', error: lastError };
}
