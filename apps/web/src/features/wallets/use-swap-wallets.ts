/**
 * Swap sources and destinations (wallet name → selectable). Failures and empty answers are toasted
 * with the spec's messages (§8), once per fetch.
 */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MSG } from '@md/shared';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPC } from '@/lib/trpc.ts';

type Flags = Record<string, unknown>;
const NO_FLAGS: Flags = {};

/** The answer's map of wallet flags; anything else (null, a list, no Success) is no data. */
const flagsOf = (data: unknown): Flags | undefined => recordOf(recordOf(data)?.Success);

function useToastProblems(data: unknown, error: unknown, empty: string, failed: string) {
  useEffect(() => {
    // Toasts leave the render cycle first (the toaster flushes synchronously).
    if (error) queueMicrotask(() => notify.error(errorMessage(error, failed)));
    else if (data !== undefined && Object.keys(flagsOf(data) ?? NO_FLAGS).length === 0)
      queueMicrotask(() => notify.error(empty));
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

/** Select options: every listed wallet, only true entries selectable; P2P is never a destination. */
export const walletOptions = (flags: Flags, destination: boolean) =>
  Object.entries(flags).map(([name, selectable]) => ({
    value: name,
    label: name,
    disabled: selectable !== true || (destination && name === 'P2P'),
  }));
