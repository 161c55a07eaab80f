/**
 * Provider mode (DESIGN §4): each tRPC operation becomes the provider's REST call, looked up in the
 * shared contract. Success data is the whole envelope (as in mock mode); failures become a
 * TRPCClientError with the provider's message and `data.httpStatus`, so features read errors the
 * same way in both modes.
 */
import { TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import {
  defaultErrorCode,
  IDEMPOTENCY_KEY_HEADER,
  isErrorCode,
  trpcCodeOf,
  type ContractRouter as AppRouter,
  type ProcedureName,
  type RuntimeConfig,
} from '@md/shared';
import { NoServerTextError } from './errors.ts';
import { idempotencyKeyOf } from './money-move.ts';

export interface ProviderLinkOptions {
  config: Pick<RuntimeConfig, 'apiBaseUrl' | 'depositBaseUrl'>;
  getToken: () => string | null;
  fetch?: typeof fetch;
}

/**
 * A TRPCClientError shaped like the ones /trpc produces: message, data.httpStatus and data.Code
 * (also on shape.data); the code is the body's `Code` when the server sent a known one.
 */
export function providerError(
  message: string,
  httpStatus: number,
  path: string,
  cause?: Error,
  sentCode?: unknown,
) {
  const code = trpcCodeOf(httpStatus);
  const data = {
    code,
    httpStatus,
    path,
    Code: isErrorCode(sentCode) ? sentCode : defaultErrorCode(httpStatus),
  };
  return new TRPCClientError<AppRouter>(message, {
    result: { error: { message, code: TRPC_ERROR_CODES_BY_KEY[code], data } },
    ...(cause ? { cause } : {}),
  });
}

/** The failure text of a provider body: Error, or lowercase error, or message (spec §8). */
function failureText(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['Error', 'error', 'message']) {
    const value = record[key];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

/**
 * Mock mode's counterpart of the provider link's envelope reading: a success payload that carries
 * `Error` (or `error`) is a failure, as the provider may answer one with HTTP 200. The server here
 * never does so on /trpc, but a QA body rule can, and both modes must read it alike.
 */
export function envelopeLink(): TRPCLink<AppRouter> {
  return () =>
    ({ next, op }) =>
      observable((observer) =>
        next(op).subscribe({
          next: (value) => {
            const data: unknown = value.result.type === 'data' ? value.result.data : undefined;
            if (data !== null && typeof data === 'object' && ('Error' in data || 'error' in data)) {
              const failure = failureText(data);
              observer.error(
                failure
                  ? providerError(failure, 400, op.path)
                  : providerError(
                      'Invalid response',
                      400,
                      op.path,
                      new NoServerTextError('Invalid response'),
                    ),
              );
              return;
            }
            observer.next(value);
          },
          complete: () => observer.complete(),
          error: (error) => observer.error(error),
        }),
      );
}

/**
 * The contract (every endpoint with its schemas) is needed in provider mode only: it loads with
 * the first call instead of with the app, which keeps it off the sign-in route in mock mode.
 */
const loadContract = () => import('@md/shared/contract').then((module) => module.contract);

export function providerLink({
  config,
  getToken,
  fetch: fetchImpl,
}: ProviderLinkOptions): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        const controller = new AbortController();
        loadContract()
          .then((contract) => {
            const entry = contract[op.path as ProcedureName];
            if (!entry) {
              observer.error(providerError(`Unknown procedure: ${op.path}`, 404, op.path));
              return;
            }
            const baseUrl = entry.host === 'deposit' ? config.depositBaseUrl : config.apiBaseUrl;
            const token = getToken();
            const input =
              op.input && typeof op.input === 'object' ? (op.input as Record<string, unknown>) : {};
            const body = token && entry.tokenField ? { ...input, [entry.tokenField]: token } : input;
            const headers: Record<string, string> = {
              'Content-Type': 'application/json',
              Accept: 'application/json',
            };
            if (token) headers.Authorization = `Bearer ${token}`;
            const key = idempotencyKeyOf(op);
            if (key) headers[IDEMPOTENCY_KEY_HEADER] = key;

            return (fetchImpl ?? globalThis.fetch)(`${baseUrl}${entry.path}`, {
              method: 'POST',
              headers,
              body: JSON.stringify(body),
              signal: op.signal ?? controller.signal,
            }).then(async (response) => {
              let parsed: unknown;
              try {
                parsed = await response.json();
              } catch {
                parsed = undefined;
              }
              const failure = failureText(parsed);
              const hasError =
                parsed !== null && typeof parsed === 'object' && ('Error' in parsed || 'error' in parsed);
              if (!response.ok || hasError) {
                const status = response.ok ? 400 : response.status;
                if (failure)
                  observer.error(
                    providerError(failure, status, op.path, undefined, (parsed as { Code?: unknown }).Code),
                  );
                else {
                  // No words from the server: the caller shows the spec's fallback, this text is for logs.
                  const text = `Request failed (HTTP ${response.status})`;
                  observer.error(providerError(text, status, op.path, new NoServerTextError(text)));
                }
                return;
              }
              if (parsed === undefined) {
                observer.error(
                  providerError(
                    'Invalid response',
                    response.status,
                    op.path,
                    new NoServerTextError('Invalid response'),
                  ),
                );
                return;
              }
              observer.next({ result: { type: 'data', data: parsed } });
              observer.complete();
            });
          })
          .catch((error: unknown) => {
            const cause = error instanceof Error ? error : undefined;
            observer.error(providerError(cause?.message ?? 'Network error', 0, op.path, cause));
          });
        return () => controller.abort();
      });
}
