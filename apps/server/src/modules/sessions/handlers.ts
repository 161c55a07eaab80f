/**
 * Sign-in sessions, an extension of this stand-in (capability `sessions`, not a provider
 * endpoint): logout at the server, the member's live sessions (device, address, last seen), and
 * signing out one of them or every other. Sessions are rows of `sessions`, one per token
 * (core/tokens.ts); an email or 2FA change ends the member's other sessions (endOtherSessions).
 */
import Bowser from 'bowser';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { sessions } from '@md/db';
import { badRequest } from '../../core/errors.ts';
import { isoTime } from '../../core/iso-time.ts';
import type { AuthedCtx } from '../../core/services.ts';
import { revokeOtherSessions, revokeSession } from '../../core/tokens.ts';
import type { Handlers } from '../../transport/handlers.ts';

export const SESSION_MESSAGES = {
  loggedOut: 'Signed out',
  sessionEnded: 'Session signed out',
  sessionNotFound: 'Session not found',
  othersEnded: (count: number) =>
    count === 1 ? 'Signed out of 1 other session' : `Signed out of ${count} other sessions`,
} as const;

const UNKNOWN_DEVICE = 'Unknown device';

/** "Chrome 120 on Windows 10" from a User-Agent; what it cannot read is left out. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return UNKNOWN_DEVICE;
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ''}` : null;
  const system = parsed.os.name
    ? `${parsed.os.name}${parsed.os.versionName ? ` ${parsed.os.versionName}` : ''}`
    : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? UNKNOWN_DEVICE;
}

/**
 * Ends the member's other sessions after a security change (email, 2FA): whoever holds an older
 * token must sign in again; the session that made the change keeps working. (A password change or
 * reset ends every session: auth/handlers.ts.)
 */
export const endOtherSessions = (ctx: Pick<AuthedCtx, 'db' | 'clock' | 'member' | 'sessionId'>) =>
  revokeOtherSessions(ctx.db, ctx.clock, ctx.member.id, ctx.sessionId ?? null);

/**
 * Last seen is kept to the minute (written at most once a minute), but never before the sign-in
 * itself: floored, a session signed in at 07:00:30 read "last seen 07:00"; and a clock moved back
 * (QA) writes a last-seen time earlier than the sign-in.
 */
const lastSeenOf = (lastSeenAt: number, createdAt: number) =>
  new Date(Math.max(Math.floor(lastSeenAt / 60_000) * 60_000, createdAt)).toISOString();

export const sessionHandlers: Handlers = {
  'user.logout': (ctx) => {
    if (ctx.sessionId) revokeSession(ctx.db, ctx.clock, ctx.member.id, ctx.sessionId);
    return { Success: SESSION_MESSAGES.loggedOut };
  },

  'user.view_sessions': (ctx) => {
    // Last-seen times wait a moment to share a commit (core/tokens.ts): the list shows them.
    ctx.tokens.flushLastSeen();
    const rows = ctx.db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.memberId, ctx.member.id),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, ctx.clock.now()),
        ),
      )
      .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt))
      .all();
    const listed = rows.map((row) => ({
      ID: row.id,
      Device: deviceOf(row.userAgent),
      Address: row.ip,
      Created_On: isoTime(row.createdAt),
      Last_Seen: lastSeenOf(row.lastSeenAt, row.createdAt),
      Current: row.id === ctx.sessionId,
    }));
    // The current session first: the one the member is looking from.
    return { Success: [...listed.filter((s) => s.Current), ...listed.filter((s) => !s.Current)] };
  },

  'user.end_session': (ctx, input) => {
    if (!revokeSession(ctx.db, ctx.clock, ctx.member.id, input.session))
      throw badRequest(SESSION_MESSAGES.sessionNotFound);
    return { Success: SESSION_MESSAGES.sessionEnded };
  },

  'user.end_other_sessions': (ctx) => {
    const ended = endOtherSessions(ctx);
    return { Success: SESSION_MESSAGES.othersEnded(ended), Ended: ended };
  },
};
