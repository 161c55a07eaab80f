// The declaration follows this file into every program that includes it (the web app and scripts import the server).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../types/qrcode-png.d.ts" />
/**
 * Deposits (DESIGN §6): make_payment opens a 30-minute window with a unique, checksummed BEP20
 * address; a payment in full credits the Deposit wallet exactly once; a partial one is recorded
 * but not credited; a late one is refused. QA (or the demo auto-pay) reports payments.
 */
import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { render as renderQrPng } from 'qrcode/lib/renderer/png.js';
import { getAddress, keccak256, toBytes } from 'viem';
import { deposits, members, type DepositStatus } from '@md/db';
import {
  amountToMicros,
  BNB_DECIMALS,
  depositPaymentUri,
  formatMoney,
  microsToAmount,
  microsToBaseUnits,
  PAYMENT_WINDOW_MINUTES,
  USDT_BEP20_DECIMALS,
  type Currency,
} from '@md/shared';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import { isoTime } from '../../core/iso-time.ts';
import type { Services } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { moneyAnswer, moneyTransaction, nextTransId, transfer } from '../ledger/ledger.ts';
import { prepared } from '../ledger/sql.ts';
import { notify } from '../notifications/notify.ts';

export type MoneyCtx = Pick<Services, 'db' | 'sqlite' | 'clock' | 'config' | 'plan'>;
export type DepositRow = typeof deposits.$inferSelect;

export const DEPOSIT_WINDOW_MS = PAYMENT_WINDOW_MINUTES * 60 * 1000;
export const DEPOSIT_MESSAGES = {
  notFound: 'Deposit not found',
  expired: 'Deposit window has expired',
  partial: 'Partial payments are not accepted: the deposit was not credited',
  paid: 'Deposit paid and credited',
  alreadyPaid: 'Deposit was already paid',
} as const;

/** Domain-separation tag of the address derivation; a real gateway would hand out addresses. */
const ADDRESS_TAG = 'md-deposit-address:v1:';

/**
 * The deposit's receiving address: keccak-256 of (tag, TransID), last 20 bytes, EIP-55 checksummed.
 * TransIDs are unique, so addresses are (the unique index on deposits.address double-checks).
 */
export const depositAddress = (transId: string) =>
  getAddress(`0x${keccak256(toBytes(ADDRESS_TAG + transId)).slice(-40)}`);

/** Opens a deposit window. Synchronous: the seed calls it too. */
export function openDeposit(
  ctx: MoneyCtx,
  memberId: number,
  amountMicros: number,
  currency: string,
  at = ctx.clock.now(),
): DepositRow {
  return moneyTransaction(ctx, () => {
    const transId = nextTransId(ctx, 'DP', 'deposits');
    return ctx.db
      .insert(deposits)
      .values({
        transId,
        memberId,
        amount: amountMicros,
        currency,
        address: depositAddress(transId),
        status: 'PENDING',
        createdAt: at,
        expiresAt: at + DEPOSIT_WINDOW_MS,
      })
      .returning()
      .get();
  });
}

/** A deposit by numeric id or TransID. */
export function findDeposit(ctx: Pick<Services, 'db'>, ref: string | number): DepositRow | undefined {
  const text = String(ref).trim();
  return /^\d+$/.test(text)
    ? ctx.db
        .select()
        .from(deposits)
        .where(eq(deposits.id, Number(text)))
        .get()
    : ctx.db.select().from(deposits).where(eq(deposits.transId, text)).get();
}

export interface PayResult {
  deposit: DepositRow;
  /** True only for the call that credited the Deposit wallet. */
  credited: boolean;
  message: string;
}

/**
 * Reports a payment of `paidMicros` (default: the full amount). Idempotent: a paid deposit is
 * never credited twice, whatever the number of calls. Read and write in one transaction.
 */
export function payDeposit(
  ctx: MoneyCtx,
  ref: string | number,
  paidMicros?: number,
  at = ctx.clock.now(),
): PayResult {
  return moneyTransaction(ctx, (): PayResult => {
    const deposit = findDeposit(ctx, ref);
    if (!deposit) throw notFound(DEPOSIT_MESSAGES.notFound);
    if (deposit.status === 'PAID') return { deposit, credited: false, message: DEPOSIT_MESSAGES.alreadyPaid };
    if (deposit.status === 'EXPIRED' || at >= deposit.expiresAt)
      throw new AppError(409, DEPOSIT_MESSAGES.expired);
    const paid = paidMicros ?? deposit.amount;
    if (!Number.isSafeInteger(paid) || paid <= 0) throw badRequest('amount must be a positive number');
    if (paid < deposit.amount) {
      const updated = ctx.db
        .update(deposits)
        .set({ status: 'PARTIAL', paidAmount: paid })
        .where(eq(deposits.id, deposit.id))
        .returning()
        .get();
      return { deposit: updated, credited: false, message: DEPOSIT_MESSAGES.partial };
    }
    // What was asked for is credited; an overpayment is recorded in paid_amount only.
    const updated = ctx.db
      .update(deposits)
      .set({ status: 'PAID', paidAmount: paid, paidAt: at })
      .where(eq(deposits.id, deposit.id))
      .returning()
      .get();
    transfer(ctx, [
      {
        transId: deposit.transId,
        from: { system: 'deposits_clearing' },
        to: { member: deposit.memberId, wallet: 'Deposit' },
        amount: deposit.amount,
        reason: 'deposit',
        memberId: deposit.memberId,
        at,
      },
    ]);
    notify(
      ctx,
      deposit.memberId,
      'Deposit',
      `Your deposit of ${formatMoney(microsToAmount(deposit.amount))} was received and credited to your Deposit wallet.`,
      deposit.transId,
      at,
      { push: true },
    );
    return { deposit: updated, credited: true, message: DEPOSIT_MESSAGES.paid };
  });
}

/** QA: closes a window that is not paid. */
export function expireDeposit(ctx: MoneyCtx, ref: string | number): DepositRow {
  return moneyTransaction(ctx, () => {
    const deposit = findDeposit(ctx, ref);
    if (!deposit) throw notFound(DEPOSIT_MESSAGES.notFound);
    if (deposit.status === 'PAID') throw new AppError(409, 'Deposit is already paid');
    if (deposit.status === 'EXPIRED') return deposit;
    return ctx.db
      .update(deposits)
      .set({ status: 'EXPIRED' })
      .where(eq(deposits.id, deposit.id))
      .returning()
      .get();
  });
}

// The wallets screen expires the caller's overdue deposits on every visit: plain prepared
// statements (Drizzle's prepared queries cost ~8 µs more a call), and a SELECT first, since the
// UPDATE would take the write lock even when it changes nothing.
const OVERDUE_OF_MEMBER = "status in ('PENDING', 'PARTIAL') and expires_at <= ? and member_id = ?";

/**
 * Catch-up run on reads: pays what the demo auto-pay should have paid (so a restart loses
 * nothing) and marks lapsed windows EXPIRED. `memberId` limits it to one member.
 */
export function settleDeposits(ctx: MoneyCtx, memberId?: number): void {
  const now = ctx.clock.now();
  const delayMs = ctx.config.demoAutopaySeconds ? ctx.config.demoAutopaySeconds * 1000 : null;
  if (delayMs !== null && delayMs < DEPOSIT_WINDOW_MS) {
    const mine = memberId === undefined ? undefined : eq(deposits.memberId, memberId);
    const due = ctx.db
      .select({ id: deposits.id, createdAt: deposits.createdAt })
      .from(deposits)
      .where(
        and(inArray(deposits.status, ['PENDING', 'PARTIAL']), lte(deposits.createdAt, now - delayMs), mine),
      )
      .all();
    for (const d of due) payDeposit(ctx, d.id, undefined, d.createdAt + delayMs);
  }
  if (memberId === undefined)
    ctx.db
      .update(deposits)
      .set({ status: 'EXPIRED' })
      .where(and(inArray(deposits.status, ['PENDING', 'PARTIAL']), lte(deposits.expiresAt, now)))
      .run();
  else {
    if (prepared(ctx.sqlite, `select 1 from deposits where ${OVERDUE_OF_MEMBER} limit 1`).get(now, memberId))
      prepared(ctx.sqlite, `update deposits set status = 'EXPIRED' where ${OVERDUE_OF_MEMBER}`).run(
        now,
        memberId,
      );
  }
}

/**
 * When settleDeposits(ctx, memberId) next has something to do for the member: the earliest instant
 * one of its open deposits falls due for the demo auto-pay or expires (Infinity: none open). A
 * wallets visit before it need not settle (the wallets read cache keeps this per member).
 */
export function nextSettlementAt(ctx: MoneyCtx, memberId: number): number {
  const delayMs = ctx.config.demoAutopaySeconds ? ctx.config.demoAutopaySeconds * 1000 : null;
  const autopay = delayMs !== null && delayMs < DEPOSIT_WINDOW_MS;
  const at = prepared(
    ctx.sqlite,
    `select min(${autopay ? 'min(expires_at, created_at + ?)' : 'expires_at + 0 * ?'}) from deposits where status in ('PENDING', 'PARTIAL') and member_id = ?`,
  )
    .pluck()
    .get(delayMs ?? 0, memberId) as number | null;
  return at ?? Infinity;
}

/** The QA listing of deposits (newest first). */
export function listDeposits(ctx: MoneyCtx, status?: DepositStatus) {
  settleDeposits(ctx);
  return ctx.db
    .select({ deposit: deposits, username: members.username })
    .from(deposits)
    .innerJoin(members, eq(members.id, deposits.memberId))
    .where(status ? eq(deposits.status, status) : undefined)
    .orderBy(desc(deposits.createdAt), desc(deposits.id))
    .limit(500)
    .all()
    .map(({ deposit, username }) => depositView(deposit, username));
}

export const depositView = (d: DepositRow, username?: string) => ({
  id: d.id,
  TransID: d.transId,
  ...(username ? { username } : {}),
  amount: microsToAmount(d.amount),
  paidAmount: microsToAmount(d.paidAmount),
  currency: d.currency,
  address: d.address,
  status: d.status,
  createdAt: isoTime(d.createdAt),
  expiresAt: isoTime(d.expiresAt),
  paidAt: d.paidAt === null ? null : isoTime(d.paidAt),
});

/**
 * The stand-in's BNB quote, in micro-USD a BNB. A deposit is asked in USD (amount_usdt) and the
 * stand-in has no price feed: a real gateway quotes the BNB amount when it opens the window. Its
 * addresses are derived, nobody holds their keys: this only makes the BNB.BSC QR a complete request.
 */
export const STANDIN_BNB_PRICE_MICROS = 600_000_000n;

/**
 * What the deposit asks for, in the currency's base units: USDT at 1:1 (10^18 a USDT); BNB at the
 * stand-in's quote, rounded up to the wei so that paying what the QR asks is never a partial payment.
 */
export function depositBaseUnits(d: Pick<DepositRow, 'amount' | 'currency'>): bigint {
  if (currencyOf(d) === 'USDT.BEP20') return microsToBaseUnits(d.amount, USDT_BEP20_DECIMALS);
  const numerator = microsToBaseUnits(d.amount, BNB_DECIMALS) * 1_000_000n;
  return (numerator + STANDIN_BNB_PRICE_MICROS - 1n) / STANDIN_BNB_PRICE_MICROS;
}

/** The EIP-681 payment request a wallet app reads from the deposit QR (chain 56, asset, recipient, exact amount). */
export const depositPaymentRequest = (d: Pick<DepositRow, 'amount' | 'currency' | 'address'>) =>
  depositPaymentUri(currencyOf(d), d.address, depositBaseUnits(d));

/** The contract accepts only these two; a row holds what the contract accepted. */
const currencyOf = (d: Pick<DepositRow, 'currency'>): Currency =>
  d.currency === 'BNB.BSC' ? 'BNB.BSC' : 'USDT.BEP20';

/** Demo auto-pay: pay the deposit after the configured delay (the read-time catch-up covers restarts). */
function scheduleAutopay(ctx: MoneyCtx, deposit: DepositRow) {
  const seconds = ctx.config.demoAutopaySeconds;
  if (!seconds) return;
  const timer = setTimeout(() => {
    try {
      payDeposit(ctx, deposit.id);
    } catch {
      // Expired, already paid, or the app closed: the catch-up on read settles whatever is left.
    }
  }, seconds * 1000);
  timer.unref();
}

/**
 * The deposit's QR as a PNG data: URL. Drawn synchronously (qrcode's own renderer, encoded by
 * pngjs), so the answer that holds it is built in the deposit's transaction (moneyAnswer).
 * The 4-module quiet zone ISO/IEC 18004 asks for: scanners need it on any background.
 */
export function depositQrDataUrl(deposit: Pick<DepositRow, 'amount' | 'currency' | 'address'>): string {
  const options = { errorCorrectionLevel: 'M', margin: 4, width: 300 } as const;
  const png = renderQrPng(QRCode.create(depositPaymentRequest(deposit), options), options);
  return `data:image/png;base64,${PNG.sync.write(png as PNG).toString('base64')}`;
}

export const depositHandlers: Handlers = {
  'deposit.make_payment': (ctx, input) => {
    settleDeposits(ctx, ctx.member.id);
    return moneyAnswer(ctx, () => {
      const deposit = openDeposit(ctx, ctx.member.id, amountToMicros(input.amount_usdt), input.currency);
      // A timer: it fires after the transaction, and finds nothing to pay if it rolled back.
      scheduleAutopay(ctx, deposit);
      return {
        Success: {
          Amount: microsToAmount(deposit.amount),
          QR_Code: depositQrDataUrl(deposit),
          Address: deposit.address,
          TransID: deposit.transId,
        },
      };
    });
  },
};

/** Total a member has been credited by deposits (micro-units); used by tests and the seed facts. */
export const creditedDeposits = (ctx: Pick<Services, 'db'>, memberId: number) =>
  ctx.db
    .select({ total: sql<number>`coalesce(sum(${deposits.amount}), 0)` })
    .from(deposits)
    .where(and(eq(deposits.memberId, memberId), eq(deposits.status, 'PAID')))
    .get()?.total ?? 0;
