/**
 * The member's wallets (spec §3 "Wallet details"): one query shared by the header, home, package,
 * wallets and P2P pages, so a purchase, swap or transfer that refetches it updates every figure.
 */
import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  EARNING_TOTAL_WALLETS,
  WALLET_NAMES,
  numberOf,
  type WalletName,
  type walletDetailSchema,
} from '@md/shared';
import type { z } from 'zod';
import { recordOf } from './guards.ts';
import { useTRPC } from './trpc.ts';

export type WalletDetail = z.infer<typeof walletDetailSchema>;
export type Wallets = Record<string, WalletDetail>;

/**
 * What the wallets read gives a screen to show: 'loading' before the first answer, 'unavailable'
 * when the call failed or answered no map of wallets (show that and a retry, never $0.00), 'ready'.
 */
export type WalletsState = 'loading' | 'unavailable' | 'ready';

/** The wallets query. Failures are silent (spec §8): no toast; `state` says whether there are figures. */
export function useWallets() {
  const trpc = useTRPC();
  const query = useQuery(trpc['wallet.view_all_wallets_details'].queryOptions({}));
  // Anything but a map of wallets (null, a list) reads as no data.
  const wallets = recordOf<Wallets>(recordOf(query.data)?.Success);
  const state: WalletsState = wallets ? 'ready' : query.isPending ? 'loading' : 'unavailable';
  return { ...query, wallets, state };
}

/** Refetches the wallets (after a purchase, swap, transfer or withdrawal). */
export function useRefreshWallets() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.invalidateQueries({ queryKey: trpc['wallet.view_all_wallets_details'].queryKey() }),
    [queryClient, trpc],
  );
}

/**
 * A wallet's Available balance; undefined when the wallet or its figure is missing or unreadable
 * (shown as '-'; a form that spends it reads it as 0, so nothing is spent on a figure nobody has).
 */
export const availableOf = (wallets: Wallets | undefined, name: string): number | undefined =>
  numberOf(wallets?.[name]?.Available);
/** A wallet's lifetime Total; undefined when missing or unreadable. */
export const totalOf = (wallets: Wallets | undefined, name: string): number | undefined =>
  numberOf(wallets?.[name]?.Total);

/**
 * Total Earnings: the lifetime Totals of Binary, Direct, Upline_Bonus (when present) and Level;
 * undefined when one of them is missing or unreadable (a sum without it would be a wrong figure).
 */
export function totalEarnings(wallets: Wallets | undefined): number | undefined {
  let sum = 0;
  for (const name of EARNING_TOTAL_WALLETS) {
    if (name === 'Upline_Bonus' && !wallets?.[name]) continue;
    const total = totalOf(wallets, name);
    if (total === undefined) return undefined;
    sum += total;
  }
  return sum;
}

/** Narrows a select's value to a wallet name the contract accepts. */
export const isWalletName = (value: string): value is WalletName =>
  (WALLET_NAMES as readonly string[]).includes(value);
