/**
 * Withdrawals (DESIGN §6): from the Withdrawal wallet, minimum 20, fee a server percentage,
 * transaction password and a saved BEP20 address required. The whole amount is reserved at once
 * (Withdrawal → pending_withdrawals); QA approves (→ fees + withdrawals_paid) or rejects (refund).
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { getAddress, isAddress } from 'viem';
import { members, withdrawals } from '@md/db';
import {
  amountToMicros,
  bscscanTxUrl,
  formatMoney,
  isZeroAddress,
  microsToAmount,
  MIN_WITHDRAWAL,
  MSG,
  noticeTime,
  WITHDRAWAL_DEFAULT_REJECT_REASON,
  WITHDRAWAL_PROCESSING_HOURS,
  type WithdrawalTimeline,
} from '@md/shared';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import { isoTime } from '../../core/iso-time.ts';
import { perDatabase } from '../../core/prepared.ts';
import type { Handlers } from '../../transport/handlers.ts';
import type { MoneyCtx } from '../deposits/deposits.ts';
import { moneyAnswer, moneyTransaction, nextTransId, transfer, walletBalance } from '../ledger/ledger.ts';
import { notify } from '../notifications/notify.ts';
import { requireTransactionPassword } from '../security/security.ts';

export type WithdrawalRow = typeof withdrawals.$inferSelect;
type WithdrawalStatus = WithdrawalRow['status'];

export const WITHDRAWAL_MESSAGES = {
  noAddress: 'Save a BEP.20 wallet address first (Settings → Wallet Address)',
  submitted: 'Withdrawal request submitted',
  notFound: 'Withdrawal not found',
  alreadyDecided: (status: string) => `Withdrawal is already ${status}`,
} as const;

const MIN_WITHDRAWAL_MICROS = amountToMicros(MIN_WITHDRAWAL);

/** When a request made at `createdAt` is expected to be decided (WITHDRAWAL_PROCESSING_HOURS later). */
export const withdrawalExpectedBy = (createdAt: number) =>
  createdAt + WITHDRAWAL_PROCESSING_HOURS * 3_600_000;

/** Fee in micro-units, rounded down; BigInt because amount × basis points can pass 2^53. */
export function withdrawalFee(ctx: Pick<MoneyCtx, 'plan'>, amountMicros: number): number {
  const basisPoints = BigInt(Math.round(ctx.plan.withdrawalFeePercent * 100));
  return Number((BigInt(amountMicros) * basisPoints) / 10_000n);
}

/** Prepared once per database (building the insert's SQL cost more than running it). */
const insertWithdrawal = perDatabase((db) =>
  db
    .insert(withdrawals)
    .values({
      transId: sql.placeholder('transId'),
      memberId: sql.placeholder('memberId'),
      amount: sql.placeholder('amount'),
      fee: sql.placeholder('fee'),
      netAmount: sql.placeholder('netAmount'),
      address: sql.placeholder('address'),
      status: 'PENDING',
      createdAt: sql.placeholder('createdAt'),
    })
    .returning()
    .prepare(),
);

/**
 * Reserves a withdrawal (password and address already checked). Synchronous: the seed calls it too.
 * The address is stored EIP-55 checksummed, whatever case the caller gave, so the member sees one form.
 */
export function requestWithdrawal(
  ctx: MoneyCtx,
  memberId: number,
  amountMicros: number,
  address: string,
  at = ctx.clock.now(),
): WithdrawalRow {
  if (amountMicros < MIN_WITHDRAWAL_MICROS) throw badRequest(MSG.withdrawalMin);
  // Saved addresses are checked when saved; this also stops one saved before those checks (the zero address burns the payout).
  if (!isAddress(address, { strict: false }) || isZeroAddress(address))
    throw badRequest(MSG.invalidWalletAddress);
  const checksummed = getAddress(address);
  return moneyTransaction(ctx, () => {
    if (amountMicros > walletBalance(ctx, memberId, 'Withdrawal'))
      throw badRequest(MSG.insufficientBalance, 'INSUFFICIENT_BALANCE');
    const transId = nextTransId(ctx, 'WD', 'withdrawals');
    const fee = withdrawalFee(ctx, amountMicros);
    transfer(ctx, [
      {
        transId,
        from: { member: memberId, wallet: 'Withdrawal' },
        to: { system: 'pending_withdrawals' },
        amount: amountMicros,
        reason: 'withdrawal_request',
        memberId,
        at,
      },
    ]);
    const row = insertWithdrawal(ctx.db).get({
      transId,
      memberId,
      amount: amountMicros,
      fee,
      netAmount: amountMicros - fee,
      address: checksummed,
      createdAt: at,
    });
    notify(
      ctx,
      memberId,
      'Withdrawal',
      `Your withdrawal request of ${formatMoney(microsToAmount(amountMicros))} was received (fee ${formatMoney(microsToAmount(fee))}). Expected to be processed by ${noticeTime(withdrawalExpectedBy(at))}.`,
      transId,
      at,
    );
    return row;
  });
}

/** A withdrawal by numeric id or TransID. */
export function findWithdrawal(ctx: Pick<MoneyCtx, 'db'>, ref: string | number): WithdrawalRow | undefined {
  const text = String(ref).trim();
  return /^\d+$/.test(text)
    ? ctx.db
        .select()
        .from(withdrawals)
        .where(eq(withdrawals.id, Number(text)))
        .get()
    : ctx.db.select().from(withdrawals).where(eq(withdrawals.transId, text)).get();
}

/**
 * The stand-in sends no real transaction: the hash of its payout is derived from the withdrawal
 * (deterministic, so seeded scenarios are the same every time), shaped as a BEP20 transaction hash.
 */
const payoutTxHash = (w: WithdrawalRow) =>
  `0x${createHash('sha256').update(`withdrawal|${w.transId}|${w.address}|${w.netAmount}`).digest('hex')}`;

/**
 * QA's decision on a PENDING withdrawal: approve pays it out, reject refunds the reserved amount and
 * keeps why (`reason`, the default when none is given), which the member's notice and timeline say.
 * One transaction: of concurrent decisions on one withdrawal the first wins, the others answer 409.
 */
export function decideWithdrawal(
  ctx: MoneyCtx,
  ref: string | number,
  decision: 'approve' | 'reject',
  at = ctx.clock.now(),
  reason?: string,
): WithdrawalRow {
  return moneyTransaction(ctx, () => {
    const w = findWithdrawal(ctx, ref);
    if (!w) throw notFound(WITHDRAWAL_MESSAGES.notFound);
    if (w.status !== 'PENDING') throw new AppError(409, WITHDRAWAL_MESSAGES.alreadyDecided(w.status));
    let rejectReason: string | null = null;
    const base = {
      transId: w.transId,
      from: { system: 'pending_withdrawals' as const },
      memberId: w.memberId,
      at,
    };
    if (decision === 'approve') {
      transfer(ctx, [
        ...(w.fee > 0
          ? [{ ...base, to: { system: 'fees' as const }, amount: w.fee, reason: 'withdrawal_fee' as const }]
          : []),
        ...(w.netAmount > 0
          ? [
              {
                ...base,
                to: { system: 'withdrawals_paid' as const },
                amount: w.netAmount,
                reason: 'withdrawal_paid' as const,
              },
            ]
          : []),
      ]);
      notify(
        ctx,
        w.memberId,
        'Withdrawal',
        `Your withdrawal of ${formatMoney(microsToAmount(w.amount))} was approved: ${formatMoney(microsToAmount(w.netAmount))} sent to ${w.address}.`,
        w.transId,
        at,
        { push: { title: 'Withdrawal approved' } },
      );
    } else {
      rejectReason = reason?.trim() || WITHDRAWAL_DEFAULT_REJECT_REASON;
      transfer(ctx, [
        {
          ...base,
          to: { member: w.memberId, wallet: 'Withdrawal' },
          amount: w.amount,
          reason: 'withdrawal_refund',
        },
      ]);
      notify(
        ctx,
        w.memberId,
        'Withdrawal',
        `Your withdrawal of ${formatMoney(microsToAmount(w.amount))} was rejected and refunded to your Withdrawal wallet. Reason: ${rejectReason}${/[.!?]$/.test(rejectReason) ? '' : '.'}`,
        w.transId,
        at,
        { push: { title: 'Withdrawal rejected' } },
      );
    }
    const status: WithdrawalStatus = decision === 'approve' ? 'APPROVED' : 'REJECTED';
    const txHash = decision === 'approve' ? payoutTxHash(w) : null;
    return ctx.db
      .update(withdrawals)
      .set({ status, decidedAt: at, txHash, rejectReason })
      .where(eq(withdrawals.id, w.id))
      .returning()
      .get();
  });
}

export const withdrawalView = (w: WithdrawalRow, username?: string) => ({
  id: w.id,
  TransID: w.transId,
  ...(username ? { username } : {}),
  amount: microsToAmount(w.amount),
  fee: microsToAmount(w.fee),
  netAmount: microsToAmount(w.netAmount),
  address: w.address,
  status: w.status,
  createdAt: isoTime(w.createdAt),
  decidedAt: w.decidedAt === null ? null : isoTime(w.decidedAt),
  txHash: w.txHash,
  reason: w.rejectReason,
});

/** USDT in a sentence: two decimals at least, every one the amount has. */
const usd = (micros: number) =>
  `$${microsToAmount(micros).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;

/**
 * Where one of the member's withdrawals is (capability `withdrawal_timeline`): requested, then
 * approved and paid (with its transaction hash) or rejected and refunded (the refund transfer's
 * amount). Another member's TransID answers as an unknown one.
 */
export function withdrawalTimeline(
  ctx: Pick<MoneyCtx, 'db' | 'sqlite'>,
  memberId: number,
  transId: string,
): WithdrawalTimeline {
  const w = ctx.db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.transId, transId), eq(withdrawals.memberId, memberId)))
    .get();
  if (!w) throw notFound(WITHDRAWAL_MESSAGES.notFound);
  const steps: WithdrawalTimeline['Steps'] = [
    {
      Step: 'Requested',
      DateTime: isoTime(w.createdAt),
      Amount: microsToAmount(w.amount),
      Detail: `${usd(w.amount)} reserved from the Withdrawal wallet (fee ${usd(w.fee)})`,
    },
  ];
  if (w.status === 'APPROVED' && w.decidedAt !== null) {
    steps.push({
      Step: 'Approved',
      DateTime: isoTime(w.decidedAt),
      Amount: microsToAmount(w.amount),
      Detail: `Approved; fee ${usd(w.fee)} kept`,
    });
    steps.push({
      Step: 'Paid',
      DateTime: isoTime(w.decidedAt),
      Amount: microsToAmount(w.netAmount),
      Detail: `${usd(w.netAmount)} sent to ${w.address}`,
    });
  } else if (w.status === 'REJECTED' && w.decidedAt !== null) {
    const refund = ctx.sqlite
      .prepare(
        "select coalesce(sum(amount), 0) as micros, max(created_at) as at from transfers where trans_id = ? and reason = 'withdrawal_refund'",
      )
      .get(w.transId) as { micros: number; at: number | null };
    steps.push({
      Step: 'Rejected',
      DateTime: isoTime(w.decidedAt),
      Amount: microsToAmount(w.amount),
      Detail: 'Rejected',
    });
    steps.push({
      Step: 'Refunded',
      DateTime: isoTime(refund.at ?? w.decidedAt),
      Amount: microsToAmount(refund.micros),
      Detail: `${usd(refund.micros)} returned to the Withdrawal wallet`,
    });
  }
  return {
    TransID: w.transId,
    Status: w.status,
    Amount: microsToAmount(w.amount),
    Fee: microsToAmount(w.fee),
    Net_Amount: microsToAmount(w.netAmount),
    Address: w.address,
    Tx_Hash: w.txHash,
    Explorer_Url: w.txHash === null ? null : bscscanTxUrl(w.txHash),
    Steps: steps,
    // Extension fields, present only when they say something: why a rejection (none recorded before migration 0016), when a pending one is due.
    ...(w.status === 'REJECTED' && w.rejectReason !== null ? { Reason: w.rejectReason } : {}),
    ...(w.status === 'PENDING' ? { Expected_By: isoTime(withdrawalExpectedBy(w.createdAt)) } : {}),
  };
}

export function listWithdrawals(ctx: Pick<MoneyCtx, 'db'>, status?: WithdrawalStatus) {
  return ctx.db
    .select({ w: withdrawals, username: members.username })
    .from(withdrawals)
    .innerJoin(members, eq(members.id, withdrawals.memberId))
    .where(status ? eq(withdrawals.status, status) : undefined)
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(500)
    .all()
    .map(({ w, username }) => withdrawalView(w, username));
}

export const withdrawalHandlers: Handlers = {
  'withdraw.withdraw_fees': (ctx) => ({ Success: ctx.plan.withdrawalFeePercent }),
  'withdraw.withdraw_request': async (ctx, input) => {
    const micros = amountToMicros(input.amount);
    const member = ctx.member;
    // Cheap refusals first, in the order the form meets them; then the slow hash check;
    // then the transaction re-reads the balance.
    if (micros < MIN_WITHDRAWAL_MICROS) throw badRequest(MSG.withdrawalMin);
    if (!member.transactionPasswordHash) throw badRequest(MSG.setTransactionPassword);
    if (!member.walletAddress) throw badRequest(WITHDRAWAL_MESSAGES.noAddress);
    if (micros > walletBalance(ctx, member.id, 'Withdrawal'))
      throw badRequest(MSG.insufficientBalance, 'INSUFFICIENT_BALANCE');
    await requireTransactionPassword(ctx, member, input.password, MSG.setTransactionPassword);
    const address = member.walletAddress;
    return moneyAnswer(ctx, () => {
      requestWithdrawal(ctx, member.id, micros, address);
      return { Success: WITHDRAWAL_MESSAGES.submitted };
    });
  },
  // Extension (capability `withdrawal_timeline`), not a provider endpoint.
  'withdraw.view_withdrawal_timeline': (ctx, input) => ({
    Success: withdrawalTimeline(ctx, ctx.member.id, input.trans_id),
  }),
};
