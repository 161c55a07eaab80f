/**
 * Packages (DESIGN §6): the list comes from the plan; a purchase is paid from the Deposit
 * wallet into `package_sales` and creates an ACTIVE subscription with its ROI and 3x cap.
 */
import { amountToMicros, EARNINGS_CAP_MULTIPLIER, maxCapOf, type PlanPackage } from '@md/shared';
import { subscriptions } from '@md/db';
import { badRequest } from '../../core/errors.ts';
import type { Handlers } from '../../transport/handlers.ts';
import type { MoneyCtx } from '../deposits/deposits.ts';
import { moneyTransaction, nextTransId, transfer, walletBalance } from '../ledger/ledger.ts';
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

/** ROI percentage in basis points (1.5 % → 150). */
export const roiBasisPoints = (pkg: PlanPackage) => Math.round(pkg.roiPercentage * 100);

/** Buys `planName` for the member. Synchronous: the seed calls it too. */
export function buyPackage(ctx: MoneyCtx, memberId: number, planName: string, at = ctx.clock.now()): SubscriptionRow {
  const pkg = findPackage(ctx, planName);
  if (!pkg) throw badRequest(PACKAGE_MESSAGES.unknown);
  const price = amountToMicros(pkg.price);
  return moneyTransaction(ctx, () => {
    if (walletBalance(ctx, memberId, 'Deposit') < price) throw badRequest(PACKAGE_MESSAGES.insufficient);
    const transId = nextTransId(ctx, 'PK', 'subscriptions');
    transfer(ctx, [{ transId, from: { member: memberId, wallet: 'Deposit' }, to: { system: 'package_sales' }, amount: price, reason: 'package_purchase', memberId, at }]);
    const subscription = ctx.db
      .insert(subscriptions)
      .values({
        transId,
        memberId,
        plan: pkg.name,
        amount: price,
        roiBasisPoints: roiBasisPoints(pkg),
        maxEarnings: price * EARNINGS_CAP_MULTIPLIER,
        totalEarnings: 0,
        binaryVolume: amountToMicros(pkg.binaryVolume),
        rankVolume: amountToMicros(pkg.rankVolume),
        wallet: 'Deposit',
        status: 'ACTIVE',
        createdAt: at,
      })
      .returning()
      .get();
    // Level income and the purchase's volume, inside the purchase's transaction (issue 4).
    const buyer = ctx.sqlite.prepare<[number], { username: string }>('select username from members where id = ?').get(memberId);
    onPurchase(ctx, {
      memberId,
      buyerUsername: buyer?.username ?? String(memberId),
      transId,
      amount: price,
      binaryVolume: subscription.binaryVolume,
      rankVolume: subscription.rankVolume,
      at,
    });
    notify(ctx, memberId, 'Package_Purchase', `You purchased the ${pkg.name} package for $${pkg.price}.`, transId, at);
    return subscription;
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
  'subscription.buy_subscription_packages': (ctx, input) => {
    const subscription = buyPackage(ctx, ctx.member.id, input.plan);
    return { Success: PACKAGE_MESSAGES.purchased(subscription.plan) };
  },
};
