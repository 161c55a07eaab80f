/**
 * Honest offline. Without a connection the app shows a screen that says so instead of the
 * browser's error page or figures from before the connection dropped, and comes back by itself:
 * - at start-up (the service worker served the app shell, but /config.json cannot be fetched):
 *   main.tsx shows OfflineStart, which retries when the browser reports the connection back, every
 *   RETRY_MS, and on the Try again button;
 * - while running: OnlineOnly shows the screen over the routes while the browser is offline and
 *   hides them (nothing a page held is shown as current), but keeps them mounted, so a form keeps
 *   what was typed across a blip; on reconnection it marks every query stale so the figures shown
 *   are fetched again.
 * Money actions are never queued: the query client's mutations do not wait for the network
 * (providers.tsx), so a call made offline fails at once with its error and is never shown as done.
 */
import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AuthCard } from '../components/form/auth-card.tsx';
import { ThemeProvider } from '../components/ui/theme-provider.tsx';
import { useT } from '../lib/i18n/i18n.tsx';

/** How often the offline start-up tries again while the browser believes it is online (a server down, a captive portal). */
export const RETRY_MS = 10_000;

const subscribeToConnection = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};
export const useOnline = () => useSyncExternalStore(subscribeToConnection, () => navigator.onLine);

/** A failed fetch (no network, server unreachable) rather than an answer the app cannot use. */
export const isConnectionFailure = (error: unknown) => !navigator.onLine || error instanceof TypeError;

export function OfflineScreen({ onRetry }: { onRetry?: () => void }) {
  const t = useT();
  return (
    // No language menu: another language's catalogs may not be reachable without a connection.
    <AuthCard title={t('app.offline.title')} subtitle={t('app.offline.subtitle')} languageMenu={false}>
      {/* The first screen's classes: no Chakra chunk to fetch without a connection. */}
      <div className="fs-stack" data-testid="offline-screen">
        <p>{t('app.offline.body')}</p>
        <p className="fs-muted fs-small" role="status">
          {t('app.offline.retrying')}
        </p>
        {onRetry && (
          <button type="button" className="fs-button" onClick={onRetry}>
            {t('app.offline.tryAgain')}
          </button>
        )}
      </div>
    </AuthCard>
  );
}

/** The start-up screen when /config.json could not be fetched: retries until it can. */
export function OfflineStart({ retry }: { retry: () => void }) {
  useEffect(() => {
    window.addEventListener('online', retry);
    const timer = setInterval(retry, RETRY_MS);
    return () => {
      window.removeEventListener('online', retry);
      clearInterval(timer);
    };
  }, [retry]);
  return (
    <ThemeProvider>
      <OfflineScreen onRetry={retry} />
    </ThemeProvider>
  );
}

/**
 * The routes while online; while not, the offline screen, with the routes still mounted but hidden
 * and inert (display: none: neither seen, nor read by assistive technology, nor focusable).
 */
export function OnlineOnly({ children }: { children: ReactNode }) {
  const online = useOnline();
  const queryClient = useQueryClient();
  const [wasOffline, setWasOffline] = useState(false);
  useEffect(() => {
    if (!online) setWasOffline(true);
    else if (wasOffline) {
      // Back online: whatever the cache holds is from before the break; fetch it again.
      setWasOffline(false);
      void queryClient.invalidateQueries();
    }
  }, [online, wasOffline, queryClient]);
  return (
    <>
      {/* display: contents while online: the wrapper adds no box to the page's layout. */}
      <div style={{ display: online ? 'contents' : 'none' }} inert={!online} data-testid="routes">
        {children}
      </div>
      {!online && <OfflineScreen />}
    </>
  );
}
