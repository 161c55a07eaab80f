/**
 * The header's notifications bell: how many came since the member last opened the
 * list (a marker on this device: lib/notifications-seen.ts), and a menu with the latest few and a
 * link to the Notifications page. Opening it clears the count. Its call starts after the header's
 * first paint, so no page waits for it. The bell is drawn with the first screen's classes; its list
 * is a Chakra menu (frame-chakra.tsx), loaded when first opened: Enter opens it, arrows walk the
 * latest ones, Escape closes and focus goes back to the bell.
 */
import { useCallback, useEffect, useState } from 'react';
import { LuBell } from 'react-icons/lu';
import { useT } from '@/lib/i18n/i18n.tsx';
import {
  countUnread,
  markNotificationsSeen,
  useLatestNotifications,
  useSeenMarker,
} from '@/lib/notifications-seen.ts';
import { useAfterFirstPaint } from '@/lib/use-after-first-paint.ts';
import { useFrameMenu } from './frame-parts.ts';

/** How many the popover lists; the rest are on the Notifications page. */
export const BELL_LATEST = 5;
export const NOTIFICATIONS_PATH = '/dashboard/notification';

/** The bell's name: how many are unread ('5+' when more may have come than the latest read). */
export const bellLabel = (t: ReturnType<typeof useT>, count: number, more: boolean) =>
  count > 0 ? t('shell.bell.unread', { count, more: String(more) }) : t('shell.bell.title');

export function NotificationBell({ username }: { username: string }) {
  const t = useT();
  const painted = useAfterFirstPaint();
  const { entries, loading } = useLatestNotifications(painted && username !== '');
  const marker = useSeenMarker(username);
  const { count, more } = countUnread(entries, marker);
  // How many were new when the member opened it: those stay marked "New" while it is open.
  const [newOnOpen, setNewOnOpen] = useState(0);
  const { menu, parts, trigger } = useFrameMenu(useCallback(() => setNewOnOpen(count), [count]));
  const newest = entries[0];

  // Open means seen: the newest one becomes the marker (also when it arrives while open).
  useEffect(() => {
    if (menu.open) markNotificationsSeen(username, newest);
  }, [menu.open, newest, username]);

  const label = bellLabel(t, count, more);
  return (
    <>
      <button
        type="button"
        className="fs-bell"
        aria-label={label}
        title={label}
        data-testid="notification-bell"
        {...trigger}
      >
        <LuBell />
        {count > 0 && (
          <span className="fs-bell-count" aria-hidden="true">
            {count > 99 ? '99+' : `${count}${more ? '+' : ''}`}
          </span>
        )}
      </button>
      {parts && (
        <parts.BellMenu
          menu={menu}
          latest={entries.slice(0, BELL_LATEST)}
          loading={loading}
          newOnOpen={newOnOpen}
          path={NOTIFICATIONS_PATH}
        />
      )}
    </>
  );
}
