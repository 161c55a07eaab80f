/**
 * Everything the app runs inside: config, the language, the colour theme, TanStack Query, tRPC, toaster. Chakra's
 * runtime is not here: sign-in is drawn without it, and the screens, toasts and panels drawn with
 * it each load it with their chunk (components/ui/chakra-root.tsx).
 */
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { RuntimeConfig } from '@md/shared';
import { ChunkBoundary } from '../components/chunk-boundary.tsx';
import { ThemeProvider } from '../components/ui/theme-provider.tsx';
import { QaPanelMount } from '../features/qa-panel/index.tsx';
import { loadChunk } from '../lib/chunk-load.ts';
import { ConfigProvider } from '../lib/config.tsx';
import { I18nProvider, type LoadedLocale } from '../lib/i18n/i18n.tsx';
import { emitSessionEnded } from '../lib/session-events.ts';
import { removeSession } from '../lib/storage.ts';
import { isServerUnreachable } from '../lib/errors.ts';
import { notify, onToastRequested, toastRequested } from '../lib/toaster.ts';
import { createAppTrpcClient, TRPCProvider, type AppTrpcClient } from '../lib/trpc.ts';

const Toaster = lazy(() =>
  loadChunk(() => import('../components/ui/toaster.tsx')).then(({ Toaster }) => ({ default: Toaster })),
);

/**
 * The toasts' UI (Zag's toast machines and their layers) mounts with the first toast asked for,
 * not with the first screen; the store (lib/toaster.ts) keeps the toasts asked for meanwhile.
 */
function ToasterOnDemand() {
  const [wanted, setWanted] = useState(toastRequested);
  useEffect(() => {
    if (wanted) return;
    // One asked for between the render and this effect.
    if (toastRequested()) return setWanted(true);
    return onToastRequested(() => setWanted(true));
  }, [wanted]);
  // Without the toasts' chunk (no connection) the screen goes on without toasts, never blank.
  return wanted ? (
    <ChunkBoundary fallback={null}>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </ChunkBoundary>
  ) : null;
}

export const createQueryClient = () =>
  new QueryClient({
    // A read that found the server unreachable says so once for all of them (lib/toaster.ts): the
    // screen's reads fail together, and a toast per read would stack their internal names.
    queryCache: new QueryCache({
      onError: (error) => {
        if (isServerUnreachable(error)) notify.serverUnreachable();
      },
    }),
    defaultOptions: {
      // Provider errors are answers, not glitches: no silent retries; refresh on demand.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      // 'always': a mutation made offline fails at once with its error. TanStack's default
      // ('online') would pause it and send it when the connection returns: a money action queued
      // behind the member's back, long after they gave up on it.
      mutations: { retry: false, networkMode: 'always' },
    },
  });

/** HTTP 401 on a call made with a token: drop the jwt and user, and go to '/' (spec §8). */
function handleUnauthorized() {
  removeSession();
  emitSessionEnded();
}

export function AppProviders({
  config,
  i18n,
  children,
  trpcClient,
}: {
  config: RuntimeConfig;
  /** The language the app starts in, its catalogs loaded (main.tsx). */
  i18n: LoadedLocale;
  children: ReactNode;
  trpcClient?: AppTrpcClient;
}) {
  const [queryClient] = useState(createQueryClient);
  const [client] = useState(
    () => trpcClient ?? createAppTrpcClient(config, { onUnauthorized: handleUnauthorized }),
  );
  return (
    <ConfigProvider config={config}>
      <I18nProvider initial={i18n}>
        <ThemeProvider>
          <QueryClientProvider client={queryClient}>
            <TRPCProvider trpcClient={client} queryClient={queryClient}>
              {children}
              <QaPanelMount />
              <ToasterOnDemand />
            </TRPCProvider>
          </QueryClientProvider>
        </ThemeProvider>
      </I18nProvider>
    </ConfigProvider>
  );
}
