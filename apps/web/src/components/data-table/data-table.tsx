/**
 * The one paged data table of the app (DESIGN §7, spec §2/§4): server paging, search, date range
 * and preset filters; client-side sort of the current page; column chooser; table on desktop,
 * cards below 768 px. Pages give it their list/total procedures and a column set.
 */
import { Suspense, lazy, useMemo, useState } from 'react';
import { Flex, Stack, chakra } from '@chakra-ui/react';
import {
  functionalUpdate,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type OnChangeFn,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import { MSG, type Formatters } from '@md/shared';
import { Unavailable } from '@/components/unavailable.tsx';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { CardView } from './card-view.tsx';
import { formatValue, isNumeric, rawValue, sortValue } from './cell-format.ts';
import { TableControls } from './table-controls.tsx';
import { TablePagination } from './table-pagination.tsx';
import { TableView } from './table-view.tsx';
import type { DataColumn, PagedListName, PagedTotalName, PresetFilter, RowOf } from './types.ts';
import { useIsMobile } from '@/lib/use-is-mobile.ts';
import { criteriaOf, usePagedQuery } from './use-paged-query.ts';
import { useTableState } from './use-table-state.ts';

export interface DataTableProps<L extends PagedListName> {
  /** The list procedure (answers rows) and its total procedure (answers the page count). */
  list: L;
  total: PagedTotalName;
  /**
   * Keep this stable (a useMemo on the language's `t`): the table's column model is rebuilt when it
   * changes. Headers are in the member's language.
   */
  columns: readonly DataColumn<RowOf<L>>[];
  presetFilters?: readonly PresetFilter[];
  searchPlaceholder?: string;
  /** Names the table for assistive technology (and the export's file), in the member's language. */
  caption: string;
  /**
   * The search as the server reads it, from what the member typed: the server matches some columns
   * by their English words (History's Type), so a page may turn a word of the member's language into
   * the server's. Keep it stable (a useCallback).
   */
  searchText?: (typed: string) => string;
}

const NO_FILTERS: readonly PresetFilter[] = [];
const asTyped = (typed: string) => typed;

// Loaded when a member opens it: the CSV writer and the dialog stay out of every route's chunk.
const ExportDialog = lazy(() => import('./export-dialog.tsx'));

/** Our columns → TanStack's: values sort as numbers (dates, money) or alphanumerically (text). */
export function toColumnDefs<Row>(
  columns: readonly DataColumn<Row>[],
  f: Formatters,
): ColumnDef<Row, string | number>[] {
  return columns.map((column) => ({
    id: column.key,
    header: column.header,
    accessorFn: (row: Row) => sortValue(column.format, rawValue(column, row)),
    sortingFn: column.format === 'date' || isNumeric(column.format) ? 'basic' : 'alphanumeric',
    meta: { nowrap: isNumeric(column.format), summary: column.summary },
    cell: ({ row }) => {
      if (column.render) return column.render(row.original);
      const text = formatValue(column.format, rawValue(column, row.original), f);
      return column.format === 'date' ? <DateTimeText text={text} /> : text;
    },
  }));
}

/**
 * 'Oct 02, 2026 10:00 GMT+1' (or '29 nov 2026, 14:31 CET') may break before the time only: a narrow
 * table keeps the date whole, and the time with its zone.
 */
function DateTimeText({ text }: { text: string }) {
  const parts = /^(.*\S)\s+(\d{1,2}:\d{2}.*)$/.exec(text);
  if (!parts) return text;
  return (
    <>
      <chakra.span whiteSpace="nowrap">{parts[1]}</chakra.span>{' '}
      <chakra.span whiteSpace="nowrap">{parts[2]}</chakra.span>
    </>
  );
}

export function DataTable<L extends PagedListName>({
  list,
  total,
  columns,
  presetFilters = NO_FILTERS,
  searchPlaceholder,
  caption,
  searchText = asTyped,
}: DataTableProps<L>) {
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
  const [state, dispatch] = useTableState();
  const { rows, loading, failed, pagesFailed, retrying, retry, totalPages } = usePagedQuery(
    list,
    total,
    state,
    searchText,
  );
  const mobile = useIsMobile();
  const columnDefs = useMemo(() => toColumnDefs(columns, f), [columns, f]);
  const [exporting, setExporting] = useState(false);

  const onSortingChange: OnChangeFn<SortingState> = (updater) =>
    dispatch({ type: 'sorting', value: functionalUpdate(updater, state.sorting) });
  const onColumnVisibilityChange: OnChangeFn<VisibilityState> = (updater) =>
    dispatch({ type: 'columnVisibility', value: functionalUpdate(updater, state.columnVisibility) });

  const table = useReactTable<RowOf<L>>({
    data: rows,
    columns: columnDefs as ColumnDef<RowOf<L>, unknown>[],
    state: { sorting: state.sorting, columnVisibility: state.columnVisibility },
    onSortingChange,
    onColumnVisibilityChange,
    getCoreRowModel: getCoreRowModel(),
    // Sorting is client-side, on the rows of the current page only (spec §4).
    getSortedRowModel: getSortedRowModel(),
    manualPagination: true,
    manualFiltering: true,
    enableMultiSort: false,
    // First click ascending, then descending, then back to the server's order.
    sortDescFirst: false,
    enableSortingRemoval: true,
  });

  const columnItems = table.getAllLeafColumns().map((column) => ({
    value: column.id,
    label: String(column.columnDef.header),
    checked: column.getIsVisible(),
  }));
  // Table calls fail silently (spec §8: no new data, no message): no toast, but no 'No data' either.
  const empty = failed ? (
    <Flex justify="center">
      <Unavailable what={caption} onRetry={retry} retrying={retrying} />
    </Flex>
  ) : loading ? (
    messageText(MSG.loading)
  ) : (
    messageText(MSG.noData)
  );
  const View = mobile ? CardView : TableView;

  return (
    <Stack gap="4">
      <TableControls
        state={state}
        dispatch={dispatch}
        columns={columnItems}
        onToggleColumn={(key, visible) => table.getColumn(key)?.toggleVisibility(visible)}
        presetFilters={presetFilters}
        searchPlaceholder={searchPlaceholder ?? t('tables.searchPlaceholder')}
        mobile={mobile}
        onExport={() => setExporting(true)}
      />
      <View table={table} caption={caption} empty={empty} />
      {/* A failed read shows Unavailable and its Retry, nothing else: no pager over rows that are not there. */}
      {failed ? null : pagesFailed ? (
        <Flex justify="center" data-testid="pages-unavailable">
          <Unavailable what={t('tables.pagesOf', { caption })} onRetry={retry} retrying={retrying} />
        </Flex>
      ) : (
        <TablePagination
          page={state.page}
          totalPages={totalPages}
          pageSize={state.pageSize}
          onPage={(page) => dispatch({ type: 'page', value: page, totalPages })}
          onPageSize={(size) => dispatch({ type: 'pageSize', value: size })}
        />
      )}
      {exporting && (
        <Suspense fallback={null}>
          <ExportDialog
            list={list}
            total={total}
            // What the member sees filtered now: the search as typed (the table applies it after a pause).
            criteria={criteriaOf(state, searchText(state.search.trim()))}
            columns={columns as readonly DataColumn<unknown>[]}
            visibleKeys={columnItems.filter((item) => item.checked).map((item) => item.value)}
            caption={caption}
            onClose={() => setExporting(false)}
          />
        </Suspense>
      )}
    </Stack>
  );
}
