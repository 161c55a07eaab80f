/**
 * The names of the packages the member holds ACTIVE, for the 'Current' badge (a member
 * with two active packages has both badged, not only the latest). Read from the subscription table the
 * contract already serves, filtered to ACTIVE; the profile's `package` (the latest) always counts, so
 * a failed table call (silent, spec §8) still badges what the profile says.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { contract } from '@md/shared';
import { listOf, numberOf, recordOf, textOf } from '@/lib/guards.ts';
import { useTRPC } from '@/lib/trpc.ts';

/** The table's largest page: more active packages than this is not a member's portfolio. */
const ACTIVE_PAGE_SIZE = 100;
const ACTIVE_INPUT = {
  pageNo: 1,
  pageSize: ACTIVE_PAGE_SIZE,
  path: contract['subscription.subscription_transaction'].path,
  filters: { Status: ['ACTIVE'] },
};

/** An ACTIVE subscription's figures (its progress to the 3x cap). */
export interface ActiveSubscription {
  transId: string;
  name: string;
  dateTime: string;
  maxEarnings: number;
  totalEarnings: number;
}

export function useActivePlans(profilePackage: string | null | undefined): {
  plans: ReadonlySet<string>;
  /** The ACTIVE rows the table answered; undefined while it loads or when it failed. */
  subscriptions: ActiveSubscription[] | undefined;
  refresh: () => Promise<void>;
  /** The table's read failed, or its answer could not be read. */
  failed: boolean;
  retrying: boolean;
} {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(trpc['subscription.subscription_transaction'].queryOptions(ACTIVE_INPUT));
  const plans = new Set<string>();
  const rows = listOf<Record<string, unknown>>(recordOf(query.data)?.Success).filter(
    (row) => textOf(row.Status) === 'ACTIVE' && textOf(row.Name),
  );
  for (const row of rows) plans.add(textOf(row.Name));
  const subscriptions = query.data
    ? rows.map((row) => ({
        transId: textOf(row.TransID),
        name: textOf(row.Name),
        dateTime: textOf(row.DateTime),
        maxEarnings: numberOf(row.Max_Earnings) ?? 0,
        totalEarnings: numberOf(row.Total_Earnings) ?? 0,
      }))
    : undefined;
  if (profilePackage) plans.add(profilePackage);
  const refresh = useCallback(
    () =>
      queryClient.invalidateQueries({ queryKey: trpc['subscription.subscription_transaction'].pathKey() }),
    [queryClient, trpc],
  );
  const failed = query.isError || (query.data !== undefined && !Array.isArray(recordOf(query.data)?.Success));
  return {
    plans,
    subscriptions: failed ? undefined : subscriptions,
    refresh,
    failed,
    retrying: query.isFetching,
  };
}
