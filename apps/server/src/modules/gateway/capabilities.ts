/**
 * What /config.json may advertise in front of a real provider. A capability tells the web app an
 * endpoint answers for the signed-in member; without it the app keeps the spec's fallback. In gateway
 * mode an endpoint routed to `mock` answers for the member's shadow (an empty ledger of this
 * stand-in), never the real member: a statement closing at 0 beside a wallet of 5,450. So a
 * capability is advertised only while every endpoint it names is answered by the provider (or a
 * recording of it) and the operator said the provider has it (PROVIDER_CAPABILITIES).
 */
import {
  contract,
  CURSOR_PAGING_CAPABILITY,
  IDEMPOTENCY_CAPABILITY,
  procedureNames,
  tableInput,
  type ProcedureName,
} from '@md/shared';
import type { Routing } from './routing.ts';

/** What this stand-in offers beyond the spec (besides `qa` while QA control is on). */
export const STANDIN_CAPABILITIES = [
  'captcha',
  'support',
  'activity',
  'downline_pages',
  'daily_series',
  'rank_progress',
  'binary_paths',
  'payout_details',
  'withdrawal_timeline',
  'statements',
  'team_summary',
  'binary_next_run',
  'rank_history',
  'notification_preferences',
  'web_push',
  'sessions',
  IDEMPOTENCY_CAPABILITY,
  CURSOR_PAGING_CAPABILITY,
] as const;

/** The endpoints whose answers a capability vouches for; none: it does not depend on who answers. */
function endpointsOf(capability: string): ProcedureName[] {
  const entries = procedureNames.filter((name) => {
    const entry = contract[name];
    if (capability === IDEMPOTENCY_CAPABILITY) return entry.idempotent === true;
    if (capability === CURSOR_PAGING_CAPABILITY) return entry.input === tableInput;
    if (capability === 'captcha') return name === 'user.forgot_username';
    return 'extension' in entry && entry.extension === capability;
  });
  return entries;
}

/**
 * The capabilities of `all` that the routing can answer for the real member now. Without a provider
 * every member is this stand-in's and all are advertised.
 */
export function honestCapabilities(
  all: readonly string[],
  routing: Pick<Routing, 'targetOf'>,
  provider: { capabilities: readonly string[] } | undefined,
): string[] {
  if (!provider) return [...all];
  return all.filter((capability) =>
    endpointsOf(capability).every(
      (name) => routing.targetOf(name) !== 'mock' && provider.capabilities.includes(capability),
    ),
  );
}
