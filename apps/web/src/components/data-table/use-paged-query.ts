/** The list and total calls of one paged table (spec §7), from the view state. */
import { useEffect, useMemo } from 'react';
import { keepPreviousData, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import { MSG, contract, type TableInput } from '@md/shared';
import { listOf, numberOf, recordOf } from '@/lib/guards.ts';
import { useDebouncedValue } from '@/lib/use-debounced-value.ts';
import { useTRPC } from '@/lib/trpc.ts';
import type { PagedListName, PagedTotalName, RowOf } from './types.ts';
import type { TableViewState } from './use-table-state.ts';

export const SEARCH_DEBOUNCE_MS = 300;

/** The one shape every paged procedure shares; trpc[name] over a name union is too wide for TS to call. */
interface PagedProcedure<TOut> {
  queryOptions: (input: TableInput) => UseQueryOptions<TOut, Error, TOut, readonly unknown[]>;
}

/** Search, dates and picked filters as the provider reads them; empty ones are left out. */
export function criteriaOf(
  state: Pick<TableViewState, 'startDate' | 'endDate' | 'filters'>,
  search: string,
): TableInput {
  const filters = Object.fromEntries(Object.entries(state.filters).filter(([, values]) => values.length > 0));
  return {
    ...(search ? { search: [search] } : {}),
    ...(state.startDate ? { start_date: state.startDate } : {}),
    ...(state.endDate ? { end_date: state.endDate } : {}),
    ...(Object.keys(filters).length > 0 ? { filters } : {}),
  };
}

const EMPTY: never[] = [];

export function usePagedQuery<L extends PagedListName>(
  list: L,
  total: PagedTotalName,
  state: TableViewState,
  /** The typed search as the server reads it (DataTableProps.searchText). */
  searchText: (typed: string) => string = (typed) => typed,
) {
  const trpc = useTRPC();
  const typed = state.search.trim();
  const debounced = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  // Typing waits for a pause; clearing the box (or Clear Filters) applies at once.
  const search = typed === '' ? '' : searchText(debounced);
  const criteria = criteriaOf(state, search);
  const listProcedure = trpc[list] as unknown as PagedProcedure<{ Success: RowOf<L>[] }>;
  const totalProcedure = trpc[total] as unknown as PagedProcedure<{ Success: number }>;

  const rowsQuery = useQuery({
    ...listProcedure.queryOptions({
      ...criteria,
      pageNo: state.page,
      pageSize: state.pageSize,
      path: contract[list].path,
    }),
    // The previous page stays on screen while the next loads; a failed call shows nothing new (spec §8).
    placeholderData: keepPreviousData,
  });
  // The page count does not depend on the page number, so paging does not refetch it.
  const totalQuery = useQuery({
    ...totalProcedure.queryOptions({ ...criteria, pageSize: state.pageSize, path: contract[total].path }),
    placeholderData: keepPreviousData,
  });

  // Table calls fail silently on screen (spec §8): no new data, no message; the console says why.
  const { error: rowsError } = rowsQuery;
  const { error: totalError } = totalQuery;
  useEffect(() => {
    if (rowsError) console.error(MSG.errorFetchingData(rowsError.message || rowsError.name), rowsError);
  }, [rowsError]);
  useEffect(() => {
    if (totalError) console.error(MSG.failedTotalPages, totalError);
  }, [totalError]);

  // Only object rows are shown: an answer that is not a list of rows reads as no rows.
  const rows = useMemo(
    () =>
      rowsQuery.data === undefined
        ? (EMPTY as RowOf<L>[])
        : listOf<RowOf<L>>(recordOf(rowsQuery.data)?.Success),
    [rowsQuery.data],
  );
  const pages = numberOf(recordOf(totalQuery.data)?.Success);
  const { refetch: refetchRows } = rowsQuery;
  const { refetch: refetchTotal, isError: totalFailed } = totalQuery;
  // An answer whose Success is no list is a read that failed, not an empty page.
  const unreadable = rowsQuery.data !== undefined && !Array.isArray(recordOf(rowsQuery.data)?.Success);
  return {
    rows,
    loading: rowsQuery.isPending,
    // A failed list is not an empty one: the table says the rows are unavailable (never 'No data').
    failed: rowsQuery.isError || unreadable,
    /** The page count could not be read: no pager offers pages nobody knows. */
    pagesFailed: totalQuery.isError,
    retrying: rowsQuery.isFetching,
    retry: () => {
      void refetchRows();
      if (totalFailed) void refetchTotal();
    },
    // The total answers the page count; 1 when it is missing or not a number (spec §7).
    totalPages: Math.max(1, Math.trunc(pages ?? 1)),
  };
}
