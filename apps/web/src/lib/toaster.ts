/**
 * Toasts: `notify.error('…')` anywhere. The store (lib/toast-store.ts: Zag's toast machines come
 * with it, ~7 kB gzipped) loads with the first toast, not with the first screen; toasts asked for
 * meanwhile are shown in order once it has loaded. The UI mounts on the first request
 * (app/providers.tsx, `onToastRequested`) and says so (`toastViewMounted`): a toast is created only
 * then, so its time on screen counts from when the member can see it, and `toastsShown()` tells a
 * caller that waits "after the toast" (the session's end) when that was.
 */
import { COPY_CONFIRM_MS } from '@md/shared';

type ToastType = 'success' | 'error' | 'info' | 'warning' | 'loading';

const loadStore = () => import('./toast-store.ts');
let store: ReturnType<typeof loadStore> | undefined;
let requested = false;
const requestListeners = new Set<() => void>();
let viewMounted: () => void = () => {};
const viewReady = new Promise<void>((resolve) => (viewMounted = resolve));
/** Settles once every toast asked for so far is on screen (or failed to load). */
let lastShown: Promise<void> = Promise.resolve();

/** The toast store, loading it on first use (a failed load is tried again next time). */
const toastStore = () =>
  (store ??= loadStore().catch((error: unknown) => {
    store = undefined;
    throw error;
  }));

/** Whether a toast was asked for yet. */
export const toastRequested = () => requested;

/** The toasts' UI calls this once it is mounted; toasts asked for before then are created now. */
export const toastViewMounted = () => viewMounted();

/** Resolves when the toasts asked for so far are on screen. */
export const toastsShown = () => lastShown;

/** Calls `listener` at each toast asked for; returns the unsubscribe. */
export function onToastRequested(listener: () => void) {
  requestListeners.add(listener);
  return () => void requestListeners.delete(listener);
}

const show = (type: ToastType, title: string, duration?: number) => {
  // Created in the order asked: each waits for the one before it.
  lastShown = lastShown
    .then(() => Promise.all([toastStore(), viewReady]))
    .then(([{ toaster }]) => {
      toaster.create({ type, title, closable: true, ...(duration ? { duration } : {}) });
    })
    .catch(() => console.warn(`Toast not shown (${type}): ${title}`));
  requested = true;
  for (const listener of requestListeners) listener();
};

export const notify = {
  success: (title: string) => show('success', title),
  error: (title: string) => show('error', title),
  info: (title: string) => show('info', title),
  warning: (title: string) => show('warning', title),
  /** Copy confirmations last 2 s (spec §4). */
  copied: (title: string) => show('success', title, COPY_CONFIRM_MS),
};
