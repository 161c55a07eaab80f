/** A refusal with an HTTP status and the provider's `Error` message; both transports render it. */
import { defaultErrorCode, type ErrorCode } from '@md/shared';

export interface ErrorDetails {
  /** The stable code beside the message (ERROR_CODES); the status's own when not given. */
  code?: ErrorCode;
  /** A 429 or 503: when to come back, sent as Retry-After. */
  retryAfterSeconds?: number;
}

export class AppError extends Error {
  public readonly code: ErrorCode;
  public readonly retryAfterSeconds: number | undefined;
  constructor(
    public readonly status: number,
    message: string,
    details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = details.code ?? defaultErrorCode(status);
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}
export const badRequest = (message: string, code?: ErrorCode) => new AppError(400, message, { code });
export const unauthorized = (message: string, code?: ErrorCode) => new AppError(401, message, { code });
export const forbidden = (message: string) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const tooMany = (message: string, retryAfterSeconds: number, code?: ErrorCode) =>
  new AppError(429, message, { code, retryAfterSeconds });

export const NOT_FOUND_MESSAGE = 'Not found';

/** Seconds a client waits before trying again when the cause gives no time of its own (a busy queue, a storage fault). */
export const RETRY_SOON_SECONDS = 1;

/** An error answer's body: the provider's `{ Error }` and this server's stable `Code`. */
export const errorBody = (status: number, message: string, code: ErrorCode = defaultErrorCode(status)) => ({
  Error: message,
  Code: code,
});

interface ErrorReply {
  code(status: number): ErrorReply;
  header(name: string, value: string): ErrorReply;
  send(payload: unknown): unknown;
}

/** The Retry-After of an error answer: whole seconds, on a 429 or 503 always, else when the cause gave a time. */
export function retryAfterOf(status: number, details: ErrorDetails = {}): string | undefined {
  const seconds =
    details.retryAfterSeconds ?? (status === 429 || status === 503 ? RETRY_SOON_SECONDS : undefined);
  return seconds === undefined ? undefined : String(Math.max(1, Math.ceil(seconds)));
}

/** Answers an error: its status, Retry-After on a 429 or 503, and the body with its code. */
export function sendError(reply: ErrorReply, status: number, message: string, details: ErrorDetails = {}) {
  const retryAfter = retryAfterOf(status, details);
  if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
  return reply.code(status).send(errorBody(status, message, details.code));
}

/** A handler's answer that breaks the contract's output schema: a server bug, logged and answered 500. */
export class ContractError extends AppError {
  constructor(message: string) {
    super(500, message);
    this.name = 'ContractError';
  }
}

/**
 * Every 5xx is logged with its cause: the error with its stack, the route and the
 * request id (the request's logger carries it). The request is remembered, so the closing hook in
 * app.ts logs only the 5xx answers nobody explained (a QA fault's raw answer, say).
 */
interface LoggableRequest {
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  url: string;
  routeOptions?: { url?: string | undefined };
}
const explained = new WeakSet<object>();

export const routeOf = (request: LoggableRequest) =>
  request.routeOptions?.url ?? request.url.split('?', 1)[0];

export function logServerError(
  request: LoggableRequest,
  error: unknown,
  message: string,
  fields: Record<string, unknown> = {},
  level: 'error' | 'warn' = 'error',
) {
  explained.add(request);
  request.log[level]({ err: error, route: routeOf(request), ...fields }, message);
}

export const serverErrorLogged = (request: object) => explained.has(request);
/** A 5xx whose answer says why (/readyz): no line per answer. */
export const markExplained = (request: object) => void explained.add(request);
