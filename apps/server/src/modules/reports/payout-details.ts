/**
 * Why a payout is what it is (capability `payout_details`), computed from what the engine already
 * records, never from figures kept for this purpose:
 * - binary: the run's volume rows (volume_entries, kind 'binary', the payout's TransID: one per leg
 *   that received volume) hold each leg's new volume and carry after the run; the carry before is
 *   the carry of the member's previous run row (carries change only in runs), and what was matched
 *   is what left the legs;
 * - direct and level income: its level_incomes row (from whom, level, percentage, the purchase);
 * - ROI: the member's packages that the run paid (bought by the run, not expired before it), each
 *   package's rate, the business day from the TransID;
 * - rank rewards: the rank_rewards row.
 * The cap room before a payout is what the 3x cap of the packages bought by then allowed, less
 * every capped income credited to the member before it (the engine consumes the cap in that
 * order, oldest package first, so the sum is what the packages' total_earnings held then).
 */
import { microsToAmount, type PayoutDetails } from '@md/shared';
import { notFound } from '../../core/errors.ts';
import { isoTime } from '../../core/iso-time.ts';
import { prepared } from '../../core/prepared.ts';
import type { AuthedCtx } from '../../core/services.ts';
import { BINARY_BASIS_POINTS, percentOf } from '../engine/income.ts';

export const PAYOUT_NOT_FOUND = 'Payout not found';

type Ctx = Pick<AuthedCtx, 'sqlite'>;
/** Ledger reasons the 3x cap bounds (every income but rank rewards, DESIGN §6). */
const CAPPED_REASONS = "('roi', 'direct_income', 'level_income', 'binary_income')";

const dayOf = (compact: string) => `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}`;

interface Credit {
  id: number;
  amount: number;
  wallet: string;
  at: number;
}

/** The ledger credit of a payout to the member (absent when the cap kept all of it back). */
function creditOf(ctx: Ctx, memberId: number, transId: string): Credit | undefined {
  return prepared(
    ctx.sqlite,
    `select t.id as id, t.amount as amount, a.wallet as wallet, t.created_at as at from transfers t join accounts a on a.id = t.to_account_id
      where t.trans_id = ? and a.member_id = ? order by t.id limit 1`,
  ).get(transId, memberId) as Credit | undefined;
}

/**
 * Cap room before a payout at `at`: the packages bought by then, less the capped income credited
 * before it (`creditId`, or everything up to `at` when the payout received nothing and so has no transfer).
 */
function capRoomBefore(ctx: Ctx, memberId: number, at: number, creditId: number | undefined): number {
  const { cap } = prepared(
    ctx.sqlite,
    'select coalesce(sum(max_earnings), 0) as cap from subscriptions where member_id = ? and created_at <= ?',
  ).get(memberId, at) as { cap: number };
  const { earned } = prepared(
    ctx.sqlite,
    `select coalesce(sum(t.amount), 0) as earned from transfers t join accounts a on a.id = t.to_account_id
      where a.member_id = @member and t.reason in ${CAPPED_REASONS} and ${creditId === undefined ? 't.created_at <= @at' : 't.id < @credit'}`,
  ).get({ member: memberId, at, credit: creditId ?? 0 }) as { earned: number };
  return Math.max(0, cap - earned);
}

function capped(ctx: Ctx, memberId: number, transId: string, at: number, expected: number, wallet: string) {
  const credit = creditOf(ctx, memberId, transId);
  const received = credit?.amount ?? 0;
  const room = capRoomBefore(ctx, memberId, at, credit?.id);
  return {
    DateTime: isoTime(credit?.at ?? at),
    Wallet: credit?.wallet ?? wallet,
    Expected: microsToAmount(expected),
    Received: microsToAmount(received),
    Cap_Taken: microsToAmount(expected - received),
    Cap_Headroom_Before: microsToAmount(room),
    Cap_Headroom_After: microsToAmount(room - received),
  };
}

const none = { Binary: null, Level: null, ROI: null, Rank: null };

interface VolumeRow {
  left_volume: number;
  left_carry: number;
  right_volume: number;
  right_carry: number;
  created_at: number;
}

function binaryDetails(
  ctx: Ctx,
  memberId: number,
  transId: string,
  compactDay: string,
): PayoutDetails | undefined {
  // The run wrote a row per leg that received volume (both rows carry the legs after the match).
  const row = prepared(
    ctx.sqlite,
    `select count(*) as count, sum(left_volume) as left_volume, max(left_carry) as left_carry, sum(right_volume) as right_volume, max(right_carry) as right_carry,
            max(created_at) as created_at
       from volume_entries where member_id = ? and kind = 'binary' and trans_id = ?`,
  ).get(memberId, transId) as (VolumeRow & { count: number }) | undefined;
  if (!row || row.count === 0) return undefined;
  const previous = prepared(
    ctx.sqlite,
    "select left_carry, right_carry from volume_entries where member_id = ? and kind = 'binary' and created_at < ? order by created_at desc, id desc limit 1",
  ).get(memberId, row.created_at) as { left_carry: number; right_carry: number } | undefined;
  const before = { left: previous?.left_carry ?? 0, right: previous?.right_carry ?? 0 };
  // What the run matched is what left the legs: the same on both sides, as nothing is flushed.
  const matched = Math.min(
    before.left + row.left_volume - row.left_carry,
    before.right + row.right_volume - row.right_carry,
  );
  const leg = (carryBefore: number, fresh: number, carried: number) => ({
    Carry_Before: microsToAmount(carryBefore),
    New_Volume: microsToAmount(fresh),
    Total: microsToAmount(carryBefore + fresh),
    Carried: microsToAmount(carried),
    Flushed: microsToAmount(carryBefore + fresh - matched - carried),
  });
  return {
    TransID: transId,
    Type: 'Binary',
    ...capped(ctx, memberId, transId, row.created_at, percentOf(matched, BINARY_BASIS_POINTS), 'Binary'),
    ...none,
    Binary: {
      Business_Date: dayOf(compactDay),
      Left: leg(before.left, row.left_volume, row.left_carry),
      Right: leg(before.right, row.right_volume, row.right_carry),
      Matched: microsToAmount(matched),
      Percentage: BINARY_BASIS_POINTS / 100,
    },
  };
}

function roiDetails(
  ctx: Ctx,
  memberId: number,
  transId: string,
  compactDay: string,
): PayoutDetails | undefined {
  const credit = creditOf(ctx, memberId, transId);
  // A run that paid nothing (every package at its cap) leaves no record to explain.
  if (!credit) return undefined;
  const packages = prepared(
    ctx.sqlite,
    `select trans_id, plan, amount, roi_basis_points as bps from subscriptions
      where member_id = @member and created_at <= @at and (end_date is null or end_date >= @at) order by created_at, id`,
  ).all({ member: memberId, at: credit.at }) as {
    trans_id: string;
    plan: string;
    amount: number;
    bps: number;
  }[];
  const expected = packages.reduce((sum, p) => sum + percentOf(p.amount, p.bps), 0);
  return {
    TransID: transId,
    Type: 'ROI',
    ...capped(ctx, memberId, transId, credit.at, expected, 'ROI'),
    ...none,
    ROI: {
      Business_Date: dayOf(compactDay),
      Packages: packages.map((p) => ({
        Name: p.plan,
        TransID: p.trans_id,
        Amount: microsToAmount(p.amount),
        ROI_Percentage: p.bps / 100,
        Daily: microsToAmount(percentOf(p.amount, p.bps)),
      })),
    },
  };
}

function levelDetails(ctx: Ctx, memberId: number, transId: string): PayoutDetails | undefined {
  const row = prepared(
    ctx.sqlite,
    `select l.level, l.percentage, l.subs_amount, l.expected_amount, l.subscription_trans_id, l.created_at, m.username as from_user
       from level_incomes l join members m on m.id = l.from_member_id where l.member_id = ? and l.trans_id = ?`,
  ).get(memberId, transId) as
    | {
        level: number;
        percentage: number;
        subs_amount: number;
        expected_amount: number;
        subscription_trans_id: string;
        created_at: number;
        from_user: string;
      }
    | undefined;
  if (!row) return undefined;
  const direct = row.level === 1;
  return {
    TransID: transId,
    Type: direct ? 'Direct' : 'Level',
    ...capped(ctx, memberId, transId, row.created_at, row.expected_amount, direct ? 'Direct' : 'Level'),
    ...none,
    Level: {
      From: row.from_user,
      Level: row.level,
      Percentage: row.percentage / 100,
      Subs_Amount: microsToAmount(row.subs_amount),
      Transaction_ID: row.subscription_trans_id,
    },
  };
}

function rankDetails(ctx: Ctx, memberId: number, transId: string): PayoutDetails | undefined {
  const row = prepared(
    ctx.sqlite,
    'select rank, reward, created_at from rank_rewards where member_id = ? and trans_id = ?',
  ).get(memberId, transId) as { rank: string; reward: number; created_at: number } | undefined;
  if (!row) return undefined;
  const credit = creditOf(ctx, memberId, transId);
  return {
    TransID: transId,
    Type: 'Rank',
    DateTime: isoTime(row.created_at),
    Wallet: credit?.wallet ?? 'Rank',
    Expected: microsToAmount(row.reward),
    Received: microsToAmount(credit?.amount ?? 0),
    Cap_Taken: microsToAmount(row.reward - (credit?.amount ?? 0)),
    Cap_Headroom_Before: null,
    Cap_Headroom_After: null,
    ...none,
    Rank: { Rank: row.rank },
  };
}

/** The details of one of the member's payouts by TransID; another member's or an unknown one is not found alike. */
export function payoutDetails(ctx: Ctx, memberId: number, transId: string): PayoutDetails {
  const run = /^(ROI|BV)(\d{8})M\d+$/.exec(transId);
  const found =
    run?.[1] === 'BV'
      ? binaryDetails(ctx, memberId, transId, run[2]!)
      : run?.[1] === 'ROI'
        ? roiDetails(ctx, memberId, transId, run[2]!)
        : transId.startsWith('LI')
          ? levelDetails(ctx, memberId, transId)
          : transId.startsWith('RK')
            ? rankDetails(ctx, memberId, transId)
            : undefined;
  if (!found) throw notFound(PAYOUT_NOT_FOUND);
  return found;
}
