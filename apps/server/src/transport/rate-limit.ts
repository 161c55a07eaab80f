/**
 * Request-rate limits of the sensitive endpoints, applied inside invoke so REST and tRPC (batches
 * included) share them. Keyed by the client address (the socket's: trustProxy is off, so an
 * X-Forwarded-For header changes nothing), alone or with the username named in the body, or by
 * the signed-in member whatever address it calls from.
 * The brute-force limits on failed sign-ins and wrong codes live in core/attempts.ts.
 */
import type { ProcedureName } from '@md/shared';
import { counterOf } from '../core/attempts.ts';
import { tooMany } from '../core/errors.ts';
import type { Caller, Services } from '../core/services.ts';

export interface RateRule {
  points: number;
  windowMs: number;
  /**
   * client: the address across every username (lookups that could list accounts); client+account:
   * one address and one name; member: the token's member (calls that cost the server real work).
   */
  by: 'client' | 'client+account' | 'member';
}
const MINUTE = 60_000;
const per = (points: number, windowMs: number, by: RateRule['by']): RateRule => ({ points, windowMs, by });
export const RATE_RULES: Partial<Record<ProcedureName, readonly RateRule[]>> = {
  // Per name, and per address whatever names it tries (a flood of made-up names is refused before any hash).
  'user.login': [per(20, MINUTE, 'client+account'), per(60, MINUTE, 'client')],
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
  // Tree reads walk the binary or sponsor tree: one member cannot keep the server busy with them.
  'binary.view_binary_downline': [per(300, MINUTE, 'member')],
  'binary.view_binary_downline_details': [per(300, MINUTE, 'member')],
  'level.view_downline': [per(300, MINUTE, 'member')],
  'level.view_downline_page': [per(300, MINUTE, 'member')],
  'level.downline_exist': [per(300, MINUTE, 'member')],
  // The dashboard's series and rank progress sum a member's history: the same bound.
  'earning.view_daily_earnings': [per(300, MINUTE, 'member')],
  'binary.view_daily_volume': [per(300, MINUTE, 'member')],
  'rank.view_rank_progress': [per(300, MINUTE, 'member')],
  // Extension binary_paths: a leg's bottom or a path by name walks up to a whole spillover leg.
  'binary.view_leg_bottom': [per(300, MINUTE, 'member')],
  'binary.view_path': [per(300, MINUTE, 'member')],
  // Payout details, withdrawal timelines and statements read a member's ledger: the same bound.
  'earning.view_payout_details': [per(300, MINUTE, 'member')],
  'withdraw.view_withdrawal_timeline': [per(300, MINUTE, 'member')],
  'wallet.view_statement': [per(300, MINUTE, 'member')],
  // The team in numbers walks both binary legs; the other glance reads sum a member's rows: the same bound.
  'team.view_team_summary': [per(300, MINUTE, 'member')],
  'binary.view_next_run': [per(300, MINUTE, 'member')],
  'rank.view_rank_history': [per(300, MINUTE, 'member')],
  'notification.view_preferences': [per(300, MINUTE, 'member')],
  'notification.update_preferences': [per(60, MINUTE, 'member')],
  // Extension sessions: each sign-out is a write; a member has no reason to send many.
  'user.logout': [per(30, MINUTE, 'member')],
  'user.view_sessions': [per(120, MINUTE, 'member')],
  'user.end_session': [per(30, MINUTE, 'member')],
  'user.end_other_sessions': [per(30, MINUTE, 'member')],
};

export const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait a minute and try again.';

export function checkRateLimit(
  services: Services,
  name: ProcedureName,
  caller: Caller,
  body: Record<string, unknown>,
  memberId?: number,
) {
  const rules = RATE_RULES[name];
  if (!rules || services.config.rateLimits === false) return;
  const counter = counterOf(services);
  const now = services.clock.now();
  // Every rule counts the call, so a refusal by one still spends the others.
  let refused = false;
  let retryAfterMs = 0;
  for (const [i, rule] of rules.entries()) {
    const key =
      rule.by === 'member'
        ? `rate|${name}|${i}|member|${memberId ?? caller.ip}`
        : `rate|${name}|${i}|${caller.ip}|${rule.by === 'client+account' && typeof body.username === 'string' ? body.username.trim().toLowerCase() : ''}`;
    const bucket = counter.take(key, now, rule.windowMs);
    if (bucket.count > rule.points) {
      refused = true;
      retryAfterMs = Math.max(retryAfterMs, bucket.until - now);
    }
  }
  if (refused) throw tooMany(RATE_LIMITED_MESSAGE, retryAfterMs / 1000);
}
