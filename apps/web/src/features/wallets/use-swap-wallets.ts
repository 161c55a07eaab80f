/**
 * Swap sources and destinations (wallet name → selectable). Failures and empty answers are toasted
 * with the spec's messages (§8), once per fetch.
 */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MSG } from '@md/shared';
import { errorMessage } from '@/lib/errors.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPC } from '@/lib/trpc.ts';

type Flags = Record<string, boolean>;

function useToastProblems(data: { Success?: Flags } | undefined, error: unknown, empty: string, failed: string) {
  useEffect(() => {
    // Toasts leave the render cycle first (the toaster flushes synchronously).
    if (error) queueMicrotask(() => notify.error(errorMessage(error, failed)));
    else if (data && (!data.Success || Object.keys(data.Success).length === 0)) queueMicrotask(() => notify.error(empty));
  }, [data, error, empty, failed]);
}

export function useSwapWallets() {
  const trpc = useTRPC();
  const from = useQuery(trpc['wallet.view_from_wallets'].queryOptions({}));
  const to = useQuery(trpc['wallet.view_to_wallets'].queryOptions({}));
  useToastProblems(from.data, from.error, MSG.noFromWallets, MSG.failedFromWallets);
  useToastProblems(to.data, to.error, MSG.noToWallets, MSG.failedToWallets);
  return { from: from.data?.Success ?? {}, to: to.data?.Success ?? {} };
}

/** Select options: every listed wallet, only true entries selectable; P2P is never a destination. */
export const walletOptions = (flags: Flags, destination: boolean) =>
  Object.entries(flags).map(([name, selectable]) => ({
    value: name,
    label: name,
    disabled: !selectable || (destination && name === 'P2P'),
  }));
