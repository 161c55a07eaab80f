/** The tRPC client: httpBatchLink to /trpc in mock mode, the providerLink in provider mode (DESIGN §4). */
import { createTRPCClient, httpBatchLink, type TRPCLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { RuntimeConfig } from '@md/shared';
import { providerLink } from './provider-link.ts';
import { sessionLink } from './session-link.ts';
import { getJwt } from './storage.ts';
import type { AppRouter } from './trpc-types.ts';

export type { AppRouter };
export const MAX_BATCH_ITEMS = 2;
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export interface ClientOptions {
  getToken?: () => string | null;
  onUnauthorized: () => void;
  fetch?: typeof fetch;
}

export function createLinks(config: RuntimeConfig, options: ClientOptions): TRPCLink<AppRouter>[] {
  const getToken = options.getToken ?? getJwt;
  const terminating =
    config.mode === 'provider'
      ? providerLink({ config, getToken, ...(options.fetch ? { fetch: options.fetch } : {}) })
      : httpBatchLink<AppRouter>({
          url: config.trpcUrl,
          // The server's router (Fastify) refuses URL path parameters over 100 characters (HTTP 414),
          // and a batch joins procedure names in the path: two names always fit (at most 97).
          maxItems: MAX_BATCH_ITEMS,
          headers: (): Record<string, string> => {
            const token = getToken();
            return token ? { Authorization: `Bearer ${token}` } : {};
          },
          ...(options.fetch ? { fetch: options.fetch } : {}),
        });
  return [sessionLink({ getToken, onUnauthorized: options.onUnauthorized }), terminating];
}

export const createAppTrpcClient = (config: RuntimeConfig, options: ClientOptions) =>
  createTRPCClient<AppRouter>({ links: createLinks(config, options) });
export type AppTrpcClient = ReturnType<typeof createAppTrpcClient>;
