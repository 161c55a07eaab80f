/** Subscription facts other modules ask about: whether a member holds an ACTIVE one, and which. */
import { and, desc, eq, sql } from 'drizzle-orm';
import { subscriptions } from '@md/db';
import { perDatabase } from '../../core/prepared.ts';
import type { Services } from '../../core/services.ts';

const mine = and(eq(subscriptions.memberId, sql.placeholder('member')), eq(subscriptions.status, 'ACTIVE'));
// No `.limit(1)`: `get` reads the first row, and Drizzle binds a LIMIT, which costs a prepare at every
// run (core/prepared.ts).
const queries = perDatabase((db) => ({
  active: db.select({ id: subscriptions.id }).from(subscriptions).where(mine).prepare(),
  current: db
    .select({ plan: subscriptions.plan })
    .from(subscriptions)
    .where(mine)
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
    .prepare(),
}));

export function hasActiveSubscription(ctx: Pick<Services, 'db'>, memberId: number): boolean {
  return Boolean(queries(ctx.db).active.get({ member: memberId }));
}

/** Name of the member's current (latest active) package, or null when it holds no ACTIVE one. */
export function currentPackageName(ctx: Pick<Services, 'db'>, memberId: number): string | null {
  return queries(ctx.db).current.get({ member: memberId })?.plan ?? null;
}
