/** Display formatters shared by the web app and the server's mail text. */
import { format as formatDate, isValid } from 'date-fns';
import { DATE_FORMAT, MICROS_PER_UNIT } from './constants.ts';

/** Truncate (not round) to 2 decimals; rounding to micro-units first removes float noise (1.1 * 3). */
export const truncate2 = (value: number): number => {
  if (!Number.isFinite(value)) return 0;
  const micros = Math.round(value * MICROS_PER_UNIT);
  return Math.trunc(micros / 10_000) / 100;
};

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** USD with 2 decimals, truncated: 12.349 → "$12.34". Non-numbers read as 0. */
export const formatMoney = (value: unknown): string => usd.format(truncate2(toNumber(value)));
/** The amount without the currency sign: "1,234.50". */
export const formatAmount = (value: unknown): string => formatMoney(value).replace('$', '');

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
/** A plain figure (a level, a count) with thousands separators, at most 2 decimals: 20100 → "20,100". Non-numbers read as 0. */
export const formatNumber = (value: unknown): string => count.format(truncate2(toNumber(value)));
/** A percentage as given (1.4 is 1.4 %), at most 2 decimals: 1.4 → "1.4%", 10 → "10%". Non-numbers read as 0. */
export const formatPercent = (value: unknown): string => `${count.format(truncate2(toNumber(value)))}%`;

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
