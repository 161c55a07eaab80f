/**
 * Request-rate limits of the sensitive endpoints, applied inside invoke so REST and tRPC (batches
 * included) share them. Keyed by the client address (the socket's: trustProxy is off, so an
 * X-Forwarded-For header changes nothing), alone or with the username named in the body.
 * The brute-force limits on failed sign-ins and wrong codes live in core/attempts.ts.
 */
import type { ProcedureName } from '@md/shared';
import { counterOf } from '../core/attempts.ts';
import { tooMany } from '../core/errors.ts';
import type { Caller, Services } from '../core/services.ts';

export interface RateRule {
  points: number;
  windowMs: number;
  /** client: the address across every username (lookups that could list accounts); client+account: one address and one name. */
  by: 'client' | 'client+account';
}
const MINUTE = 60_000;
export const RATE_RULES: Partial<Record<ProcedureName, RateRule>> = {
  'user.login': { points: 20, windowMs: MINUTE, by: 'client+account' },
  'user.verify_otp': { points: 10, windowMs: MINUTE, by: 'client+account' },
  'user.register': { points: 20, windowMs: MINUTE, by: 'client+account' },
  'user.reset_password_email': { points: 10, windowMs: MINUTE, by: 'client+account' },
  'user.reset_password': { points: 10, windowMs: MINUTE, by: 'client+account' },
  'user.forgot_username': { points: 10, windowMs: MINUTE, by: 'client' },
  'user.change_password': { points: 10, windowMs: MINUTE, by: 'client' },
  'user.change_email_request': { points: 10, windowMs: MINUTE, by: 'client' },
  'user.change_totp_status': { points: 10, windowMs: MINUTE, by: 'client' },
  'user.check_username_available': { points: 120, windowMs: MINUTE, by: 'client' },
  'user.view_country': { points: 120, windowMs: MINUTE, by: 'client' },
  'support.send_message': { points: 5, windowMs: MINUTE, by: 'client' },
};

export const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait a minute and try again.';

export function checkRateLimit(services: Services, name: ProcedureName, caller: Caller, body: Record<string, unknown>) {
  const rule = RATE_RULES[name];
  if (!rule || services.config.rateLimits === false) return;
  const who = rule.by === 'client+account' && typeof body.username === 'string' ? body.username.trim().toLowerCase() : '';
  const count = counterOf(services).hit(`rate|${name}|${caller.ip}|${who}`, services.clock.now(), rule.windowMs);
  if (count > rule.points) throw tooMany(RATE_LIMITED_MESSAGE);
}
