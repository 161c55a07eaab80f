/** The tRPC client: httpBatchLink to /trpc in mock mode, the providerLink in provider mode (DESIGN §4). */
import { createTRPCClient, httpBatchLink, type TRPCLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { ContractRouter as AppRouter, RuntimeConfig } from '@md/shared';
import { envelopeLink, providerLink } from './provider-link.ts';
import { sessionLink } from './session-link.ts';
import { fetchWithTimeout } from './timeout-fetch.ts';
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

export function createLinks(config: RuntimeConfig, options: ClientOptions): TRPCLink<AppRouter>[] {
  const getToken = options.getToken ?? getJwt;
  // Late-bound so tests that stub globalThis.fetch after start-up are still seen.
  const fetchImpl = fetchWithTimeout(options.fetch ?? ((input, init) => globalThis.fetch(input, init)), config.requestTimeoutMs);
  const terminating =
    config.mode === 'provider'
      ? providerLink({ config, getToken, fetch: fetchImpl })
      : httpBatchLink<AppRouter>({
          url: config.trpcUrl,
          maxURLLength: MAX_BATCH_URL_LENGTH,
          headers: (): Record<string, string> => {
            const token = getToken();
            return token ? { Authorization: `Bearer ${token}` } : {};
          },
          fetch: fetchImpl,
        });
  const session = sessionLink({ getToken, onUnauthorized: options.onUnauthorized });
  return config.mode === 'provider' ? [session, terminating] : [session, envelopeLink(), terminating];
}

export const createAppTrpcClient = (config: RuntimeConfig, options: ClientOptions) =>
  createTRPCClient<AppRouter>({ links: createLinks(config, options) });
export type AppTrpcClient = ReturnType<typeof createAppTrpcClient>;
