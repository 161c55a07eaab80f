/**
 * Toasts: `notify.error('…')` anywhere. The store (lib/toast-store.ts: Zag's toast machines come
 * with it, ~7 kB gzipped) loads with the first toast, not with the first screen; toasts asked for
 * meanwhile are shown in order once it has loaded. The UI mounts on the first request
 * (app/providers.tsx, `onToastRequested`) and says so (`toastViewMounted`): a toast is created only
 * then, so its time on screen counts from when the member can see it, and `toastsShown()` tells a
 * caller that waits "after the toast" (the session's end) when that was.
 *
 * Error toasts come once per cause: one already on screen with the same words is not shown again,
 * and while the server cannot be reached (`notify.serverUnreachable`, raised by the query client)
 * the calls' own messages join that one toast instead of stacking one per call.
 */
import { COPY_CONFIRM_MS } from '@md/shared';

type ToastType = 'success' | 'error' | 'info' | 'warning' | 'loading';
type ToastStore = Awaited<ReturnType<typeof loadStore>>['toaster'];

export const SERVER_UNREACHABLE_ID = 'server-unreachable';
// In English here (raised outside components, by the query client); useMessageText knows these
// two (lib/i18n/i18n.tsx), so the toasts' UI can show them in the member's language.
export const SERVER_UNREACHABLE_TITLE = 'The server cannot be reached';
export const SERVER_UNREACHABLE_HELP =
  'Check your connection and try again in a moment. Figures on screen show the time they are from.';
/**
 * Error toasts shown this long before the server-unreachable one are taken into it: the calls of
 * one screen fail together, and the one whose toast was asked for first need not be a query.
 */
export const FOLD_WINDOW_MS = 3_000;
/**
 * The server-unreachable toast waits this long before it shows, so the messages of the reads that
 * fail with it are in it from the start: the toast's height is measured when it first renders.
 */
export const GATHER_MS = 300;

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

/** The calls' messages the server-unreachable toast carries, each once. */
const detailsOf = (toaster: ToastStore): string[] =>
  (toaster.getVisibleToasts().find((toast) => toast.id === SERVER_UNREACHABLE_ID)?.meta?.details as
    string[] | undefined) ?? [];

function showError(toaster: ToastStore, title: string) {
  if (toaster.isVisible(SERVER_UNREACHABLE_ID)) {
    const details = detailsOf(toaster);
    if (!details.includes(title))
      toaster.update(SERVER_UNREACHABLE_ID, { meta: { details: [...details, title] } });
    return;
  }
  // Once per cause: the same words already on screen are not stacked again.
  if (toaster.getVisibleToasts().some((toast) => toast.type === 'error' && toast.title === title)) return;
  toaster.create({ type: 'error', title, closable: true, meta: { shownAt: Date.now() } });
}

function showServerUnreachable(toaster: ToastStore) {
  if (toaster.isVisible(SERVER_UNREACHABLE_ID)) return;
  // The error toasts of the same moment were most likely this cause too: one toast says it all.
  const recent = toaster
    .getVisibleToasts()
    .filter(
      (toast) => toast.type === 'error' && Date.now() - Number(toast.meta?.shownAt ?? 0) <= FOLD_WINDOW_MS,
    );
  for (const toast of recent) toaster.remove(toast.id);
  toaster.create({
    id: SERVER_UNREACHABLE_ID,
    type: 'error',
    title: SERVER_UNREACHABLE_TITLE,
    description: SERVER_UNREACHABLE_HELP,
    closable: true,
    meta: { details: [...new Set(recent.map((toast) => String(toast.title)))] },
  });
}

const show = (type: ToastType | 'server-unreachable', title: string, duration?: number, id?: string) => {
  // Created in the order asked: each waits for the one before it.
  lastShown = lastShown
    .then(() => Promise.all([toastStore(), viewReady]))
    .then(([{ toaster }]) => {
      if (type !== 'server-unreachable') {
        if (type === 'error') showError(toaster, title);
        else
          toaster.create({
            type,
            title,
            closable: true,
            ...(duration ? { duration } : {}),
            ...(id ? { id } : {}),
          });
        return;
      }
      if (toaster.isVisible(SERVER_UNREACHABLE_ID)) return;
      return new Promise<void>((resolve) => setTimeout(resolve, GATHER_MS)).then(() =>
        showServerUnreachable(toaster),
      );
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
  /** A toast that stays while something runs (a spinner); the function it answers takes it away. */
  progress: (title: string) => {
    const id = crypto.randomUUID();
    show('loading', title, undefined, id);
    return () => {
      lastShown = lastShown
        .then(() => toastStore())
        .then(({ toaster }) => toaster.remove(id))
        .catch(() => undefined);
    };
  },
  /** The server cannot be reached (no answer, or a gateway's 502/503/504): one toast, whichever calls found it so. */
  serverUnreachable: () => show('server-unreachable', SERVER_UNREACHABLE_TITLE),
};
