/** Subscription facts other modules ask about: whether a member holds an ACTIVE one, and which. */
import { and, desc, eq } from 'drizzle-orm';
import { subscriptions } from '@md/db';
import type { Services } from '../../core/services.ts';

export function hasActiveSubscription(ctx: Pick<Services, 'db'>, memberId: number): boolean {
  return Boolean(
    ctx.db.select({ id: subscriptions.id }).from(subscriptions).where(and(eq(subscriptions.memberId, memberId), eq(subscriptions.status, 'ACTIVE'))).limit(1).get(),
  );
}

/** Name of the member's current (latest active) package, or null. */
export function currentPackageName(ctx: Pick<Services, 'db'>, memberId: number): string | null {
  return (
    ctx.db
      .select({ plan: subscriptions.plan })
      .from(subscriptions)
      .where(and(eq(subscriptions.memberId, memberId), eq(subscriptions.status, 'ACTIVE')))
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
      .limit(1)
      .get()?.plan ?? null
  );
}
