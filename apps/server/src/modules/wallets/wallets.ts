/**
 * Wallets: the 8 wallets of the caller and the swap between them (DESIGN §6): reward wallets
 * (Direct, Binary, Level, ROI, Rank) go to Withdrawal or Deposit; P2P goes to Deposit only;
 * Deposit and Withdrawal are never sources.
 */
import { MEMBER_WALLETS, type MemberWallet } from '@md/db';
import {
  amountToMicros,
  microsToAmount,
  MSG,
  REWARD_WALLETS,
  SWAP_STEP,
  type OutputOf,
  formatMoney,
} from '@md/shared';
import { badRequest } from '../../core/errors.ts';
import { createReadCache } from '../../core/read-cache.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { nextSettlementAt, settleDeposits, type MoneyCtx } from '../deposits/deposits.ts';
import {
  moneyAnswer,
  monthStarts,
  moneyTransaction,
  nextTransId,
  transfer,
  walletBalance,
  walletFigures,
} from '../ledger/ledger.ts';

/** Which destinations each source wallet may be swapped to. */
export const SWAP_ROUTES: Readonly<Record<MemberWallet, readonly MemberWallet[]>> = {
  Deposit: [],
  Withdrawal: [],
  P2P: ['Deposit'],
  ...(Object.fromEntries(REWARD_WALLETS.map((w) => [w, ['Withdrawal', 'Deposit']])) as Record<
    (typeof REWARD_WALLETS)[number],
    MemberWallet[]
  >),
};

const SWAP_SOURCES = MEMBER_WALLETS.filter((w) => SWAP_ROUTES[w].length > 0);
const SWAP_DESTINATIONS = new Set(Object.values(SWAP_ROUTES).flat());

export const SWAP_MESSAGES = {
  sameWallet: 'Choose two different wallets',
  notSource: (w: string) => `The ${w} wallet cannot be swapped out`,
  notRoute: (from: string, allowed: readonly string[]) =>
    `The ${from} wallet can only be swapped to ${allowed.join(' or ')}`,
  step: `Amount must be a multiple of ${SWAP_STEP} (or the whole balance)`,
  done: (amount: number, from: string, to: string) =>
    `Transferred ${formatMoney(amount)} from ${from} to ${to}`,
} as const;

const STEP_MICROS = amountToMicros(SWAP_STEP);

const walletAnswers = createReadCache<OutputOf<'wallet.view_all_wallets_details'>>(10_000);
/** When each member's open deposits next fall due (kept like the answers: a deposit write drops it). */
const settlementDue = createReadCache<number>(10_000);

/** Moves `amountMicros` between two wallets of one member. Synchronous: the seed calls it too. */
export function swapWallets(
  ctx: MoneyCtx,
  memberId: number,
  from: MemberWallet,
  to: MemberWallet,
  amountMicros: number,
  at = ctx.clock.now(),
): string {
  if (from === to) throw badRequest(SWAP_MESSAGES.sameWallet);
  const allowed = SWAP_ROUTES[from];
  if (allowed.length === 0) throw badRequest(SWAP_MESSAGES.notSource(from));
  if (!allowed.includes(to)) throw badRequest(SWAP_MESSAGES.notRoute(from, allowed));
  return moneyTransaction(ctx, () => {
    const balance = walletBalance(ctx, memberId, from);
    if (amountMicros > balance) throw badRequest(MSG.insufficientBalance, 'INSUFFICIENT_BALANCE');
    // Step 0.01 like the form, except MAX: the whole balance may carry more decimals.
    if (amountMicros % STEP_MICROS !== 0 && amountMicros !== balance) throw badRequest(SWAP_MESSAGES.step);
    const transId = nextTransId(ctx, 'SW', 'transfers');
    transfer(ctx, [
      {
        transId,
        from: { member: memberId, wallet: from },
        to: { member: memberId, wallet: to },
        amount: amountMicros,
        reason: 'swap',
        memberId,
        at,
      },
    ]);
    return transId;
  });
}

export const walletHandlers: Handlers = {
  'wallet.view_all_wallets_details': (ctx) => {
    const cached = ctx.config.readCache !== false;
    // A demo auto-payment that fell due while nobody was looking shows up here; so does an
    // expiry. Both are writes, which drop this member's kept answers below. Until something
    // falls due a visit costs no query: the instant is kept per member.
    const now = ctx.clock.now();
    const dueAt = () => nextSettlementAt(ctx, ctx.member.id);
    if ((cached ? settlementDue.get(ctx.sqlite, ctx.member.id, 'due', dueAt) : dueAt()) <= now)
      settleDeposits(ctx, ctx.member.id);
    // The figures are the accounts' running totals (a few rows whatever the history); the answer
    // is still kept per member and month until a write touches the member.
    const answer = () => {
      const figures = walletFigures(ctx, ctx.member.id);
      return {
        Success: Object.fromEntries(
          MEMBER_WALLETS.map((w) => [
            w,
            {
              Available: microsToAmount(figures[w].balance),
              Total: microsToAmount(figures[w].total),
              This_Month: microsToAmount(figures[w].thisMonth),
              Last_Month: microsToAmount(figures[w].lastMonth),
              User: ctx.member.username,
            },
          ]),
        ),
      };
    };
    return cached
      ? walletAnswers.get(ctx.sqlite, ctx.member.id, String(monthStarts(now).thisMonth), answer)
      : answer();
  },
  'wallet.view_from_wallets': () => ({
    Success: Object.fromEntries(MEMBER_WALLETS.map((w) => [w, SWAP_SOURCES.includes(w)])),
  }),
  'wallet.view_to_wallets': () => ({
    Success: Object.fromEntries(MEMBER_WALLETS.map((w) => [w, SWAP_DESTINATIONS.has(w)])),
  }),
  'wallet.transfer_wallet': (ctx, input) => {
    const micros = amountToMicros(input.amount);
    return moneyAnswer(ctx, () => {
      swapWallets(ctx, ctx.member.id, input.from_wallet, input.to_wallet, micros);
      return { Success: SWAP_MESSAGES.done(microsToAmount(micros), input.from_wallet, input.to_wallet) };
    });
  },
};
