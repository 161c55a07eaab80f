/**
 * The charts' series. With the server's `daily_series` capability one call answers the sums per
 * day; without it (the provider) the client sums what it can page from the table the contract
 * serves over the range, at most FALLBACK_PAGES pages, and says so when the range had more rows.
 */
import { useQuery } from '@tanstack/react-query';
import { contract } from '@md/shared';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { listOf, recordOf, textOf } from '@/lib/guards.ts';
import { useTRPC, useTRPCClient } from '@/lib/trpc.ts';
import {
  daysUntil,
  fillDays,
  isoDay,
  sumEarningRows,
  sumsOfDays,
  sumVolumeRows,
  type SeriesKey,
  type SeriesPoint,
  type SeriesRange,
} from './series.ts';

/** Pages of 100 rows the fallback reads at most per chart (a member with more sees the newest). */
export const FALLBACK_PAGES = 10;
const PAGE_SIZE = 100;

export interface Series {
  points: SeriesPoint[] | undefined;
  /** The fallback stopped at FALLBACK_PAGES: older days of the range may be missing. */
  cut: boolean;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => void;
}

type ListName = 'earning.view_all_earning_history' | 'binary.view_binary_transaction';
type SeriesName = 'earning.view_daily_earnings' | 'binary.view_daily_volume';

interface SeriesSource {
  extension: SeriesName;
  list: ListName;
  keys: readonly SeriesKey[];
  sumRows: (rows: readonly Record<string, unknown>[]) => Map<string, Record<string, number>>;
}

function useSeries(source: SeriesSource, days: SeriesRange, enabled: boolean): Series {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const extension = hasCapability(useConfig(), 'daily_series');
  // One options object per procedure (a union of the two does not type-check as one call).
  const options =
    source.extension === 'earning.view_daily_earnings'
      ? trpc['earning.view_daily_earnings'].queryOptions({ days })
      : trpc['binary.view_daily_volume'].queryOptions({ days });
  const served = useQuery<unknown>({
    ...(options as { queryKey: readonly unknown[] }),
    enabled: enabled && extension,
    retry: false,
  });
  const paged = useQuery({
    queryKey: ['series-fallback', source.list, days],
    enabled: enabled && !extension,
    retry: false,
    queryFn: async ({ signal }) => {
      // The range ends today (UTC), as the extension's does.
      const range = daysUntil(isoDay(Date.now()), days);
      const criteria = {
        start_date: range[0],
        end_date: range[range.length - 1],
        pageSize: PAGE_SIZE,
        path: contract[source.list].path,
      };
      const rows: Record<string, unknown>[] = [];
      let cut = false;
      for (let pageNo = 1; pageNo <= FALLBACK_PAGES; pageNo++) {
        const answer = await client[source.list].query({ ...criteria, pageNo }, { signal });
        const page = listOf(recordOf(answer)?.Success);
        rows.push(...page);
        if (page.length < PAGE_SIZE) break;
        if (pageNo === FALLBACK_PAGES) cut = true;
      }
      return { points: fillDays(range, source.keys, source.sumRows(rows)), cut };
    },
  });
  if (extension) {
    const success = recordOf(recordOf(served.data)?.Success);
    const to = textOf(success?.To);
    const points =
      success && /^\d{4}-\d{2}-\d{2}$/.test(to)
        ? fillDays(daysUntil(to, days), source.keys, sumsOfDays(listOf(success.Days), source.keys))
        : undefined;
    return {
      points,
      cut: false,
      isPending: served.isPending,
      isError: served.isError || (Boolean(served.data) && !points),
      isFetching: served.isFetching,
      refetch: () => void served.refetch(),
    };
  }
  return {
    points: paged.data?.points,
    cut: paged.data?.cut ?? false,
    isPending: paged.isPending,
    isError: paged.isError,
    isFetching: paged.isFetching,
    refetch: () => void paged.refetch(),
  };
}

const EARNINGS: Omit<SeriesSource, 'keys'> = {
  extension: 'earning.view_daily_earnings',
  list: 'earning.view_all_earning_history',
  sumRows: sumEarningRows,
};
const VOLUMES: Omit<SeriesSource, 'keys'> = {
  extension: 'binary.view_daily_volume',
  list: 'binary.view_binary_transaction',
  sumRows: sumVolumeRows,
};

export const useEarningSeries = (keys: readonly SeriesKey[], days: SeriesRange, enabled = true) =>
  useSeries({ ...EARNINGS, keys }, days, enabled);
export const useVolumeSeries = (keys: readonly SeriesKey[], days: SeriesRange, enabled = true) =>
  useSeries({ ...VOLUMES, keys }, days, enabled);
