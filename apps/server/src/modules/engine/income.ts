/**
 * Incomes (DESIGN §6): every income but rank rewards is paid against the earner's ACTIVE
 * subscriptions' remaining 3x cap, oldest subscription first; the part past the cap is not
 * paid. Level income and the purchase's volume are written inside buyPackage's transaction.
 */
import type Database from 'better-sqlite3';
import { amountToMicros, microsToAmount } from '@md/shared';
import type { MemberWallet, TransferReason } from '@md/db';
import type { Services } from '../../core/services.ts';
import { transfer } from '../ledger/ledger.ts';

export type EngineCtx = Pick<Services, 'sqlite' | 'db' | 'clock' | 'plan'>;

export const CAP_REACHED_REASON = 'Max earnings reached (3x)';
/** Level income percentages in basis points (1000 = 10.00 %): level 1 → Direct, 2–5 → Level. */
export const LEVEL_PERCENTAGES = [1000, 100, 100, 100, 100] as const;
/** Binary income: 10 % of the matched volume. */
export const BINARY_BASIS_POINTS = 1000;

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();
/** Prepared statements cached per connection: the daily runs call these per member. */
export function prepared(sqlite: Database.Database, source: string): Database.Statement {
  let statements = cache.get(sqlite);
  if (!statements) cache.set(sqlite, (statements = new Map()));
  let statement = statements.get(source);
  if (!statement) statements.set(source, (statement = sqlite.prepare(source)));
  return statement;
}

/** `basisPoints` / 10,000 of `micros`, truncated, exact for every safe integer (no float rounding). */
export function percentOf(micros: number, basisPoints: number): number {
  return Math.floor(micros / 10_000) * basisPoints + Math.floor(((micros % 10_000) * basisPoints) / 10_000);
}

/**
 * A notification, as notify() writes it, through a cached prepared statement: the daily runs
 * write one per payout (50,000 a day at 100,000 members) and the query builder's per-call cost
 * dominated the ROI run.
 */
export function notifyFast(ctx: Pick<Services, 'sqlite'>, memberId: number, type: string, message: string, transId: string, at: number): void {
  prepared(ctx.sqlite, 'insert into notifications (member_id, type, message, trans_id, created_at) values (?, ?, ?, ?, ?)').run(memberId, type, message, transId, at);
}

export interface ActiveSubscription {
  id: number;
  maxEarnings: number;
  totalEarnings: number;
}

/** The member's ACTIVE subscriptions, oldest first (the order the cap is consumed in). */
export const activeSubscriptions = (ctx: Pick<Services, 'sqlite'>, memberId: number) =>
  prepared(
    ctx.sqlite,
    "select id, max_earnings as maxEarnings, total_earnings as totalEarnings from subscriptions where member_id = ? and status = 'ACTIVE' order by created_at, id",
  ).all(memberId) as ActiveSubscription[];

export interface IncomeInput {
  memberId: number;
  wallet: MemberWallet;
  reason: TransferReason;
  /** What the rules say is earned, micro-units. */
  expected: number;
  transId: string;
  at: number;
  counterpartyMemberId?: number | null;
  notificationType: string;
  /** The notification text for the amount received (USDT). */
  message: (received: number) => string;
}

/**
 * Pays an income up to the member's remaining cap and answers what was received. Consumes the
 * cap oldest subscription first; a subscription reaching its cap becomes EXPIRED with its Reason.
 * Caller holds the transaction.
 */
export function payCappedIncome(ctx: EngineCtx, input: IncomeInput, active: readonly ActiveSubscription[] = activeSubscriptions(ctx, input.memberId)): number {
  if (input.expected <= 0) return 0;
  let left = input.expected;
  for (const subscription of active) {
    if (left === 0) break;
    const room = subscription.maxEarnings - subscription.totalEarnings;
    const take = Math.min(room, left);
    left -= take;
    if (take === room) {
      prepared(ctx.sqlite, "update subscriptions set total_earnings = max_earnings, status = 'EXPIRED', reason = ?, end_date = ? where id = ?").run(
        CAP_REACHED_REASON,
        input.at,
        subscription.id,
      );
    } else {
      prepared(ctx.sqlite, 'update subscriptions set total_earnings = total_earnings + ? where id = ?').run(take, subscription.id);
    }
  }
  const received = input.expected - left;
  if (received > 0) {
    transfer(ctx, [
      {
        transId: input.transId,
        from: { system: 'payouts' },
        to: { member: input.memberId, wallet: input.wallet },
        amount: received,
        reason: input.reason,
        memberId: input.memberId,
        counterpartyMemberId: input.counterpartyMemberId ?? null,
        at: input.at,
      },
    ]);
    notifyFast(ctx, input.memberId, input.notificationType, input.message(microsToAmount(received)), input.transId, input.at);
  }
  return received;
}

interface Purchase {
  memberId: number;
  buyerUsername: string;
  transId: string;
  amount: number;
  binaryVolume: number;
  rankVolume: number;
  at: number;
}

/**
 * Level income of a purchase: the five sponsors above the buyer (one recursive query), each
 * with a level_incomes row of expected vs received (0 without an ACTIVE subscription).
 */
export function payLevelIncome(ctx: EngineCtx, purchase: Purchase): void {
  const uplines = prepared(
    ctx.sqlite,
    `with recursive up(id, level) as (
       select sponsor_id, 1 from members where id = @buyer and sponsor_id is not null
       union all
       select m.sponsor_id, up.level + 1 from members m join up on m.id = up.id where m.sponsor_id is not null and up.level < ${LEVEL_PERCENTAGES.length}
     )
     select id, level from up order by level`,
  ).all({ buyer: purchase.memberId }) as { id: number; level: number }[];
  const insert = prepared(
    ctx.sqlite,
    `insert into level_incomes (trans_id, member_id, from_member_id, subscription_trans_id, level, percentage, subs_amount, expected_amount, received_amount, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const { id, level } of uplines) {
    const percentage = LEVEL_PERCENTAGES[level - 1]!;
    const expected = percentOf(purchase.amount, percentage);
    const transId = `LI${purchase.transId}L${level}`;
    const direct = level === 1;
    const received = payCappedIncome(ctx, {
      memberId: id,
      wallet: direct ? 'Direct' : 'Level',
      reason: direct ? 'direct_income' : 'level_income',
      expected,
      transId,
      at: purchase.at,
      counterpartyMemberId: purchase.memberId,
      notificationType: direct ? 'Direct_Income' : 'Level_Income',
      message: (usdt) =>
        direct
          ? `You earned $${usdt} direct income from ${purchase.buyerUsername}'s purchase.`
          : `You earned $${usdt} level ${level} income from ${purchase.buyerUsername}'s purchase.`,
    });
    insert.run(transId, id, purchase.memberId, purchase.transId, level, percentage, purchase.amount, expected, received, purchase.at);
  }
}

/** Records the purchase's volumes once, on the buyer; the daily binary run folds them up the tree. */
export function recordPurchaseVolume(ctx: EngineCtx, purchase: Purchase): void {
  const updated = prepared(
    ctx.sqlite,
    'update binary_stats set own_binary_pending = own_binary_pending + ?, own_rank_pending = own_rank_pending + ? where member_id = ?',
  ).run(purchase.binaryVolume, purchase.rankVolume, purchase.memberId);
  // A member inserted outside insertMember (bulk scripts) has no row yet: depth is found by the next run.
  if (updated.changes === 0) {
    prepared(ctx.sqlite, 'insert into binary_stats (member_id, depth, own_binary_pending, own_rank_pending) values (?, -1, ?, ?)').run(
      purchase.memberId,
      purchase.binaryVolume,
      purchase.rankVolume,
    );
  }
}

/** Everything issue 4 does on a purchase; inside buyPackage's transaction. */
export function onPurchase(ctx: EngineCtx, purchase: Purchase): void {
  payLevelIncome(ctx, purchase);
  recordPurchaseVolume(ctx, purchase);
}

/** Rank thresholds of the plan in micro-units. */
export const ranksInMicros = (ctx: Pick<Services, 'plan'>) =>
  ctx.plan.ranks.map((r) => ({ ...r, left: amountToMicros(r.leftVolume), right: amountToMicros(r.rightVolume), rewardMicros: amountToMicros(r.reward) }));
