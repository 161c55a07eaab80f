/**
 * Swap sources and destinations (wallet name → selectable). Failures and empty answers are toasted
 * with the spec's messages (§8), once per fetch.
 */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MSG } from '@md/shared';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf } from '@/lib/guards.ts';
import { useMessageText } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPC } from '@/lib/trpc.ts';

type Flags = Record<string, unknown>;
const NO_FLAGS: Flags = {};

/** The answer's map of wallet flags; anything else (null, a list, no Success) is no data. */
const flagsOf = (data: unknown): Flags | undefined => recordOf(recordOf(data)?.Success);

function useToastProblems(data: unknown, error: unknown, empty: string, failed: string) {
  const messageText = useMessageText();
  useEffect(() => {
    // Toasts leave the render cycle first (the toaster flushes synchronously).
    if (error) queueMicrotask(() => notify.error(messageText(errorMessage(error, failed))));
    else if (data !== undefined && Object.keys(flagsOf(data) ?? NO_FLAGS).length === 0)
      queueMicrotask(() => notify.error(messageText(empty)));
    // Not again when only the language changes: once per answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, error, empty, failed]);
}

export function useSwapWallets() {
  const trpc = useTRPC();
  const from = useQuery(trpc['wallet.view_from_wallets'].queryOptions({}));
  const to = useQuery(trpc['wallet.view_to_wallets'].queryOptions({}));
  useToastProblems(from.data, from.error, MSG.noFromWallets, MSG.failedFromWallets);
  useToastProblems(to.data, to.error, MSG.noToWallets, MSG.failedToWallets);
  return { from: flagsOf(from.data) ?? NO_FLAGS, to: flagsOf(to.data) ?? NO_FLAGS };
}

/**
 * Select options: every listed wallet, only true entries selectable; P2P is never a destination.
 * `label` names a wallet in the member's language.
 */
export const walletOptions = (flags: Flags, destination: boolean, label: (name: string) => string) =>
  Object.entries(flags).map(([name, selectable]) => ({
    value: name,
    label: label(name),
    disabled: selectable !== true || (destination && name === 'P2P'),
  }));
