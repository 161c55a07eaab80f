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
