/**
 * Cell values: what a column shows and sorts on. Spec §2: '-' when empty, dates 'MMM dd, yyyy HH:mm'
 * (in the member's zone, named); one number format: money '$1,500.00', figures '20,100', percentages
 * '1.4%', each in the member's language (the formatters of useFormat()).
 */
import { cellText, toNumber, type Formatters } from '@md/shared';
import type { ColumnFormat, DataColumn } from './types.ts';

const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

export const rawValue = <Row>(column: DataColumn<Row>, row: Row): unknown =>
  column.value ? column.value(row) : (row as Record<string, unknown>)[column.key];

export function formatValue(format: ColumnFormat | undefined, value: unknown, f: Formatters): string {
  // A value that is not a date is shown as it came rather than hidden behind '-'.
  if (format === 'date')
    return isEmpty(value) ? '-' : f.dateTime(value) === '-' ? String(value) : f.dateTime(value);
  if (format === 'money') return isEmpty(value) ? '-' : f.money(value);
  if (format === 'number') return isEmpty(value) ? '-' : f.number(value);
  if (format === 'percent') return isEmpty(value) ? '-' : f.percent(value);
  return cellText(value);
}

/** Dates sort by time, money, figures and percentages by amount (numbers); text alphanumerically on its string. */
export function sortValue(format: ColumnFormat | undefined, value: unknown): string | number {
  if (format === 'date') {
    const time = isEmpty(value) ? NaN : new Date(value as string).getTime();
    return Number.isFinite(time) ? time : -Infinity;
  }
  if (isNumeric(format)) return isEmpty(value) ? -Infinity : toNumber(value);
  if (typeof value === 'number') return value;
  return isEmpty(value) ? '' : String(value);
}

/** Formats whose values are numbers: sorted as numbers and kept on one line. */
export const isNumeric = (format: ColumnFormat | undefined): boolean =>
  format === 'money' || format === 'number' || format === 'percent';
