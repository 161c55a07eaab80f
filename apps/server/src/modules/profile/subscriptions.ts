/**
 * Whether a member holds an ACTIVE subscription. There are no subscriptions yet: the money
 * issue (issue 3) fills this in from its subscriptions table; every caller already asks here.
 */
import type { Services } from '../../core/services.ts';

export function hasActiveSubscription(_ctx: Pick<Services, 'db'>, _memberId: number): boolean {
  return false;
}

/** Name of the member's current (latest active) package, or null. Filled in with subscriptions. */
export function currentPackageName(_ctx: Pick<Services, 'db'>, _memberId: number): string | null {
  return null;
}
