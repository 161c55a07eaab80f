/**
 * Rate limits of the sensitive endpoints, applied inside invoke so REST and tRPC share them.
 * Keyed by endpoint and client address (and the username named in the body, for login).
 */
import type { ProcedureName } from '@md/shared';
import { tooMany } from '../core/errors.ts';
import type { Caller, Services } from '../core/services.ts';

interface Rule {
  points: number;
  windowMs: number;
}
const RULES: Partial<Record<ProcedureName, Rule>> = {
  'user.login': { points: 20, windowMs: 60_000 },
  'user.verify_otp': { points: 10, windowMs: 60_000 },
  'user.register': { points: 20, windowMs: 60_000 },
  'user.reset_password_email': { points: 10, windowMs: 60_000 },
  'user.reset_password': { points: 10, windowMs: 60_000 },
  'user.forgot_username': { points: 10, windowMs: 60_000 },
  'user.change_password': { points: 10, windowMs: 60_000 },
  'user.change_email_request': { points: 10, windowMs: 60_000 },
  'user.change_totp_status': { points: 10, windowMs: 60_000 },
  'user.check_username_available': { points: 120, windowMs: 60_000 },
  'user.view_country': { points: 120, windowMs: 60_000 },
  'support.send_message': { points: 5, windowMs: 60_000 },
};

const windows = new WeakMap<Services, Map<string, { start: number; count: number }>>();

export function checkRateLimit(services: Services, name: ProcedureName, caller: Caller, body: Record<string, unknown>) {
  const rule = RULES[name];
  if (!rule || services.config.rateLimits === false) return;
  let buckets = windows.get(services);
  if (!buckets) windows.set(services, (buckets = new Map()));
  const who = typeof body.username === 'string' ? body.username.toLowerCase() : '';
  const key = `${name}|${caller.ip}|${who}`;
  const now = services.clock.now();
  const bucket = buckets.get(key);
  if (!bucket || now - bucket.start >= rule.windowMs) {
    buckets.set(key, { start: now, count: 1 });
    return;
  }
  bucket.count += 1;
  if (bucket.count > rule.points) throw tooMany('Too many requests. Please wait a minute and try again.');
}
