/** The table's view state in one reducer, so "what resets the page" (spec §4) lives in one place. */
import { useReducer } from 'react';
import type { SortingState, VisibilityState } from '@tanstack/react-table';
import { TABLE_DEFAULT_PAGE, TABLE_DEFAULT_PAGE_SIZE, clampPage } from '@md/shared';

export interface TableViewState {
  search: string;
  startDate: string;
  endDate: string;
  /** Preset filter picks: column → accepted values (empty = no filter). */
  filters: Record<string, string[]>;
  pageSize: number;
  page: number;
  sorting: SortingState;
  columnVisibility: VisibilityState;
}

export type TableAction =
  | { type: 'search'; value: string }
  | { type: 'startDate'; value: string }
  | { type: 'endDate'; value: string }
  | { type: 'filter'; column: string; values: string[] }
  | { type: 'pageSize'; value: number }
  | { type: 'page'; value: number; totalPages: number }
  | { type: 'sorting'; value: SortingState }
  | { type: 'columnVisibility'; value: VisibilityState }
  | { type: 'clear' };

export const initialTableState: TableViewState = {
  search: '',
  startDate: '',
  endDate: '',
  filters: {},
  pageSize: TABLE_DEFAULT_PAGE_SIZE,
  page: TABLE_DEFAULT_PAGE,
  sorting: [],
  columnVisibility: {},
};

export function tableReducer(state: TableViewState, action: TableAction): TableViewState {
  switch (action.type) {
    // Changing search, date range, rows per page or filters goes back to page 1 (spec §4).
    case 'search':
      return { ...state, search: action.value, page: TABLE_DEFAULT_PAGE };
    case 'startDate':
      return { ...state, startDate: action.value, page: TABLE_DEFAULT_PAGE };
    case 'endDate':
      return { ...state, endDate: action.value, page: TABLE_DEFAULT_PAGE };
    case 'filter':
      return {
        ...state,
        filters: { ...state.filters, [action.column]: action.values },
        page: TABLE_DEFAULT_PAGE,
      };
    case 'pageSize':
      return { ...state, pageSize: action.value, page: TABLE_DEFAULT_PAGE };
    case 'page':
      return { ...state, page: clampPage(action.value, action.totalPages) };
    case 'sorting':
      return { ...state, sorting: action.value };
    case 'columnVisibility':
      return { ...state, columnVisibility: action.value };
    // Clear Filters: search, dates, column visibility, preset filters, page 1 and sorting (spec §2).
    // Rows per page is not on that list and stays.
    case 'clear':
      return { ...initialTableState, pageSize: state.pageSize };
  }
}

export const useTableState = () => useReducer(tableReducer, initialTableState);
