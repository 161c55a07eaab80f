/**
 * Incomes (DESIGN §6): every income but rank rewards is paid against the earner's ACTIVE
 * subscriptions' remaining 3x cap, oldest subscription first; the part past the cap is not
 * paid. Level income and the purchase's volume are written inside buyPackage's transaction.
 */
import { amountToMicros, microsToAmount, formatMoney } from '@md/shared';
import type { MemberWallet, TransferReason } from '@md/db';
import type { Services } from '../../core/services.ts';
import {
  creditFromSystem,
  creditStagedFromSystem,
  openStagedCredits,
  type SystemCredit,
} from '../ledger/ledger.ts';
import { moneyTextSql, prepared, rowWriter } from '../ledger/sql.ts';
import { purchaseIncomeNotice } from '../notifications/notices.ts';
import { notifyMany, type NotificationRow } from '../notifications/notify.ts';
import { EVENT_OF_TYPE } from '../notifications/preferences.ts';
import { queueStagedPayoutPushes } from '../push/push.ts';

export { moneyTextSql, prepared };

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
      prepared(
        ctx.sqlite,
        "update subscriptions set total_earnings = max_earnings, status = 'EXPIRED', reason = ?, end_date = ? where id = ?",
      ).run(CAP_REACHED_REASON, cap.at, cap.subscriptionId);
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

/** percentOf in SQL, over integer expressions (SQLite's integer division truncates, as Math.floor of non-negative values). */
export const percentSql = (micros: string, basisPoints: string | number) =>
  `((${micros}) / 10000 * (${basisPoints}) + ((${micros}) % 10000) * (${basisPoints}) / 10000)`;

/** What a kind of capped income writes besides its amount: the credit's wallet and reason, its TransID and notification. */
export interface StagedIncomeKind {
  wallet: MemberWallet;
  reason: TransferReason;
  /** The TransID is this, the compact business date, 'M' and the member id. */
  transIdPrefix: string;
  notificationType: string;
  /** SQL of the notification text, given SQL of the amount received and of the staged income's detail; `@date` is the business date. */
  message: (received: string, detail: string) => string;
  /**
   * The notice is read from the credit (notifications/notices.ts) instead of stored: only the
   * members who had payout notices off in the app are written, as withheld.
   */
  noticeFromCredit?: boolean;
}

/**
 * Opens this connection's staged incomes, empty: temporary tables (never on disk) where a daily
 * run's chunk puts what each of its members is owed (temp.engine_incomes: member_id, expected
 * micro-units, and a detail for the message), to be paid by payStagedIncomes. Caller holds the
 * transaction.
 */
export function openStagedIncomes(ctx: Pick<Services, 'sqlite'>): void {
  prepared(
    ctx.sqlite,
    'create temp table if not exists engine_incomes (member_id integer primary key, expected integer not null, detail integer not null default 0)',
  ).run();
  prepared(
    ctx.sqlite,
    'create temp table if not exists engine_caps (subscription_id integer primary key, member_id integer not null, take integer not null, expires integer not null)',
  ).run();
  prepared(ctx.sqlite, 'delete from temp.engine_incomes').run();
  prepared(ctx.sqlite, 'delete from temp.engine_caps').run();
}

/**
 * Pays every staged income (openStagedIncomes) as payCappedIncome pays one, in a fixed number of
 * statements: each member's expected amount is taken from its ACTIVE subscriptions' remaining
 * caps, oldest first (a running sum of the rooms before each one), a subscription whose cap is
 * filled becomes EXPIRED with its Reason, and what was received is credited from the payouts
 * account (creditStagedFromSystem) with its notice (stored, or read from the credit: notices.ts),
 * in member order. A member is staged once per chunk, so the caps read are still its own when
 * paid. Answers the count and total paid. Caller holds the transaction.
 */
export function payStagedIncomes(
  ctx: EngineCtx,
  kind: StagedIncomeKind,
  date: string,
  at: number,
): { count: number; total: number } {
  // `cross join`: the staged members drive the join, each one's subscriptions read through the
  // (member_id, created_at) index (the temporary table has no statistics: left to itself, the
  // planner scanned every subscription for each chunk).
  prepared(
    ctx.sqlite,
    `insert into temp.engine_caps (subscription_id, member_id, take, expires)
     select id, member_id, min(room, expected - before), min(room, expected - before) = room
       from (select s.id, s.member_id, i.expected, s.max_earnings - s.total_earnings as room,
                    coalesce(sum(s.max_earnings - s.total_earnings) over (partition by s.member_id order by s.created_at, s.id rows between unbounded preceding and 1 preceding), 0) as before
               from temp.engine_incomes i cross join subscriptions s on s.member_id = i.member_id and +s.status = 'ACTIVE'
              where i.expected > 0)
      where before < expected`,
  ).run();
  // `or fail`: no statement journal for a multi-row update (see rowWriter); a failure throws and
  // rolls the caller's transaction back. The caps are the outer loop (a subquery, materialized),
  // the subscriptions looked up by id: joined directly, the planner scanned every subscription.
  prepared(
    ctx.sqlite,
    `update or fail subscriptions set total_earnings = total_earnings + c.take,
            status = case when c.expires then 'EXPIRED' else status end,
            reason = case when c.expires then @reason else reason end,
            end_date = case when c.expires then @at else end_date end
       from (select * from temp.engine_caps order by subscription_id) c where subscriptions.id = c.subscription_id`,
  ).run({ reason: CAP_REACHED_REASON, at });
  openStagedCredits(ctx);
  prepared(
    ctx.sqlite,
    `insert into temp.staged_credits (trans_id, member_id, wallet, amount, reason, counterparty_member_id, created_at)
     select @prefix || @compact || 'M' || member_id, member_id, @wallet, received, @reason, null, @at
       from (select member_id, sum(take) as received from temp.engine_caps group by member_id) where received > 0 order by member_id`,
  ).run({
    prefix: kind.transIdPrefix,
    compact: date.replaceAll('-', ''),
    wallet: kind.wallet,
    reason: kind.reason,
    at,
  });
  const event = EVENT_OF_TYPE[kind.notificationType] ?? kind.notificationType;
  // A member who turned payout notices off in the app gets none, as notify() would decide.
  const muted = `exists (select 1 from notification_preferences p where p.member_id = c.member_id and p.event = @event and p.in_app = 0)`;
  if (kind.noticeFromCredit)
    prepared(
      ctx.sqlite,
      `insert or fail into notices_withheld (member_id, trans_id)
       select c.member_id, c.trans_id from temp.staged_credits c where ${muted} order by c.member_id`,
    ).run({ event });
  else
    prepared(
      ctx.sqlite,
      `insert or fail into notifications (member_id, type, message, trans_id, created_at)
       select c.member_id, @type, ${kind.message('c.amount', 'i.detail')}, c.trans_id, c.created_at
         from temp.staged_credits c join temp.engine_incomes i on i.member_id = c.member_id
        where not ${muted}
        order by c.seq`,
    ).run({ type: kind.notificationType, date, event });
  // The same notices to the devices of members who turned push on (sent once the run's chunk commits).
  queueStagedPayoutPushes(ctx, kind.notificationType, kind.message('c.amount', 'i.detail'), { date });
  return creditStagedFromSystem(ctx, 'payouts');
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
  /** The notification's text, given the amount received as the app writes money ("$1,500.00"). */
  message: (received: string) => string;
  /** The list reads the notice from the credit (notices.ts): only its push is queued here. */
  noticeFromCredit?: boolean;
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
export function payCappedIncome(
  ctx: EngineCtx,
  input: IncomeInput,
  payouts: Payouts,
  active: readonly ActiveSubscription[] = activeSubscriptions(ctx, input.memberId),
): number {
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
    payouts.notifications.push({
      memberId: input.memberId,
      type: input.notificationType,
      message: input.message(formatMoney(microsToAmount(received))),
      transId: input.transId,
      createdAt: input.at,
      fromCredit: input.noticeFromCredit,
    });
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

/** The level_incomes row as the writers fill it (a purchase's level income, the scale seed). */
export const LEVEL_INCOME_COLUMNS = [
  'trans_id',
  'member_id',
  'from_member_id',
  'subscription_trans_id',
  'level',
  'percentage',
  'subs_amount',
  'expected_amount',
  'received_amount',
  'created_at',
] as const;

/**
 * Level income of a purchase: the five sponsors above the buyer and their ACTIVE subscriptions
 * (one recursive query), each with a level_incomes row of expected vs received (0 without an
 * ACTIVE subscription), the rows through one row writer (ledger/sql.ts). A purchase is most of the write path's CPU:
 * a query per sponsor and a statement per row cost more than what they read and wrote.
 */
export function payLevelIncome(ctx: EngineCtx, purchase: Purchase): void {
  // The sponsors are distinct members (the tree has no cycles): each one's list is its own, as
  // payCappedIncome requires. `+s.status`: the (member_id, created_at) index gives the order.
  const rows = prepared(
    ctx.sqlite,
    `with recursive up(id, level) as (
       select sponsor_id, 1 from members where id = @buyer and sponsor_id is not null
       union all
       select m.sponsor_id, up.level + 1 from members m join up on m.id = up.id where m.sponsor_id is not null and up.level < ${LEVEL_PERCENTAGES.length}
     )
     select up.id, up.level, s.id as subscriptionId, s.max_earnings as maxEarnings, s.total_earnings as totalEarnings
       from up left join subscriptions s on s.member_id = up.id and +s.status = 'ACTIVE'
      order by up.level, s.created_at, s.id`,
  ).all({ buyer: purchase.memberId }) as {
    id: number;
    level: number;
    subscriptionId: number | null;
    maxEarnings: number;
    totalEarnings: number;
  }[];
  const uplines: { id: number; level: number; active: ActiveSubscription[] }[] = [];
  for (const row of rows) {
    let upline = uplines.at(-1);
    if (upline?.level !== row.level) uplines.push((upline = { id: row.id, level: row.level, active: [] }));
    if (row.subscriptionId !== null)
      upline.active.push({
        id: row.subscriptionId,
        maxEarnings: row.maxEarnings,
        totalEarnings: row.totalEarnings,
      });
  }
  if (uplines.length === 0) return;
  const payouts = newPayouts();
  const incomes = rowWriter(ctx.sqlite, 'level_incomes', LEVEL_INCOME_COLUMNS);
  for (const { id, level, active } of uplines) {
    const percentage = LEVEL_PERCENTAGES[level - 1]!;
    const expected = percentOf(purchase.amount, percentage);
    const transId = `LI${purchase.transId}L${level}`;
    const direct = level === 1;
    const received = payCappedIncome(
      ctx,
      {
        memberId: id,
        wallet: direct ? 'Direct' : 'Level',
        reason: direct ? 'direct_income' : 'level_income',
        expected,
        transId,
        at: purchase.at,
        counterpartyMemberId: purchase.memberId,
        notificationType: direct ? 'Direct_Income' : 'Level_Income',
        message: (usdt) => purchaseIncomeNotice(usdt, level, purchase.buyerUsername),
        noticeFromCredit: true,
      },
      payouts,
      active,
    );
    incomes.push([
      transId,
      id,
      purchase.memberId,
      purchase.transId,
      level,
      percentage,
      purchase.amount,
      expected,
      received,
      purchase.at,
    ]);
  }
  incomes.end();
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
    prepared(
      ctx.sqlite,
      'insert into binary_stats (member_id, depth, own_binary_pending, own_rank_pending) values (?, -1, ?, ?)',
    ).run(purchase.memberId, purchase.binaryVolume, purchase.rankVolume);
  }
}

/** What the income engine does on a purchase (level income, volumes, the rank check); inside buyPackage's transaction. */
export function onPurchase(ctx: EngineCtx, purchase: Purchase): void {
  payLevelIncome(ctx, purchase);
  recordPurchaseVolume(ctx, purchase);
}

/** Rank thresholds of the plan in micro-units. */
export const ranksInMicros = (ctx: Pick<Services, 'plan'>) =>
  ctx.plan.ranks.map((r) => ({
    ...r,
    left: amountToMicros(r.leftVolume),
    right: amountToMicros(r.rightVolume),
    rewardMicros: amountToMicros(r.reward),
  }));
