/** HTTP status ↔ tRPC error code, one table for the server's router and the client's provider link. */
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';

const CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  // An Idempotency-Key sent again with other parameters.
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  501: 'NOT_IMPLEMENTED',
  // The gateway's answers for a provider that cannot be reached or answers nothing readable (502) and one too slow (504).
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

export const trpcCodeOf = (status: number): TRPC_ERROR_CODE_KEY =>
  CODE_BY_STATUS[status] ?? 'INTERNAL_SERVER_ERROR';

/**
 * The stable `Code` beside the provider's `Error` text in every error body this server makes (an
 * extension: the provider answers `Error` alone). Clients branch on the code, never on the words,
 * which may be reworded or translated. Each code with the status it comes with and what it means.
 */
export const ERROR_CODES = {
  INVALID_INPUT: [400, 'A field breaks a rule of the call; Error names the field or the rule'],
  UNKNOWN_FIELD: [400, 'The body has a field the call does not take; Error names it'],
  INVALID_JSON: [400, 'The body is not readable JSON'],
  INSUFFICIENT_BALANCE: [400, 'The wallet holds less than the move needs; nothing moved'],
  TOTP_REQUIRED: [400, 'The account has two-factor sign-in on: send the authenticator code too'],
  INVALID_CODE: [400, 'A one-time or authenticator code is wrong or expired'],
  INVALID_CREDENTIALS: [400, 'Wrong username, password or transaction password'],
  INVALID_AUTHENTICATION: [401, 'No session token, or one this server did not sign: sign in'],
  SESSION_EXPIRED: [401, 'The session token expired or its session was ended: sign in again'],
  FORBIDDEN: [403, 'The action is refused for this member or client'],
  NOT_FOUND: [404, 'The record, member or route is not there, or not the caller’s to see'],
  METHOD_NOT_ALLOWED: [405, 'The path takes another method: the Allow header names it'],
  CONFLICT: [
    409,
    'The record is no longer in a state that allows this, or the same Idempotency-Key is still running',
  ],
  PAYLOAD_TOO_LARGE: [413, 'The body is larger than the call takes; nothing was read'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'The body is not sent as application/json'],
  IDEMPOTENCY_KEY_REUSED: [422, 'The Idempotency-Key was used before with other parameters; nothing ran'],
  RATE_LIMITED: [429, 'Too many calls or failed attempts: wait the Retry-After seconds'],
  SERVER_BUSY: [429, 'The server is busy hashing passwords: retry after Retry-After seconds'],
  INTERNAL_ERROR: [500, 'A fault of the server; the X-Request-Id names its log line'],
  NOT_IMPLEMENTED: [501, 'This server does not implement the call'],
  BAD_GATEWAY: [502, 'The provider behind the gateway could not be reached or gave nothing readable'],
  SERVICE_UNAVAILABLE: [
    503,
    'The server cannot read or save data right now; retry after Retry-After seconds',
  ],
  GATEWAY_TIMEOUT: [504, 'The provider behind the gateway was too slow'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const errorCodes = Object.keys(ERROR_CODES) as ErrorCode[];
export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);

const DEFAULT_CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_INPUT',
  401: 'INVALID_AUTHENTICATION',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'IDEMPOTENCY_KEY_REUSED',
  429: 'RATE_LIMITED',
  501: 'NOT_IMPLEMENTED',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** The code of an error answer that names none more precisely. */
export const defaultErrorCode = (status: number): ErrorCode =>
  DEFAULT_CODE_BY_STATUS[status] ?? 'INTERNAL_ERROR';
