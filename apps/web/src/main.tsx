import { lazy, startTransition, StrictMode, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes } from 'react-router';
import type { RuntimeConfig } from '@md/shared';
import { OfflineStart, OnlineOnly, isConnectionFailure } from './app/offline.tsx';
import { AppProviders } from './app/providers.tsx';
import { preloadSessionRoutes, routes } from './app/router.tsx';
import { loadRuntimeConfig } from './lib/config.tsx';
import { getJwt } from './lib/storage.ts';

const AppUpdate = lazy(() => import('./app/app-update.tsx'));

function AppRoutes() {
  return useRoutes(routes);
}

/** True once the page's load event has fired: the service worker starts after the first screen. */
function usePageLoaded() {
  const [loaded, setLoaded] = useState(() => document.readyState === 'complete');
  useEffect(() => {
    if (loaded) return;
    const onLoad = () => setLoaded(true);
    window.addEventListener('load', onLoad, { once: true });
    return () => window.removeEventListener('load', onLoad);
  }, [loaded]);
  return loaded;
}

function App({ config }: { config: RuntimeConfig }) {
  // The development server has no service worker (vite-plugin-pwa builds it with the app).
  const withWorker = usePageLoaded() && import.meta.env.PROD && 'serviceWorker' in navigator;
  return (
    <AppProviders config={config}>
      <BrowserRouter>
        <OnlineOnly>
          <AppRoutes />
        </OnlineOnly>
      </BrowserRouter>
      {withWorker && (
        <Suspense fallback={null}>
          <AppUpdate />
        </Suspense>
      )}
    </AppProviders>
  );
}

if (getJwt()) preloadSessionRoutes(window.location.pathname);

const root = createRoot(document.getElementById('root')!);

function start() {
  loadRuntimeConfig()
    .then((config) =>
      // A transition renders in slices that yield to the browser every few ms (a default-priority
      // render runs to the end in one task): the first screen's Chakra styling no longer blocks input
      // for hundreds of ms on a phone's CPU.
      startTransition(() =>
        root.render(
          <StrictMode>
            <App config={config} />
          </StrictMode>,
        ),
      ),
    )
    .catch((error: unknown) => {
      // No connection (the service worker served the app shell): say so, and start once it is back.
      if (isConnectionFailure(error)) return root.render(<OfflineStart retry={start} />);
      // Without the runtime config the app cannot know where its API is: say so plainly.
      const message = error instanceof Error ? error.message : String(error);
      root.render(
        <main style={{ fontFamily: 'system-ui', padding: '2rem' }}>
          <h1>The app could not start</h1>
          <p>{message}</p>
        </main>,
      );
    });
}
start();
