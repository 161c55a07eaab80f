/** Cell values: what a column shows (spec §2: '-' when empty, dates 'MMM dd, yyyy HH:mm') and sorts on. */
import { cellText, formatDateTime, formatMoney, toNumber } from '@md/shared';
import type { ColumnFormat, DataColumn } from './types.ts';

const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

export const rawValue = <Row>(column: DataColumn<Row>, row: Row): unknown =>
  column.value ? column.value(row) : (row as Record<string, unknown>)[column.key];

export function formatValue(format: ColumnFormat | undefined, value: unknown): string {
  // A value that is not a date is shown as it came rather than hidden behind '-'.
  if (format === 'date') return isEmpty(value) ? '-' : formatDateTime(value) === '-' ? String(value) : formatDateTime(value);
  if (format === 'money') return isEmpty(value) ? '-' : formatMoney(value);
  return cellText(value);
}

/** Dates sort by time and money by amount (numbers); text sorts alphanumerically on its string. */
export function sortValue(format: ColumnFormat | undefined, value: unknown): string | number {
  if (format === 'date') {
    const time = isEmpty(value) ? NaN : new Date(value as string).getTime();
    return Number.isFinite(time) ? time : -Infinity;
  }
  if (format === 'money') return isEmpty(value) ? -Infinity : toNumber(value);
  if (typeof value === 'number') return value;
  return isEmpty(value) ? '' : String(value);
}
