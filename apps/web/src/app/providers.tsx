/** Everything the app runs inside: config, Chakra + theme, TanStack Query, tRPC, toaster. */
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { RuntimeConfig } from '@md/shared';
import { ThemeProvider } from '../components/ui/theme-provider.tsx';
import { QaPanelMount } from '../features/qa-panel/index.tsx';
import { ConfigProvider } from '../lib/config.tsx';
import { system } from './system.ts';
import { emitSessionEnded } from '../lib/session-events.ts';
import { removeSession } from '../lib/storage.ts';
import { toaster } from '../lib/toaster.ts';
import { createAppTrpcClient, TRPCProvider, type AppTrpcClient } from '../lib/trpc.ts';

const Toaster = lazy(() =>
  import('../components/ui/toaster.tsx').then(({ Toaster }) => ({ default: Toaster })),
);

/**
 * The toasts' UI (Zag's toast machines and their layers, ~10 kB gzipped) loads with the first
 * toast, not with the first screen: the toaster's store (lib/toaster.ts) keeps what was asked for
 * meanwhile, and the UI shows it when it mounts.
 */
function ToasterOnDemand() {
  const [wanted, setWanted] = useState(() => toaster.getVisibleToasts().length > 0);
  useEffect(() => {
    if (wanted) return;
    if (toaster.getVisibleToasts().length > 0) return setWanted(true);
    return toaster.subscribe(() => setWanted(true));
  }, [wanted]);
  return wanted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

export const createQueryClient = () =>
  new QueryClient({
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
  children,
  trpcClient,
}: {
  config: RuntimeConfig;
  children: ReactNode;
  trpcClient?: AppTrpcClient;
}) {
  const [queryClient] = useState(createQueryClient);
  const [client] = useState(
    () => trpcClient ?? createAppTrpcClient(config, { onUnauthorized: handleUnauthorized }),
  );
  return (
    <ConfigProvider config={config}>
      <ChakraProvider value={system}>
        <ThemeProvider>
          <QueryClientProvider client={queryClient}>
            <TRPCProvider trpcClient={client} queryClient={queryClient}>
              {children}
              <QaPanelMount />
              <ToasterOnDemand />
            </TRPCProvider>
          </QueryClientProvider>
        </ThemeProvider>
      </ChakraProvider>
    </ConfigProvider>
  );
}
