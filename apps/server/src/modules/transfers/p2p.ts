/**
 * P2P (DESIGN §6): from the sender's Deposit wallet to the P2P wallet of a member of the
 * sender's sponsor downline; fee 0; needs the transaction password.
 */
import { eq } from 'drizzle-orm';
import { members } from '@md/db';
import { amountToMicros, microsToAmount, MSG, formatMoney } from '@md/shared';
import { badRequest } from '../../core/errors.ts';
import { prepared } from '../../core/prepared.ts';
import type { Services } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';
import type { MoneyCtx } from '../deposits/deposits.ts';
import { moneyAnswer, moneyTransaction, nextTransId, transfer, walletBalance } from '../ledger/ledger.ts';
import { sponsorLevelOf } from '../network/scope.ts';
import { notify } from '../notifications/notify.ts';
import { requireTransactionPassword } from '../security/security.ts';

export const P2P_MESSAGES = {
  setPassword: 'Set Transaction Password before making a transfer',
} as const;

/** The recipient if it is in the sender's downline, else the P2P refusal. */
function downlineRecipient(ctx: Pick<Services, 'db' | 'sqlite'>, senderId: number, username: string) {
  // Levels 1 and below: never the sender itself. Known or not, the name costs the same (scope.ts).
  const found = sponsorLevelOf(ctx, senderId, username);
  const recipient =
    found && found.levels > 0
      ? ctx.db.select().from(members).where(eq(members.id, found.memberId)).get()
      : undefined;
  if (!recipient) throw badRequest(MSG.recipientNotFoundOrInvalid);
  return recipient;
}

/** The money move of a P2P transfer (password already checked). Synchronous: the seed calls it too. */
export function sendP2p(
  ctx: MoneyCtx,
  senderId: number,
  recipientUsername: string,
  amountMicros: number,
  at = ctx.clock.now(),
): string {
  const recipient = downlineRecipient(ctx, senderId, recipientUsername);
  return moneyTransaction(ctx, () => {
    if (amountMicros > walletBalance(ctx, senderId, 'Deposit'))
      throw badRequest(MSG.insufficientBalance, 'INSUFFICIENT_BALANCE');
    const sender = prepared(ctx.sqlite, 'select username from members where id = ?').get(senderId) as {
      username: string;
    };
    const transId = nextTransId(ctx, 'PP', 'transfers');
    transfer(ctx, [
      {
        transId,
        from: { member: senderId, wallet: 'Deposit' },
        to: { member: recipient.id, wallet: 'P2P' },
        amount: amountMicros,
        reason: 'p2p',
        memberId: senderId,
        counterpartyMemberId: recipient.id,
        at,
      },
    ]);
    const amount = microsToAmount(amountMicros);
    notify(
      ctx,
      senderId,
      'P2P_Transfer',
      `You sent ${formatMoney(amount)} to ${recipient.username}.`,
      transId,
      at,
    );
    notify(
      ctx,
      recipient.id,
      'P2P_Transfer',
      `You received ${formatMoney(amount)} from ${sender.username} in your P2P wallet.`,
      transId,
      at,
      { push: true },
    );
    return transId;
  });
}

export const p2pHandlers: Handlers = {
  'level.downline_exist': (ctx, input) => {
    return { Success: (sponsorLevelOf(ctx, ctx.member.id, input.username)?.levels ?? 0) > 0 };
  },
  transfer_to_user: async (ctx, input) => {
    // Cheap refusals first, then the slow hash check, then the transaction re-reads everything.
    downlineRecipient(ctx, ctx.member.id, input.username);
    if (!ctx.member.transactionPasswordHash) throw badRequest(P2P_MESSAGES.setPassword);
    const micros = amountToMicros(input.amount);
    if (micros > walletBalance(ctx, ctx.member.id, 'Deposit'))
      throw badRequest(MSG.insufficientBalance, 'INSUFFICIENT_BALANCE');
    await requireTransactionPassword(ctx, ctx.member, input.password, P2P_MESSAGES.setPassword);
    return moneyAnswer(ctx, () => {
      sendP2p(ctx, ctx.member.id, input.username, micros);
      return { Success: MSG.transferSuccessful };
    });
  },
};
