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
const per = (points: number, windowMs: number, by: RateRule['by']): RateRule => ({ points, windowMs, by });
export const RATE_RULES: Partial<Record<ProcedureName, readonly RateRule[]>> = {
  'user.login': [per(20, MINUTE, 'client+account')],
  // The calls that mail a code: besides the per-name burst, one address cannot mail every name it knows.
  'user.verify_otp': [per(10, MINUTE, 'client+account'), per(60, 15 * MINUTE, 'client')],
  'user.register': [per(20, MINUTE, 'client+account')],
  'user.reset_password_email': [per(10, MINUTE, 'client+account'), per(30, 15 * MINUTE, 'client')],
  'user.reset_password': [per(10, MINUTE, 'client+account')],
  'user.forgot_username': [per(10, MINUTE, 'client')],
  'user.change_password': [per(10, MINUTE, 'client')],
  'user.change_email_request': [per(10, MINUTE, 'client')],
  'user.change_totp_status': [per(10, MINUTE, 'client')],
  'user.check_username_available': [per(120, MINUTE, 'client')],
  'user.view_country': [per(120, MINUTE, 'client')],
  'support.send_message': [per(5, MINUTE, 'client')],
};

export const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait a minute and try again.';

export function checkRateLimit(services: Services, name: ProcedureName, caller: Caller, body: Record<string, unknown>) {
  const rules = RATE_RULES[name];
  if (!rules || services.config.rateLimits === false) return;
  const counter = counterOf(services);
  const now = services.clock.now();
  // Every rule counts the call, so a refusal by one still spends the others.
  let refused = false;
  for (const [i, rule] of rules.entries()) {
    const who = rule.by === 'client+account' && typeof body.username === 'string' ? body.username.trim().toLowerCase() : '';
    if (counter.hit(`rate|${name}|${i}|${caller.ip}|${who}`, now, rule.windowMs) > rule.points) refused = true;
  }
  if (refused) throw tooMany(RATE_LIMITED_MESSAGE);
}
