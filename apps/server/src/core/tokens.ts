/** Session tokens: HS256 only, expiring, revoked when the member's token version moves on. */
import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { members, type Db } from '@md/db';
import { MSG } from '@md/shared';
import { unauthorized } from './errors.ts';
import type { Clock } from './clock.ts';
import { createReadCache } from './read-cache.ts';
import type { Member, TokenService } from './services.ts';

export const TOKEN_TTL_SECONDS = 24 * 60 * 60;

interface Claims {
  sub: string;
  username: string;
  tv: number;
  iat: number;
  exp: number;
}

/** Tokens whose signature was checked, kept so each is checked once (an HMAC and a verifier per call otherwise). */
const VERIFIED_CACHE_SIZE = 10_000;

export function createTokenService(app: FastifyInstance, db: Db, clock: Clock): TokenService {
  const verified = new Map<string, Claims>();
  const memberById = db
    .select()
    .from(members)
    .where(eq(members.id, sql.placeholder('id')))
    .prepare();
  // Every authenticated call reads its member: kept until a write touches the member (a password
  // change, which moves the token version, is one), so a read-only call costs a map lookup.
  const memberCache = createReadCache<Member | undefined>(10_000);
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
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
    verified.set(token, claims);
    return claims;
  };
  return {
    sign(member) {
      const iat = Math.floor(clock.now() / 1000);
      const claims: Claims = { sub: String(member.id), username: member.username, tv: member.tokenVersion, iat, exp: iat + TOKEN_TTL_SECONDS };
      return app.jwt.sign(claims);
    },
    verify(token) {
      const claims = claimsOf(token);
      // Every token this server signs has an exp: one without (signed elsewhere with the key) is refused.
      if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) throw unauthorized(MSG.invalidAuthentication);
      // fast-jwt still accepts the exp instant itself; RFC 7519 says a token is expired from it on.
      if (claims.exp * 1000 <= clock.now()) throw unauthorized(MSG.sessionExpired);
      const id = Number(claims.sub);
      const member = memberCache.get(db.$client, id, 'member', () => memberById.get({ id }));
      if (!member || member.username !== claims.username) throw unauthorized(MSG.invalidAuthentication);
      if (member.tokenVersion !== claims.tv) throw unauthorized(MSG.sessionExpired);
      return member;
    },
  };
}
