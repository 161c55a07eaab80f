/**
 * Watches one deposit window until it closes (without it, after paying, the panel kept counting
 * down and a member could pay twice). It asks the deposit table the contract already serves for the
 * window's TransID every DEPOSIT_POLL_MS, so provider mode needs nothing new; the 30-minute
 * countdown closes it as 'expired' too. Once closed it stops asking and refreshes the wallets and
 * the Deposit History (whose rows would otherwise stay cached for 30 s).
 */
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '@md/shared';
import { listOf, recordOf, textOf } from '@/lib/guards.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { useRefreshWallets } from '@/lib/wallets.ts';

export const DEPOSIT_POLL_MS = 5_000;

export type DepositOutcome = 'open' | 'paid' | 'partial' | 'expired';

/** A row's status as an outcome; a status this screen does not know keeps the window open. */
export function outcomeOfStatus(status: unknown): DepositOutcome {
  switch (textOf(status).trim().toUpperCase()) {
    case 'PAID':
      return 'paid';
    case 'PARTIAL':
      return 'partial';
    case 'EXPIRED':
      return 'expired';
    default:
      return 'open';
  }
}

export function useDepositWatch(transId: string, secondsLeft: number): DepositOutcome {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refreshWallets = useRefreshWallets();
  const watching = transId !== '' && transId !== '-';
  const query = useQuery({
    ...trpc['table.view_deposit_transaction'].queryOptions({
      pageNo: 1,
      pageSize: 10,
      path: contract['table.view_deposit_transaction'].path,
      search: [transId],
    }),
    enabled: watching,
    staleTime: 0,
    // Until the row says the window is closed; a failed call (silent, spec §8) is asked again.
    refetchInterval: (q) => (outcomeOfRow(q.state.data, transId) === 'open' ? DEPOSIT_POLL_MS : false),
    refetchIntervalInBackground: true,
  });
  const fromRow = outcomeOfRow(query.data, transId);
  const outcome: DepositOutcome = fromRow !== 'open' ? fromRow : secondsLeft <= 0 ? 'expired' : 'open';

  useEffect(() => {
    if (outcome === 'open') return;
    if (outcome === 'paid') void refreshWallets();
    void queryClient.invalidateQueries({ queryKey: trpc['table.view_deposit_transaction'].pathKey() });
    void queryClient.invalidateQueries({
      queryKey: trpc['table.total_pagination_deposit_transaction'].pathKey(),
    });
  }, [outcome, queryClient, refreshWallets, trpc]);

  return outcome;
}

function outcomeOfRow(data: unknown, transId: string): DepositOutcome {
  const row = listOf<Record<string, unknown>>(recordOf(data)?.Success).find(
    (r) => textOf(r.transaction_id) === transId,
  );
  return row ? outcomeOfStatus(row.status) : 'open';
}
