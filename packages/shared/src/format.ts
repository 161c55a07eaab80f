/** Display formatters shared by the web app and the server's mail text. */
import { format as formatDate, isValid } from 'date-fns';
import { DATE_FORMAT, DAY_FORMAT, MICROS_PER_UNIT, SHORT_DAY_FORMAT } from './constants.ts';

/** Truncate (not round) to 2 decimals; rounding to micro-units first removes float noise (1.1 * 3). */
export const truncate2 = (value: number): number => {
  if (!Number.isFinite(value)) return 0;
  const micros = Math.round(value * MICROS_PER_UNIT);
  return Math.trunc(micros / 10_000) / 100;
};

/** A finite number (numeric strings included), else undefined: a figure that is absent or unreadable. */
export function numberOf(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** What every formatter shows for a figure that is absent or unreadable: never a 0 that reads as a balance. */
export const NO_FIGURE = '-';

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const shown = (value: unknown, format: (n: number) => string): string => {
  const n = numberOf(value);
  return n === undefined ? NO_FIGURE : format(truncate2(n));
};
/** USD with 2 decimals, truncated: 12.349 → "$12.34"; '-' for anything that is not a number. */
export const formatMoney = (value: unknown): string => shown(value, (n) => usd.format(n));
/** The amount without the currency sign: "1,234.50". */
export const formatAmount = (value: unknown): string => formatMoney(value).replace('$', '');

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
/** A plain figure (a level, a count) with thousands separators, at most 2 decimals: 20100 → "20,100"; '-' for a non-number. */
export const formatNumber = (value: unknown): string => shown(value, (n) => count.format(n));
/** A percentage as given (1.4 is 1.4 %), at most 2 decimals: 1.4 → "1.4%", 10 → "10%"; '-' for a non-number. */
export const formatPercent = (value: unknown): string => shown(value, (n) => `${count.format(n)}%`);

export const toNumber = (value: unknown): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? parseFloat(value) : NaN;
  return Number.isFinite(n) ? n : 0;
};

/** 'MMM dd, yyyy HH:mm' in the viewer's time zone; '-' for anything that is not a date. */
export const formatDateTime = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '-';
  const date = value instanceof Date ? value : new Date(value as string | number);
  return isValid(date) ? formatDate(date, DATE_FORMAT) : '-';
};

/** A calendar day (YYYY-MM-DD, no time zone) as the app writes days: "Nov 27, 2026", or "Nov 27" without the year; '-' for anything else. */
export const formatDay = (day: string, withYear = true): string => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return '-';
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return isValid(date) ? formatDate(date, withYear ? DAY_FORMAT : SHORT_DAY_FORMAT) : '-';
};

/** First 3 and last 3 characters of the local part, the middle starred. */
export const maskEmail = (email: string | null | undefined): string => {
  if (!email) return '-';
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  const local = email.slice(0, at);
  const domain = email.slice(at);
  if (local.length <= 6) return `${local.slice(0, 1)}${'*'.repeat(Math.max(local.length - 1, 0))}${domain}`;
  return `${local.slice(0, 3)}${'*'.repeat(local.length - 6)}${local.slice(-3)}${domain}`;
};

/** An address as its first 6 and last 4 characters. */
export const shortenAddress = (address: string | null | undefined): string => {
  if (!address) return '-';
  return address.length <= 10 ? address : `${address.slice(0, 6)}...${address.slice(-4)}`;
};

/** Notification types are shown with underscores as spaces. */
export const humanizeType = (type: string | null | undefined) => (type ?? '').replaceAll('_', ' ');

/** Empty cells show '-'. */
export const cellText = (value: unknown): string =>
  value === null || value === undefined || value === '' ? '-' : String(value);

/** Integer micro-units to a JSON number of USDT (exact for the ≤6 decimals we keep). */
export const microsToAmount = (micros: number): number => micros / MICROS_PER_UNIT;
/** A validated amount (≤ 6 decimals) to integer micro-units. */
export const amountToMicros = (amount: number): number => Math.round(amount * MICROS_PER_UNIT);
