/**
 * CSV for table exports: RFC 4180 fields, a guard against formula injection (OWASP) and
 * values a spreadsheet or a script reads as they are: amounts as plain decimals, dates as ISO 8601 UTC.
 */
import type { ColumnFormat } from './types.ts';

/** Spreadsheet apps read the file as UTF-8 only when it starts with a byte order mark. */
export const CSV_BOM = '\uFEFF';
/** RFC 4180 ends every record with CRLF. */
export const CSV_EOL = '\r\n';

/** OWASP: a cell starting with one of these may be run as a formula by a spreadsheet app. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** What we write for a number ourselves: never a formula, so it is left readable as a number. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** Prefixes a cell that a spreadsheet would run as a formula with a quote (OWASP CSV injection). */
export const guardFormula = (text: string): string =>
  FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;

/** One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF; quotes doubled. */
export function csvField(text: string): string {
  const guarded = guardFormula(text);
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

export const csvRecord = (fields: readonly string[]): string => fields.map(csvField).join(',') + CSV_EOL;

const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

/** A number without grouping or exponent, every digit kept: 1500 → "1500", 5.678 → "5.678", 1e-7 → "0.0000001". */
export const plainDecimal = (n: number): string =>
  n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });

/** ISO 8601 in UTC to the second ("2024-03-05T10:20:00Z"): the instant the table shows in local time. */
export function isoDateTime(value: unknown): string | null {
  const date = value instanceof Date ? value : new Date(value as string | number);
  return Number.isFinite(date.getTime()) ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : null;
}

/**
 * A cell as exported: empty stays empty (the table's '-' is for eyes); money, figures and percentages
 * (1.4 is 1.4 %) as plain decimals; dates as ISO UTC. A value that is not what its column says is
 * written as it came, like the table shows it.
 */
export function exportValue(format: ColumnFormat | undefined, value: unknown): string {
  if (isEmpty(value)) return '';
  if (format === 'date') return isoDateTime(value) ?? String(value);
  if (format === 'money' || format === 'number' || format === 'percent') {
    const n =
      typeof value === 'number'
        ? value
        : typeof value === 'string' && value.trim() !== ''
          ? Number(value)
          : NaN;
    return Number.isFinite(n) ? plainDecimal(n) : String(value);
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
