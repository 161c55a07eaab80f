import { lazy, startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes } from 'react-router';
import type { RuntimeConfig } from '@md/shared';
import { bootFallback } from './app/boot-messages.ts';
import { OfflineStart, OnlineOnly, isConnectionFailure } from './app/offline.tsx';
import { usePageSettled } from './app/page-settled.ts';
import { AppProviders } from './app/providers.tsx';
import { preloadScreen, routes } from './app/router.tsx';
import { ChunkBoundary } from './components/chunk-boundary.tsx';
import { loadChunk } from './lib/chunk-load.ts';
import { ConfigLoadError, loadRuntimeConfig } from './lib/config.tsx';
import { I18nProvider, loadLocale, useMessageText, useT, type LoadedLocale } from './lib/i18n/i18n.tsx';
import { startingLocale } from './lib/i18n/locales.ts';
import { getJwt } from './lib/storage.ts';
import { cameThroughDoor, keepDoorWorld, keepPageWorld, LEAVE_WORLD_URL } from './lib/world.ts';
// Chakra's reset, globals and tokens, and the first screen's classes: sign-in draws with these alone.
import './components/first-screen/first-screen.css';

const AppUpdate = lazy(() => loadChunk(() => import('./app/app-update.tsx')));

function AppRoutes() {
  return useRoutes(routes);
}

function App({ config, i18n }: { config: RuntimeConfig; i18n: LoadedLocale }) {
  // The development server has no service worker (vite-plugin-pwa builds it with the app).
  const withWorker = usePageSettled() && import.meta.env.PROD && 'serviceWorker' in navigator;
  return (
    <AppProviders config={config} i18n={i18n}>
      <BrowserRouter>
        <OnlineOnly>
          <AppRoutes />
        </OnlineOnly>
      </BrowserRouter>
      {withWorker && (
        // The update prompt is an extra: without its chunk the app runs on without it.
        <ChunkBoundary fallback={null}>
          <Suspense fallback={null}>
            <AppUpdate />
          </Suspense>
        </ChunkBoundary>
      )}
    </AppProviders>
  );
}

// A QA door sent the tab here: the world it entered (or left for the default) becomes the tab's.
// Read first: the stored session is the world's.
const throughDoor = cameThroughDoor();

// A stored session opens the app on the dashboard: its chunks start loading at boot, beside /config.json.
if (getJwt() && window.location.pathname.startsWith('/dashboard')) preloadScreen(window.location.pathname);

const root = createRoot(document.getElementById('root')!);

/** Without the runtime config the app cannot know where its API is: say so plainly. */
function BootFailure({ message, gone }: { message: string; gone: string | null }) {
  const t = useT();
  const messageText = useMessageText();
  return (
    <main style={{ fontFamily: 'system-ui', padding: '2rem' }}>
      <h1>{t('app.boot.title')}</h1>
      {/* The QA world this tab is in is gone (expired or deleted): say so, and offer the way out. */}
      <p>{gone ? t('app.world.gone', { id: gone }) : messageText(message)}</p>
      {gone && <a href={LEAVE_WORLD_URL}>{t('app.world.leave')}</a>}
    </main>
  );
}

function start() {
  // The language's catalogs load beside /config.json: no round trip of their own before the first paint.
  // A language whose catalogs cannot be loaded starts the app in English rather than not at all
  // (without a connection English fails too, and the offline screen follows).
  const starting = startingLocale();
  // Sign-in for a member with no session reads the catalogs' first part (English's is in this
  // file); any other screen, the whole of them.
  const part = window.location.pathname === '/' && !getJwt() ? 'first' : 'whole';
  const language = loadLocale(starting, part).catch((error: unknown) =>
    starting === 'en' ? Promise.reject(error) : loadLocale('en', part),
  );
  Promise.all([loadRuntimeConfig(), language])
    .then(([config, i18n]) => {
      if (throughDoor) keepDoorWorld(config);
      keepPageWorld(config);
      // A transition renders in slices that yield to the browser every few ms (a default-priority
      // render runs to the end in one task): a screen's Chakra styling does not block input for
      // hundreds of ms on a phone's CPU.
      startTransition(() =>
        root.render(
          <StrictMode>
            <App config={config} i18n={i18n} />
          </StrictMode>,
        ),
      );
    })
    .catch(async (error: unknown) => {
      // These pages speak the member's language when its catalogs loaded, else English built in.
      const i18n = await language.catch(() => bootFallback());
      // No connection (the service worker served the app shell): say so, and start once it is back.
      if (isConnectionFailure(error))
        return root.render(
          <I18nProvider initial={i18n}>
            <OfflineStart retry={start} />
          </I18nProvider>,
        );
      const message = error instanceof Error ? error.message : String(error);
      const gone = error instanceof ConfigLoadError ? error.world : null;
      root.render(
        <I18nProvider initial={i18n}>
          <BootFailure message={message} gone={gone} />
        </I18nProvider>,
      );
    });
}
start();
