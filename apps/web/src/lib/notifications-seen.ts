/**
 * The notifications bell's data. The contract has no read flag, so "unread" is
 * "newer than the newest notification the member had when they last opened the list", a marker kept
 * per member on this device (localStorage, like the theme: logout keeps it).
 */
import { useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { NOTIFICATIONS_PAGE_SIZE, type Notification } from '@md/shared';
import { listOf, recordOf, textOf } from './guards.ts';
import { NOTIFICATIONS_SEEN_PREFIX } from './storage.ts';
import { useTRPC } from './trpc.ts';

/** The newest notification the member has seen: its time and id (the id tells apart two of the same second). */
export interface SeenMarker {
  time: string;
  id: string;
}

const keyOf = (username: string) => `${NOTIFICATIONS_SEEN_PREFIX}${username}`;
/** Same-tab writes tell the hooks here; other tabs hear the storage event. */
const CHANGED = 'md:notifications-seen';

export function readSeenMarker(username: string): SeenMarker | null {
  try {
    const parsed = recordOf<Partial<SeenMarker>>(JSON.parse(localStorage.getItem(keyOf(username)) ?? 'null'));
    return parsed && typeof parsed.time === 'string' && typeof parsed.id === 'string'
      ? { time: parsed.time, id: parsed.id }
      : null;
  } catch {
    return null;
  }
}

/** Marks `newest` (the first of a newest-first list) as seen by `username`; nothing to mark without one. */
export function markNotificationsSeen(username: string, newest: Partial<Notification> | undefined) {
  if (!username || !newest) return;
  const marker: SeenMarker = { time: textOf(newest.DateTime), id: textOf(newest.TransID) };
  const previous = readSeenMarker(username);
  if (previous && previous.time === marker.time && previous.id === marker.id) return;
  // An older list (a stale cache) never moves the marker back.
  if (previous && Date.parse(marker.time) < Date.parse(previous.time)) return;
  localStorage.setItem(keyOf(username), JSON.stringify(marker));
  window.dispatchEvent(new Event(CHANGED));
}

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGED, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The member's marker, following changes (this tab and others). The raw text is the snapshot, so renders compare cheaply. */
export function useSeenMarker(username: string): SeenMarker | null {
  const raw = useSyncExternalStore(subscribe, () =>
    username ? localStorage.getItem(keyOf(username)) : null,
  );
  // Parsed through readSeenMarker so a hand-edited value reads as none.
  return raw === null ? null : readSeenMarker(username);
}

/**
 * How many of `entries` (newest first) came after the marker: those before the marked one and not
 * older than it. `more` when every entry read is new (there may be newer ones than the page holds).
 * With no marker (never opened on this device) every entry is new.
 */
export function countUnread(
  entries: readonly Partial<Notification>[],
  marker: SeenMarker | null,
  pageSize = NOTIFICATIONS_PAGE_SIZE,
) {
  let count = 0;
  const markedAt = marker ? Date.parse(marker.time) : NaN;
  for (const entry of entries) {
    if (marker) {
      if (textOf(entry.TransID) === marker.id && textOf(entry.DateTime) === marker.time) break;
      const at = Date.parse(textOf(entry.DateTime));
      if (Number.isFinite(markedAt) && Number.isFinite(at) && at < markedAt) break;
    }
    count++;
  }
  return { count, more: count === entries.length && entries.length >= pageSize };
}

/** The same call (and cache entry) as page 1 of the Notifications page. */
export const LATEST_NOTIFICATIONS_INPUT = {
  page_no: 1,
  page_size: NOTIFICATIONS_PAGE_SIZE,
  pageNo: 1,
  pageSize: NOTIFICATIONS_PAGE_SIZE,
} as const;
/** The bell looks again now and then, so a long session sees new ones (paused while the tab is hidden). */
export const NOTIFICATIONS_POLL_MS = 60_000;

/** The latest notifications for the bell; `enabled` false until the header has painted. Failures are silent (spec §8). */
export function useLatestNotifications(enabled: boolean) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc['notification.view_notification'].queryOptions(LATEST_NOTIFICATIONS_INPUT),
    enabled,
    refetchInterval: NOTIFICATIONS_POLL_MS,
    // The bell wakes as an observer joining (not one switched on, which fetches whatever the state),
    // so a read the Notifications page just saw fail is not asked again, flipping that page back to
    // Loading: the page's Retry asks, and the poll later.
    subscribed: enabled,
    retryOnMount: false,
  });
  const entries = listOf<Partial<Notification>>(recordOf(query.data)?.Success);
  return { entries, loading: query.isPending, loaded: query.isSuccess };
}
