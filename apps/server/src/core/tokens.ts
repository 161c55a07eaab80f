/** Session tokens: HS256 only, expiring, revoked when the member's token version moves on. */
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { members, type Db } from '@md/db';
import { MSG } from '@md/shared';
import { unauthorized } from './errors.ts';
import type { Clock } from './clock.ts';
import type { TokenService } from './services.ts';

export const TOKEN_TTL_SECONDS = 24 * 60 * 60;

interface Claims {
  sub: string;
  username: string;
  tv: number;
  iat: number;
  exp: number;
}

export function createTokenService(app: FastifyInstance, db: Db, clock: Clock): TokenService {
  return {
    sign(member) {
      const iat = Math.floor(clock.now() / 1000);
      const claims: Claims = { sub: String(member.id), username: member.username, tv: member.tokenVersion, iat, exp: iat + TOKEN_TTL_SECONDS };
      return app.jwt.sign(claims);
    },
    verify(token) {
      let claims: Claims;
      try {
        claims = app.jwt.verify<Claims>(token, { clockTimestamp: clock.now(), algorithms: ['HS256'] });
      } catch (error) {
        const code = (error as { code?: string }).code;
        throw unauthorized(code === 'FAST_JWT_EXPIRED' ? MSG.sessionExpired : MSG.invalidAuthentication);
      }
      // fast-jwt still accepts the exp instant itself; RFC 7519 says a token is expired from it on.
      if (claims.exp * 1000 <= clock.now()) throw unauthorized(MSG.sessionExpired);
      const member = db.select().from(members).where(eq(members.id, Number(claims.sub))).get();
      if (!member || member.username !== claims.username) throw unauthorized(MSG.invalidAuthentication);
      if (member.tokenVersion !== claims.tv) throw unauthorized(MSG.sessionExpired);
      return member;
    },
  };
}
