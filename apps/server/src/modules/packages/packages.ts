/**
 * Packages (DESIGN §6): the list comes from the plan; a purchase is paid from the Deposit
 * wallet into `package_sales` and creates an ACTIVE subscription with its ROI and 3x cap.
 *
 * A purchase is idempotent over a short window (docs/decisions/money-and-ledger.md, "A purchase is idempotent over 10 seconds"): the
 * same member buying the same package again within PURCHASE_REPEAT_WINDOW_MS of their last purchase
 * of it (by the server's clock) is answered with that first purchase — same answer, no second
 * charge, no second subscription. Packages cannot be cancelled, so a double click, a retried
 * request or a second tab must not buy twice. The check reads `subscriptions` inside the
 * purchase's own transaction (BEGIN IMMEDIATE), so concurrent requests see each other: no
 * migration, no key to send. A member who does want the same package twice buys it again after
 * the window.
 */
import { amountToMicros, EARNINGS_CAP_MULTIPLIER, formatMoney, maxCapOf, type PlanPackage } from '@md/shared';
import { and, desc, eq, gt, lte, sql } from 'drizzle-orm';
import { subscriptions } from '@md/db';
import { badRequest } from '../../core/errors.ts';
import { perDatabase, prepared } from '../../core/prepared.ts';
import type { Handlers } from '../../transport/handlers.ts';
import type { MoneyCtx } from '../deposits/deposits.ts';
import { moneyAnswer, moneyTransaction, nextTransId, transfer, walletBalance } from '../ledger/ledger.ts';
import { notify } from '../notifications/notify.ts';
import { onPurchase } from '../engine/income.ts';

export const PACKAGE_MESSAGES = {
  unknown: 'Unknown package',
  insufficient: 'Insufficient balance in Deposit wallet',
  purchased: (name: string) => `Package ${name} purchased successfully`,
} as const;

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** A plan package by name (case-insensitive, as typed by a person or sent by the client). */
export const findPackage = (ctx: Pick<MoneyCtx, 'plan'>, name: string): PlanPackage | undefined =>
  ctx.plan.packages.find((p) => p.name.toLowerCase() === name.trim().toLowerCase());

/** How long a repeat of the same purchase (member, package) is answered with the first one. */
export const PURCHASE_REPEAT_WINDOW_MS = 10_000;

/** ROI percentage in basis points (1.5 % → 150). */
export const roiBasisPoints = (pkg: PlanPackage) => Math.round(pkg.roiPercentage * 100);

/**
 * The member's purchase of `plan` made within the repeat window before `at`, if any. Caller holds
 * the transaction. Bounded on both sides: a clock QA moved back must not make a later row count.
 * Prepared once per database, as the insert below (building a query's SQL cost more than running it).
 */
const recentPurchaseQuery = perDatabase((db) =>
  db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.memberId, sql.placeholder('memberId')),
        eq(subscriptions.plan, sql.placeholder('plan')),
        gt(subscriptions.createdAt, sql.placeholder('after')),
        lte(subscriptions.createdAt, sql.placeholder('at')),
      ),
    )
    // No `.limit(1)`: `get` reads the first row, and Drizzle binds a LIMIT, which costs a prepare at
    // every run (core/prepared.ts): 12.8 µs a check instead of 2.9.
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
    .prepare(),
);
const recentPurchase = (
  ctx: MoneyCtx,
  memberId: number,
  plan: string,
  at: number,
): SubscriptionRow | undefined =>
  recentPurchaseQuery(ctx.db).get({ memberId, plan, after: at - PURCHASE_REPEAT_WINDOW_MS, at });

const insertSubscription = perDatabase((db) =>
  db
    .insert(subscriptions)
    .values({
      transId: sql.placeholder('transId'),
      memberId: sql.placeholder('memberId'),
      plan: sql.placeholder('plan'),
      amount: sql.placeholder('amount'),
      roiBasisPoints: sql.placeholder('roiBasisPoints'),
      maxEarnings: sql.placeholder('maxEarnings'),
      totalEarnings: 0,
      binaryVolume: sql.placeholder('binaryVolume'),
      rankVolume: sql.placeholder('rankVolume'),
      wallet: 'Deposit',
      status: 'ACTIVE',
      createdAt: sql.placeholder('createdAt'),
    })
    .returning()
    .prepare(),
);

/** Buys `planName` for the member; the purchase made (or, within the repeat window, the one repeated). */
export const buyPackage = (ctx: MoneyCtx, memberId: number, planName: string, at = ctx.clock.now()) =>
  purchasePackage(ctx, memberId, planName, at).subscription;

/**
 * Buys `planName` for the member, or answers with the same purchase made within the repeat window
 * (see the module comment), `repeated`. Synchronous: the seed calls it too.
 */
export function purchasePackage(
  ctx: MoneyCtx,
  memberId: number,
  planName: string,
  at = ctx.clock.now(),
): { subscription: SubscriptionRow; repeated: boolean } {
  const pkg = findPackage(ctx, planName);
  if (!pkg) throw badRequest(PACKAGE_MESSAGES.unknown);
  const price = amountToMicros(pkg.price);
  return moneyTransaction(ctx, () => {
    // Before the balance check: a repeat is answered as the first purchase was, even when the
    // first one spent the balance a second would need.
    const repeated = recentPurchase(ctx, memberId, pkg.name, at);
    if (repeated) return { subscription: repeated, repeated: true };
    if (walletBalance(ctx, memberId, 'Deposit') < price)
      throw badRequest(PACKAGE_MESSAGES.insufficient, 'INSUFFICIENT_BALANCE');
    const transId = nextTransId(ctx, 'PK', 'subscriptions');
    transfer(ctx, [
      {
        transId,
        from: { member: memberId, wallet: 'Deposit' },
        to: { system: 'package_sales' },
        amount: price,
        reason: 'package_purchase',
        memberId,
        at,
      },
    ]);
    const subscription = insertSubscription(ctx.db).get({
      transId,
      memberId,
      plan: pkg.name,
      amount: price,
      roiBasisPoints: roiBasisPoints(pkg),
      maxEarnings: price * EARNINGS_CAP_MULTIPLIER,
      binaryVolume: amountToMicros(pkg.binaryVolume),
      rankVolume: amountToMicros(pkg.rankVolume),
      createdAt: at,
    });
    // Level income and the purchase's volume, inside the purchase's transaction, so a purchase and its income stand or fall together.
    const buyer = prepared(ctx.sqlite, 'select username from members where id = ?').get(memberId) as
      { username: string } | undefined;
    onPurchase(ctx, {
      memberId,
      buyerUsername: buyer?.username ?? String(memberId),
      transId,
      amount: price,
      binaryVolume: subscription.binaryVolume,
      rankVolume: subscription.rankVolume,
      at,
    });
    notify(
      ctx,
      memberId,
      'Package_Purchase',
      `You purchased the ${pkg.name} package for ${formatMoney(pkg.price)}.`,
      transId,
      at,
    );
    return { subscription, repeated: false };
  });
}

export const packageHandlers: Handlers = {
  'table.view_subscription': (ctx) => ({
    Success: ctx.plan.packages.map((p) => ({
      Name: p.name,
      Price: p.price,
      Max_Cap: maxCapOf(p),
      Binary_Volume: p.binaryVolume,
      Rank_Volume: p.rankVolume,
      ROI_Percentage: p.roiPercentage,
    })),
  }),
  'subscription.buy_subscription_packages': (ctx, input) =>
    moneyAnswer(ctx, () => {
      const { subscription, repeated } = purchasePackage(ctx, ctx.member.id, input.plan);
      // The first purchase's answer, and it says so (a client without a key may not know it sent twice).
      if (repeated) ctx.replayed?.();
      return { Success: PACKAGE_MESSAGES.purchased(subscription.plan) };
    }),
};
