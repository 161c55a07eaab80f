/** A refusal with an HTTP status and the provider's `Error` message; both transports render it. */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}
export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message: string) => new AppError(401, message);
export const forbidden = (message: string) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const tooMany = (message: string) => new AppError(429, message);

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
