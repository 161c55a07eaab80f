/** The tRPC client: batched calls to /trpc in mock mode, the providerLink in provider mode (DESIGN §4). */
import {
  createTRPCClient,
  httpBatchLink,
  httpLink,
  splitLink,
  TRPCClientError,
  type Operation,
  type TRPCLink,
} from '@trpc/client';
import { observable, type Unsubscribable } from '@trpc/server/observable';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { IDEMPOTENCY_KEY_HEADER, type ContractRouter as AppRouter, type RuntimeConfig } from '@md/shared';
import { idempotencyKeyOf } from './money-move.ts';
import { envelopeLink, providerLink } from './provider-link.ts';
import { sessionLink } from './session-link.ts';
import { fetchWithTimeout } from './timeout-fetch.ts';
import { worldFetch } from './world.ts';
import { getJwt } from './storage.ts';

export type { AppRouter };
/** Long batches split rather than exceed what proxies accept in a GET URL. */
export const MAX_BATCH_URL_LENGTH = 4000;
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export interface ClientOptions {
  getToken?: () => string | null;
  onUnauthorized: () => void;
  fetch?: typeof fetch;
}

/**
 * A paged read (spec §7: its input carries the page size): the tables and the notification list,
 * which all fail silently (§8). They ride a batch of their own, so one that hangs cannot take a
 * call that speaks up (the package list, the profile) down to a timeout toast with it.
 */
export function isTableCall(op: Pick<Operation, 'input'>): boolean {
  const input = op.input;
  return (
    input !== null &&
    typeof input === 'object' &&
    typeof (input as { pageSize?: unknown }).pageSize === 'number'
  );
}

/** A batch whose answer could not be read as a whole (cut-off or empty JSON): no procedure's own answer came back. */
const isUnreadableBatch = (error: unknown) =>
  error instanceof TRPCClientError && !error.shape && error.cause instanceof SyntaxError;

/**
 * One bad answer in a batch fails only its own call: when a batch's body is unreadable (one
 * procedure's answer broken by a proxy or a QA rule breaks the whole JSON), each query of it is
 * asked once more on its own through `single`, and only the broken one fails. Mutations are never
 * sent twice. The batch stays the normal path, so a healthy screen still makes one request.
 */
export function retryUnreadableAlone(single: TRPCLink<AppRouter>): TRPCLink<AppRouter> {
  return (runtime) => {
    const alone = single(runtime);
    return ({ op, next }) =>
      observable((observer) => {
        let current: Unsubscribable = next(op).subscribe({
          next: (value) => observer.next(value),
          complete: () => observer.complete(),
          error: (error) => {
            if (op.type !== 'query' || op.signal?.aborted || !isUnreadableBatch(error))
              return observer.error(error);
            current = alone({ op, next }).subscribe(observer);
          },
        });
        return () => current.unsubscribe();
      });
  };
}

export function createLinks(config: RuntimeConfig, options: ClientOptions): TRPCLink<AppRouter>[] {
  const getToken = options.getToken ?? getJwt;
  // worldFetch calls globalThis.fetch late: tests that stub it after start-up are still seen.
  const fetchImpl = fetchWithTimeout(options.fetch ?? worldFetch, config.requestTimeoutMs);
  const session = sessionLink({ getToken, onUnauthorized: options.onUnauthorized });
  if (config.mode === 'provider') return [session, providerLink({ config, getToken, fetch: fetchImpl })];

  const transport = {
    url: config.trpcUrl,
    headers: (): Record<string, string> => {
      const token = getToken();
      return token ? { Authorization: `Bearer ${token}` } : {};
    },
    fetch: fetchImpl,
  };
  const batch = () => httpBatchLink<AppRouter>({ ...transport, maxURLLength: MAX_BATCH_URL_LENGTH });
  // A keyed money move (lib/money-move.ts) goes alone, its key in the Idempotency-Key header.
  const keyed = httpLink<AppRouter>({
    ...transport,
    headers: ({ op }) => ({ ...transport.headers(), [IDEMPOTENCY_KEY_HEADER]: idempotencyKeyOf(op) ?? '' }),
  });
  return [
    session,
    envelopeLink(),
    retryUnreadableAlone(httpLink<AppRouter>(transport)),
    splitLink({
      condition: (op) => idempotencyKeyOf(op) !== undefined,
      true: keyed,
      false: splitLink({ condition: isTableCall, true: batch(), false: batch() }),
    }),
  ];
}

export const createAppTrpcClient = (config: RuntimeConfig, options: ClientOptions) =>
  createTRPCClient<AppRouter>({ links: createLinks(config, options) });
export type AppTrpcClient = ReturnType<typeof createAppTrpcClient>;
