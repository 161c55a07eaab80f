/** Types of the one paged data table (DESIGN §7): which endpoints it reads and how columns show. */
import type { ReactNode } from 'react';
import type { RowData } from '@tanstack/react-table';
import type { Contract, OutputOf, ProcedureName, tableInput } from '@md/shared';

/** Procedures that take the paged-table input (spec §7). */
type PagedName = {
  [K in ProcedureName]: Contract[K]['input'] extends typeof tableInput ? K : never;
}[ProcedureName];
/** A paged list: answers `{ Success: Row[] }`. */
export type PagedListName = {
  [K in PagedName]: OutputOf<K>['Success'] extends readonly unknown[] ? K : never;
}[PagedName];
/** Its total: answers `{ Success: pageCount }`. */
export type PagedTotalName = {
  [K in PagedName]: OutputOf<K>['Success'] extends number ? K : never;
}[PagedName];
export type RowOf<L extends PagedListName> = OutputOf<L>['Success'][number];

/**
 * How a value is shown (in the member's language): as text ('-' when empty), as a date
 * 'MMM dd, yyyy HH:mm' in the member's zone with the zone named, as USD money
 * ('$1,500.00'), as a figure with thousands separators ('20,100'), or as a percentage ('1.4%').
 */
export type ColumnFormat = 'text' | 'date' | 'money' | 'number' | 'percent';

export interface DataColumn<Row> {
  /** The row field (or, with `value`, the id of a computed column). Also the column's visibility key. */
  key: string;
  /** Already in the member's language: build columns with `t` (a useMemo on it), not at module level. */
  header: string;
  format?: ColumnFormat;
  /** The raw value, when it is not `row[key]`: it is formatted, sorted on and shown on mobile cards. */
  value?: (row: Row) => unknown;
  /** Custom content (badges); the formatted value when absent. */
  render?: (row: Row) => ReactNode;
  /**
   * Shown on the phone card's face; the other columns are a tap away ("Show details"). When no
   * column of a table says, the first four visible ones are.
   */
  summary?: boolean;
  /** A button per row (Why?, Track), not data: never exported. */
  action?: boolean;
}

/** A preset filter: the member picks some of `options`; sent as `filters: { [column]: picked }`. */
export interface PresetFilter {
  column: string;
  /** In the member's language. */
  label: string;
  /** The values sent to the server. */
  options: readonly string[];
  /** How an option reads in the menu (the value itself when absent). */
  optionLabel?: (option: string) => string;
}

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Amounts stay on one line; text may wrap so wide tables fit (dates only before the time). */
    nowrap?: boolean;
    /** On the phone card's face (DataColumn.summary). */
    summary?: boolean;
  }
}
