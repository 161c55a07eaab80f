/**
 * Incomes (DESIGN §6): every income but rank rewards is paid against the earner's ACTIVE
 * subscriptions' remaining 3x cap, oldest subscription first; the part past the cap is not
 * paid. Level income and the purchase's volume are written inside buyPackage's transaction.
 */
import { amountToMicros, microsToAmount, formatMoney } from '@md/shared';
import type { MemberWallet, TransferReason } from '@md/db';
import type { Services } from '../../core/services.ts';
import { creditFromSystem, type SystemCredit } from '../ledger/ledger.ts';
import { prepared } from '../ledger/sql.ts';
import { notifyMany, type NotificationRow } from '../notifications/notify.ts';

export { prepared };

export type EngineCtx = Pick<Services, 'sqlite' | 'db' | 'clock' | 'plan'>;

export const CAP_REACHED_REASON = 'Max earnings reached (3x)';
/** Level income percentages in basis points (1000 = 10.00 %): level 1 → Direct, 2–5 → Level. */
export const LEVEL_PERCENTAGES = [1000, 100, 100, 100, 100] as const;
/** Binary income: 10 % of the matched volume. */
export const BINARY_BASIS_POINTS = 1000;

/** `basisPoints` / 10,000 of `micros`, truncated, exact for every safe integer (no float rounding). */
export function percentOf(micros: number, basisPoints: number): number {
  return Math.floor(micros / 10_000) * basisPoints + Math.floor(((micros % 10_000) * basisPoints) / 10_000);
}

/** What a payout takes from one subscription's cap. */
export interface CapTake {
  subscriptionId: number;
  /** Micro-units added to total_earnings. */
  take: number;
  /** The take fills the cap: the subscription becomes EXPIRED at `at`. */
  expires: boolean;
  at: number;
}

/**
 * Payouts decided inside one transaction, written together by writePayouts before it commits:
 * the daily runs pay thousands of members per chunk, and writing their caps, ledger credits and
 * notifications in one go costs a fraction of writing each on its own.
 */
export interface Payouts {
  caps: CapTake[];
  credits: SystemCredit[];
  notifications: NotificationRow[];
}
export const newPayouts = (): Payouts => ({ caps: [], credits: [], notifications: [] });

/** Writes the queued payouts (caps, credits from the payouts account, then their notifications, in queue order) and empties the queue. */
export function writePayouts(ctx: EngineCtx, payouts: Payouts): void {
  writeCaps(ctx, payouts.caps);
  creditFromSystem(ctx, 'payouts', payouts.credits);
  notifyMany(ctx, payouts.notifications);
  payouts.caps.length = 0;
  payouts.credits.length = 0;
  payouts.notifications.length = 0;
}

const CAP_ROWS = 64;
/** The queued cap takes, several subscriptions per statement (a statement per payout cost more than the payout's other writes). */
function writeCaps(ctx: EngineCtx, caps: readonly CapTake[]): void {
  // `or fail`: no statement journal for a multi-row update (see rowWriter); a failure throws and
  // rolls the caller's transaction back.
  const add = (rows: number) =>
    prepared(
      ctx.sqlite,
      `with v(id, take) as (values ${Array<string>(rows).fill('(?, ?)').join(', ')})
       update or fail subscriptions set total_earnings = total_earnings + v.take from v where subscriptions.id = v.id`,
    );
  const params: number[] = [];
  for (const cap of caps) {
    if (cap.expires) {
      prepared(ctx.sqlite, "update subscriptions set total_earnings = max_earnings, status = 'EXPIRED', reason = ?, end_date = ? where id = ?").run(
        CAP_REACHED_REASON,
        cap.at,
        cap.subscriptionId,
      );
      continue;
    }
    params.push(cap.subscriptionId, cap.take);
    if (params.length === CAP_ROWS * 2) {
      add(CAP_ROWS).run(params);
      params.length = 0;
    }
  }
  if (params.length > 0) add(params.length / 2).run(params);
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

export interface RoiSubscription extends ActiveSubscription {
  amount: number;
  bps: number;
  createdAt: number;
}

type SubscriptionTuple = [memberId: number, id: number, amount: number, bps: number, createdAt: number, maxEarnings: number, totalEarnings: number];
/** Groups subscription rows (member's oldest first) by member. Raw rows: better-sqlite3's objects cost more at 500,000 a day. */
function bySubscriber(rows: SubscriptionTuple[]): Map<number, RoiSubscription[]> {
  const grouped = new Map<number, RoiSubscription[]>();
  for (const [memberId, id, amount, bps, createdAt, maxEarnings, totalEarnings] of rows) {
    const subscription = { id, amount, bps, createdAt, maxEarnings, totalEarnings };
    const list = grouped.get(memberId);
    if (list) list.push(subscription);
    else grouped.set(memberId, [subscription]);
  }
  return grouped;
}
const SUBSCRIPTION_COLUMNS = 'member_id, id, amount, roi_basis_points, created_at, max_earnings, total_earnings';

/** The ACTIVE subscriptions of several members in one read, each member's oldest first; members without any are absent. */
export function activeSubscriptionsOf(ctx: Pick<Services, 'sqlite'>, memberIds: readonly number[]): Map<number, RoiSubscription[]> {
  if (memberIds.length === 0) return new Map();
  const statement = prepared(
    ctx.sqlite,
    `select ${SUBSCRIPTION_COLUMNS} from subscriptions where status = 'ACTIVE' and member_id in (select value from json_each(?)) order by member_id, created_at, id`,
  );
  return bySubscriber(statement.raw().all(JSON.stringify(memberIds)) as SubscriptionTuple[]);
}

/**
 * The ROI run's next members after `cursor`: the next `limit` members with an ACTIVE
 * subscription, with all their ACTIVE subscriptions, oldest first, read in one pass. Answers
 * them by member and the last of them, or undefined when none is left. A member whose every
 * subscription is newer than the run comes too (the caller skips it).
 */
export function roiSubscriptionsAfter(
  ctx: Pick<Services, 'sqlite'>,
  cursor: number,
  limit: number,
): { last: number; subscriptions: Map<number, RoiSubscription[]> } | undefined {
  // The chunk's last member from the (status, member_id) index alone, then its rows in one read:
  // a row at a time through the driver cost more than the rows themselves.
  const { last } = prepared(
    ctx.sqlite,
    "select max(member_id) as last from (select distinct member_id from subscriptions where status = 'ACTIVE' and member_id > ? order by member_id limit ?)",
  ).get(cursor, limit) as { last: number | null };
  if (last === null) return undefined;
  // `+status`: read through the (member_id, created_at) index, already in the order asked for,
  // rather than the status index and a sort.
  const rows = prepared(
    ctx.sqlite,
    `select ${SUBSCRIPTION_COLUMNS} from subscriptions where +status = 'ACTIVE' and member_id > ? and member_id <= ? order by member_id, created_at, id`,
  )
    .raw()
    .all(cursor, last) as SubscriptionTuple[];
  return { last, subscriptions: bySubscriber(rows) };
}

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
  /** The notification's text, given the amount received as the app writes money ("$1,500.00"). */
  message: (received: string) => string;
}

/**
 * Pays an income up to the member's remaining cap and answers what was received. Consumes the
 * cap oldest subscription first; a subscription reaching its cap becomes EXPIRED with its Reason.
 * What it takes from the caps, the credit and its notification are queued on `payouts` (the
 * caller writes them with writePayouts in the same transaction). `active` must be the member's
 * ACTIVE subscriptions as they stand now, this queue included: one payout per member between
 * two writePayouts (a list read before an earlier payout to the same member would spend the
 * cap twice). Caller holds the transaction.
 */
export function payCappedIncome(ctx: EngineCtx, input: IncomeInput, payouts: Payouts, active: readonly ActiveSubscription[] = activeSubscriptions(ctx, input.memberId)): number {
  if (input.expected <= 0) return 0;
  let left = input.expected;
  for (const subscription of active) {
    if (left === 0) break;
    const room = subscription.maxEarnings - subscription.totalEarnings;
    const take = Math.min(room, left);
    left -= take;
    payouts.caps.push({ subscriptionId: subscription.id, take, expires: take === room, at: input.at });
  }
  const received = input.expected - left;
  if (received > 0) {
    payouts.credits.push({
      transId: input.transId,
      memberId: input.memberId,
      wallet: input.wallet,
      amount: received,
      reason: input.reason,
      counterpartyMemberId: input.counterpartyMemberId ?? null,
      at: input.at,
    });
    payouts.notifications.push({ memberId: input.memberId, type: input.notificationType, message: input.message(formatMoney(microsToAmount(received))), transId: input.transId, createdAt: input.at });
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
  const payouts = newPayouts();
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
          ? `You earned ${usdt} direct income from ${purchase.buyerUsername}'s purchase.`
          : `You earned ${usdt} level ${level} income from ${purchase.buyerUsername}'s purchase.`,
    }, payouts);
    insert.run(transId, id, purchase.memberId, purchase.transId, level, percentage, purchase.amount, expected, received, purchase.at);
  }
  writePayouts(ctx, payouts);
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
