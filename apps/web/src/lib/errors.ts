/**
 * Reading errors the same way in both client modes: `message` and `data.httpStatus`, and what kind
 * of failure it was, so every call shows the server's words or the spec's fallback (§8).
 */
import { TRPCClientError } from '@trpc/client';
import { MSG } from '@md/shared';
import { RequestTimeoutError } from './timeout-fetch.ts';

interface ErrorWithData {
  message?: unknown;
  data?: { httpStatus?: unknown } | null;
}

export function httpStatusOf(error: unknown): number | undefined {
  const status = (error as ErrorWithData | null)?.data?.httpStatus;
  return typeof status === 'number' ? status : undefined;
}

/**
 * The cause the provider link gives a failure the server answered without words of its own (an
 * HTTP error with no `Error`, an empty or unreadable body), so its own text ('Request failed (HTTP
 * 500)', 'Invalid response') stays in logs but is never shown in place of the spec's fallback.
 */
export class NoServerTextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoServerTextError';
  }
}

/**
 * What went wrong with a call:
 * - `server`: the server answered a failure in words (its `Error`), shown as is;
 * - `timeout`: no answer within the deadline (MSG.requestTimedOut);
 * - `unreadable`: the server answered, but with no words (status only, empty, broken or unexpected body);
 * - `no-answer`: the connection failed or was dropped;
 * - `app`: an Error the app raised itself with a message meant for the member (e.g. profile not found).
 */
export type FailureKind = 'server' | 'timeout' | 'unreadable' | 'no-answer' | 'app';

// Texts of transport failures that carry no provider words (browsers and jsdom word them differently).
const NO_ANSWER_TEXT = /failed to fetch|networkerror|network error|load failed|fetch failed|aborted/i;
const UNREADABLE_TEXT = /unexpected token|unexpected end|json|unable to transform|missing result/i;

/** The HTTP reason phrases of server failures (RFC 9110 §15.6), as the provider or a proxy may word them. */
const SERVER_FAILURE_PHRASES: ReadonlySet<string> = new Set(
  [
    'Internal Server Error',
    'Not Implemented',
    'Bad Gateway',
    'Service Unavailable',
    'Gateway Timeout',
    'HTTP Version Not Supported',
  ].map((phrase) => phrase.toLowerCase()),
);

export function failureKind(error: unknown): FailureKind {
  if (!(error instanceof Error)) return 'unreadable';
  const cause = error.cause;
  if (
    error instanceof RequestTimeoutError ||
    cause instanceof RequestTimeoutError ||
    error.message === MSG.requestTimedOut
  )
    return 'timeout';
  if (cause instanceof NoServerTextError) return 'unreadable';
  if (error instanceof TRPCClientError) {
    // Provider link: status 0 is a request that got no answer; tRPC link: fetch's TypeError.
    if (
      httpStatusOf(error) === 0 ||
      cause instanceof TypeError ||
      (cause as Error | undefined)?.name === 'AbortError'
    )
      return 'no-answer';
    if (cause instanceof SyntaxError) return 'unreadable';
    const message = error.message.trim();
    if (!message) return 'unreadable';
    // A server failure whose only words are its status line ('Internal Server Error') says nothing
    // a member can act on: the call's own fallback says more ('Failed to check TOTP status').
    if (SERVER_FAILURE_PHRASES.has(message.toLowerCase()) && (httpStatusOf(error) ?? 500) >= 500)
      return 'unreadable';
    // An error the server formatted (tRPC shape or provider { Error }) carries its words.
    if (error.shape || error.data) return 'server';
    if (NO_ANSWER_TEXT.test(message)) return 'no-answer';
    return 'unreadable';
  }
  // Not from a call: the language's own errors are bugs or transport failures, never member text.
  if (error instanceof TypeError) return NO_ANSWER_TEXT.test(error.message) ? 'no-answer' : 'unreadable';
  if (error instanceof SyntaxError || error instanceof RangeError || error instanceof ReferenceError)
    return 'unreadable';
  const message = error.message.trim();
  if (!message || UNREADABLE_TEXT.test(message)) return 'unreadable';
  return 'app';
}

/**
 * The message to show for a failed call: the server's text when it gave one, MSG.requestTimedOut
 * after the deadline, otherwise the spec's fallback. `noAnswer` is the message for a call that got
 * no answer at all (connection failed or dropped), where the spec has a second one for the call
 * (e.g. 'Error verifying recipient' beside 'Failed to verify user'); it defaults to the fallback.
 */
export function errorMessage(error: unknown, fallback: string, noAnswer: string = fallback): string {
  switch (failureKind(error)) {
    case 'server':
    case 'app':
      return (error as Error).message.trim();
    case 'timeout':
      return MSG.requestTimedOut;
    case 'no-answer':
      return noAnswer;
    case 'unreadable':
      return fallback;
  }
}

/** What a gateway answers when the server behind it is down or restarting (RFC 9110 §15.6). */
const UNREACHABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * The server could not be reached: no answer at all (offline, connection refused or dropped), or a
 * gateway's 502, 503 or 504 without the server's own words. Not a timeout: the server was reached.
 */
export function isServerUnreachable(error: unknown): boolean {
  const kind = failureKind(error);
  if (kind === 'no-answer') return true;
  return kind === 'unreadable' && UNREACHABLE_STATUSES.has(httpStatusOf(error) ?? 0);
}
