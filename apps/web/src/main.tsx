import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes } from 'react-router';
import type { RuntimeConfig } from '@md/shared';
import { AppProviders } from './app/providers.tsx';
import { preloadSessionRoutes, routes } from './app/router.tsx';
import { loadRuntimeConfig } from './lib/config.tsx';
import { getJwt } from './lib/storage.ts';

function AppRoutes() {
  return useRoutes(routes);
}

function App({ config }: { config: RuntimeConfig }) {
  return (
    <AppProviders config={config}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}

if (getJwt()) preloadSessionRoutes(window.location.pathname);

const root = createRoot(document.getElementById('root')!);
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
    // Without the runtime config the app cannot know where its API is: say so plainly.
    const message = error instanceof Error ? error.message : String(error);
    root.render(
      <main style={{ fontFamily: 'system-ui', padding: '2rem' }}>
        <h1>The app could not start</h1>
        <p>{message}</p>
      </main>,
    );
  });
