/**
 * Session tokens: HS256 only, expiring, each naming its sign-in session (`jti`, a row of
 * `sessions`), refused once that session is revoked (logout, "sign out", a security change) or
 * the member's token version moves on (a password reset).
 *
 * Rule: a call costs no database read of its session row (it is kept in the read cache, as the
 * member); the row's last-seen time and address change at most once a minute per session, and
 * that write has no commit of its own: it waits in this service (one per world) and is written by
 * the next money transaction of any call, or a moment later with every other session waiting then,
 * in one transaction (LAST_SEEN_FLUSH_MS). What reads the column (the sessions list) writes the
 * waiting times first. A sign-out or revoke is written at once, so an ended session is refused at
 * its next call as before.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { members, sessions, type Db } from '@md/db';
import { MSG } from '@md/shared';
import { unauthorized } from './errors.ts';
import type { Clock } from './clock.ts';
import { createReadCache } from './read-cache.ts';
import type { Member, TokenService } from './services.ts';
import { OldestFirst } from './use-order.ts';

export const TOKEN_TTL_SECONDS = 24 * 60 * 60;

interface Claims {
  sub: string;
  username: string;
  tv: number;
  /** The session: unique per sign-in, so two sign-ins in one second get different tokens. */
  jti?: string;
  iat: number;
  exp: number;
}

/** Tokens whose signature was checked, kept so each is checked once (an HMAC and a verifier per call otherwise). */
const VERIFIED_CACHE_SIZE = 10_000;
/** A session's last-seen time is written at most this often (a call in between changes nothing). */
export const LAST_SEEN_INTERVAL_MS = 60_000;
/** How long a last-seen time waits for a money transaction to carry it before it is written on its own, with the others waiting. */
export const LAST_SEEN_FLUSH_MS = 1_000;
/** The User-Agent kept per session is cut to this length (the header is the client's to fill). */
const USER_AGENT_MAX = 512;

type SessionRow = { memberId: number; lastSeenAt: number; revokedAt: number | null };

export function createTokenService(
  app: FastifyInstance,
  db: Db,
  clock: Clock,
  /**
   * A last-seen write outside a call must wait: another connection holds the write lock (the daily
   * runs' worker), or the files have a problem (a write through an unwritable WAL index kills the
   * process; core/storage.ts). It is tried again a moment later.
   */
  writeWaits: () => boolean = () => false,
): TokenService {
  const verified = new Map<string, Claims>();
  const verifiedOldest = new OldestFirst(verified);
  const memberById = db
    .select()
    .from(members)
    .where(eq(members.id, sql.placeholder('id')))
    .prepare();
  const sessionById = db
    .select({ memberId: sessions.memberId, lastSeenAt: sessions.lastSeenAt, revokedAt: sessions.revokedAt })
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare();
  const seen = db
    .update(sessions)
    .set({
      lastSeenAt: sql.placeholder('at') as unknown as number,
      ip: sql.placeholder('ip') as unknown as string,
    })
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare();
  // Every authenticated call reads its member: kept until a write touches the member (a password
  // change, which moves the token version, is one), so a read-only call costs a map lookup.
  const memberCache = createReadCache<Member | undefined>(10_000, { tables: ['members'] });
  // And its session, kept the same way: any write to the member's sessions (a sign-out, a revoke, a
  // last-seen time) drops it, so an ended session is refused at the next call. Read each time it
  // cost ~30 µs of a 130 µs authenticated call under load (scripts/bench/http.ts). Both are kept
  // through writes to other tables: a money move dropped them, and every write call read them again.
  const sessionCache = createReadCache<SessionRow | undefined>(10_000, { tables: ['sessions'] });
  // Last-seen times not yet written, by session: a write here cost a commit (and an answer's wait
  // for its sync) on the call that happened to be due.
  const unwritten = new Map<string, { at: number; ip: string }>();
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const writeUnwritten = () => {
    for (const [id, { at, ip }] of unwritten) seen.run({ at, ip, id });
    unwritten.clear();
  };
  const flushLastSeen = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (unwritten.size === 0 || !db.$client.open) return;
    try {
      if (db.$client.inTransaction) writeUnwritten();
      // Never in SQLite's busy wait for it (this thread would stop answering while a run holds the
      // lock), nor through files with a problem.
      else if (writeWaits()) scheduleFlush();
      else db.$client.transaction(writeUnwritten)();
    } catch {
      // Bookkeeping only: a database that refuses writes (read-only, full) still answers reads.
      unwritten.clear();
    }
  };
  const scheduleFlush = () => {
    flushTimer ??= setTimeout(flushLastSeen, LAST_SEEN_FLUSH_MS);
    flushTimer.unref?.();
  };
  /** The token's claims, its signature and algorithm checked on first sight (expiry is checked by the caller every time). */
  const claimsOf = (token: string): Claims => {
    const known = verified.get(token);
    if (known) return known;
    let claims: Claims;
    try {
      claims = app.jwt.verify<Claims>(token, { clockTimestamp: clock.now(), algorithms: ['HS256'] });
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw unauthorized(code === 'FAST_JWT_EXPIRED' ? MSG.sessionExpired : MSG.invalidAuthentication);
    }
    if (verified.size >= VERIFIED_CACHE_SIZE) verifiedOldest.evict();
    verified.set(token, claims);
    return claims;
  };
  return {
    sign(member, caller) {
      const now = clock.now();
      const iat = Math.floor(now / 1000);
      const jti = randomBytes(16).toString('base64url');
      const exp = iat + TOKEN_TTL_SECONDS;
      db.transaction((tx) => {
        // The member's sessions past their expiry go at each sign-in: the table holds live ones.
        tx.delete(sessions)
          .where(and(eq(sessions.memberId, member.id), lt(sessions.expiresAt, now)))
          .run();
        tx.insert(sessions)
          .values({
            id: jti,
            memberId: member.id,
            createdAt: now,
            expiresAt: exp * 1000,
            lastSeenAt: now,
            userAgent: caller?.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
            ip: caller?.ip ?? null,
          })
          .run();
      });
      const claims: Claims = {
        sub: String(member.id),
        username: member.username,
        tv: member.tokenVersion,
        jti,
        iat,
        exp,
      };
      return app.jwt.sign(claims);
    },
    authenticate(token, caller) {
      const claims = claimsOf(token);
      // Every token this server signs has an exp: one without (signed elsewhere with the key) is refused.
      if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp))
        throw unauthorized(MSG.invalidAuthentication);
      // fast-jwt still accepts the exp instant itself; RFC 7519 says a token is expired from it on.
      const now = clock.now();
      if (claims.exp * 1000 <= now) throw unauthorized(MSG.sessionExpired, 'SESSION_EXPIRED');
      const id = Number(claims.sub);
      const member = memberCache.get(db.$client, id, 'member', () => memberById.get({ id }));
      if (!member || member.username !== claims.username) throw unauthorized(MSG.invalidAuthentication);
      if (member.tokenVersion !== claims.tv) throw unauthorized(MSG.sessionExpired, 'SESSION_EXPIRED');
      // A token without a session (signed before sessions existed) or whose session ended is over.
      const jti = claims.jti;
      const session =
        typeof jti === 'string'
          ? sessionCache.get(db.$client, id, jti, () => sessionById.get({ id: jti }))
          : undefined;
      if (!session || session.memberId !== id || session.revokedAt !== null)
        throw unauthorized(MSG.sessionExpired, 'SESSION_EXPIRED');
      const lastSeenAt = unwritten.get(jti!)?.at ?? session.lastSeenAt;
      const due = now - lastSeenAt >= LAST_SEEN_INTERVAL_MS || now < lastSeenAt;
      if (caller && due) {
        unwritten.set(jti!, { at: now, ip: caller.ip });
        scheduleFlush();
      }
      return { member, sessionId: jti! };
    },
    verify(token) {
      return this.authenticate(token).member;
    },
    flushLastSeen,
  };
}

/** Ends one session of a member; false when it was not theirs or had ended already. */
export function revokeSession(db: Db, clock: Clock, memberId: number, sessionId: string): boolean {
  return (
    db
      .update(sessions)
      .set({ revokedAt: clock.now() })
      .where(and(eq(sessions.id, sessionId), eq(sessions.memberId, memberId), isNull(sessions.revokedAt)))
      .run().changes === 1
  );
}

/** Ends every live session of a member but `keep` (the caller's own, or none): how many ended. */
export function revokeOtherSessions(db: Db, clock: Clock, memberId: number, keep: string | null): number {
  const now = clock.now();
  return db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.memberId, memberId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        keep === null ? undefined : ne(sessions.id, keep),
      ),
    )
    .run().changes;
}
