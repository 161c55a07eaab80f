/**
 * The browser-stored session (spec §3): keys user, jwt, lastUserDetailsUpdate and theme. In a QA
 * world the session's keys are the world's own (lib/world.ts: `jwt@w-…`); the theme is the browser's.
 */
import { heldWorld, isWorldKey, worldKey } from './world.ts';

export const STORAGE_KEYS = {
  user: 'user',
  jwt: 'jwt',
  lastUserDetailsUpdate: 'lastUserDetailsUpdate',
  theme: 'theme',
  /** The member's language (lib/i18n/locales.ts): the browser's, like the theme. */
  language: 'language',
} as const;

/** Per member: the newest notification seen (lib/notifications-seen.ts). Kept on logout, like the theme. */
export const NOTIFICATIONS_SEEN_PREFIX = 'notificationsSeen:';

export interface SessionUser {
  username: string;
  avatar: string;
  name: string;
  email: string;
}

export const getJwt = (): string | null => localStorage.getItem(worldKey(STORAGE_KEYS.jwt));
export const setJwt = (jwt: string) => localStorage.setItem(worldKey(STORAGE_KEYS.jwt), jwt);

export function getStoredUser(): SessionUser | null {
  const raw = localStorage.getItem(worldKey(STORAGE_KEYS.user));
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<SessionUser>;
    return typeof parsed.username === 'string'
      ? ({ avatar: 'Default', name: '', email: '', ...parsed } as SessionUser)
      : null;
  } catch {
    return null;
  }
}
export const setStoredUser = (user: SessionUser) =>
  localStorage.setItem(worldKey(STORAGE_KEYS.user), JSON.stringify(user));

export const markUserDetailsUpdated = (now = Date.now()) =>
  localStorage.setItem(worldKey(STORAGE_KEYS.lastUserDetailsUpdate), String(now));

/** 401: the token and the user go; the theme stays. */
export function removeSession() {
  localStorage.removeItem(worldKey(STORAGE_KEYS.jwt));
  localStorage.removeItem(worldKey(STORAGE_KEYS.user));
}

/**
 * Logout and session errors clear local storage (spec §2, §8); the theme and language choices are kept for the sign-in
 * screen, and each member's notifications marker (no secret: a time and an id) so the bell's count
 * survives signing out and in again on this device. In a QA world a tab holds, its own session goes
 * and nothing else: the rest is the browser's, and other worlds' (the default one's included).
 */
export function clearLocalStorage() {
  if (heldWorld()) {
    for (const key of [STORAGE_KEYS.jwt, STORAGE_KEYS.user, STORAGE_KEYS.lastUserDetailsUpdate])
      localStorage.removeItem(worldKey(key));
    return;
  }
  const kept = Object.keys(localStorage)
    .filter(
      (key) =>
        key === STORAGE_KEYS.theme ||
        key === STORAGE_KEYS.language ||
        key.startsWith(NOTIFICATIONS_SEEN_PREFIX) ||
        isWorldKey(key),
    )
    .map((key) => [key, localStorage.getItem(key)] as const);
  localStorage.clear();
  for (const [key, value] of kept) if (value !== null) localStorage.setItem(key, value);
}
