/**
 * A money move as the member sees it (lib/money-move.ts): one key per confirmed intent when the
 * server honours keys, and a toast for every outcome. A first answer is reported in the page's own
 * words (the spec's success and failure messages); an answer learned after the first was lost says
 * what became of the move, with the balance it left; an outcome still unknown says where to look.
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_CAPABILITY, type WalletName } from '@md/shared';
import { hasCapability, useConfig } from './config.tsx';
import { recordOf } from './guards.ts';
import { useFormat, useMessageText, useT } from './i18n/i18n.tsx';
import { keyedContext, sendMoneyMove, type MoneyMoveOutcome } from './money-move.ts';
import { notify } from './toaster.ts';
import { useTRPC } from './trpc.ts';
import { availableOf, type Wallets } from './wallets.ts';

export interface MoneyMove<T> {
  /** What the member is doing, as the messages name it, in the member's language: 'purchase', 'transfer'. */
  action: string;
  /** The wallet the move spends from: its balance is given when a lost answer is recovered. */
  wallet?: WalletName;
  /** Makes the call; `options` carries the key (pass it to the mutation as its second argument). */
  send: (options: ReturnType<typeof keyedContext>) => Promise<T>;
  /** The page's message for a success answered at once; null shows none (the page shows the result). */
  success: (answer: T) => string | null;
  /**
   * The page's message for a failure (the spec's fallback for the call); null for a call the spec
   * keeps silent, which stays silent whatever became of it.
   */
  failure: (error: unknown) => string | null;
}

/** `failure` of a call the spec keeps silent (the deposit payment request, §8). */
export const SILENT = () => null;

export function useMoneyMove() {
  const config = useConfig();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keyed = hasCapability(config, IDEMPOTENCY_CAPABILITY);
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();

  /** The wallet's balance after the move, read again from the server. */
  const balanceAfter = useCallback(
    async (wallet: WalletName) => {
      const answer = await queryClient
        .fetchQuery({ ...trpc['wallet.view_all_wallets_details'].queryOptions({}), staleTime: 0 })
        .catch(() => undefined);
      return availableOf(recordOf<Wallets>(recordOf(answer)?.Success), wallet);
    },
    [queryClient, trpc],
  );

  return useCallback(
    async <T>(move: MoneyMove<T>): Promise<MoneyMoveOutcome<T>> => {
      // The 'checking…' toast stays while the resends run; the outcome's toast takes its place.
      let checked = () => {};
      const outcome = await sendMoneyMove((key) => move.send(keyedContext(key)), {
        keyed,
        onChecking: () => {
          if (move.failure !== SILENT)
            checked = notify.progress(t('app.moneyMove.checking', { action: move.action }));
        },
      });
      switch (outcome.status) {
        case 'done': {
          if (!outcome.recovered) {
            const text = move.success(outcome.answer);
            if (text) notify.success(messageText(text));
            break;
          }
          const balance = move.wallet ? await balanceAfter(move.wallet) : undefined;
          notify.success(
            move.wallet && balance !== undefined
              ? t('app.moneyMove.wentThroughBalance', {
                  action: move.action,
                  wallet: move.wallet,
                  balance: f.money(balance),
                })
              : t('app.moneyMove.wentThrough', { action: move.action }),
          );
          break;
        }
        case 'refused': {
          const text = move.failure(outcome.error);
          if (text)
            notify.error(
              outcome.recovered
                ? t('app.moneyMove.didNotGoThrough', { reason: messageText(text) })
                : messageText(text),
            );
          break;
        }
        case 'unknown': {
          const text = move.failure(outcome.error);
          if (!text) break;
          notify.error(messageText(text));
          notify.warning(t('app.moneyMove.unknown', { action: move.action }));
          break;
        }
      }
      checked();
      return outcome;
    },
    [keyed, balanceAfter, t, f, messageText],
  );
}
