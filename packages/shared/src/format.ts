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

/** This device's time zone (IANA name), UTC when it names none: the zone a member reads times in. */
export const deviceTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const dateOf = (value: unknown): Date | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value as string | number);
  return Number.isFinite(date.getTime()) ? date : undefined;
};

/** A value made on its first call and kept. */
const once = <T>(make: () => T): (() => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};

/** Formatters for one language (a BCP 47 tag Intl knows) and one time zone: what a screen shows. */
export interface Formatters {
  locale: string;
  timeZone: string;
  /** USD with 2 decimals, truncated; '-' for a non-number ("$12.34" in English, "12,34 US$" in Spanish). */
  money: (value: unknown) => string;
  /** The amount without the currency: "1,234.50". */
  amount: (value: unknown) => string;
  /** A count or level with grouping, at most 2 decimals. */
  number: (value: unknown) => string;
  /** A percentage as given (1.4 is 1.4 %). */
  percent: (value: unknown) => string;
  /** Date and time in the zone, the zone named: "Nov 27, 2026 14:05 GMT+1"; '-' for a non-date. */
  dateTime: (value: unknown) => string;
  /** The time of day in the zone, the zone named: "12:00 GMT+1". */
  time: (value: unknown) => string;
  /** A calendar day (YYYY-MM-DD, no zone: a day is a day everywhere). */
  day: (day: string, withYear?: boolean) => string;
  /** A month (YYYY-MM): "October 2026". */
  month: (month: string) => string;
  /** The zone's short name at an instant ("GMT+1", "EST"). */
  zoneName: (at?: unknown) => string;
  /** The time of day on the UK clock the daily runs keep ("11:00"). */
  ukTime: (date: Date) => string;
}

/**
 * One set of formatters per language and zone. English keeps the app's written patterns (spec:
 * 'MMM dd, yyyy HH:mm'); other languages write dates their own way through Intl.
 */
export function createFormatters(locale: string, timeZone: string): Formatters {
  const english = locale === 'en' || locale.startsWith('en-');
  // In a right-to-left language an amount is a left-to-right unit ("23,450.00 US$"): without the
  // isolate marks the bidi algorithm draws "US$" as "$US" beside Arabic text.
  const rightToLeft = /^(ar|he|fa|ur)\b/.test(locale);
  const isolated = (text: string) => (rightToLeft ? `\u2066${text}\u2069` : text);
  // Each Intl formatter is made on its first use: making one costs a phone a few milliseconds, and a
  // screen uses some of them only.
  const numbers = (options: Intl.NumberFormatOptions) => once(() => new Intl.NumberFormat(locale, options));
  const dates = (options: Intl.DateTimeFormatOptions) => once(() => new Intl.DateTimeFormat(locale, options));
  // The time of day: English keeps the spec's 24-hour clock.
  const clock = {
    hour: '2-digit',
    minute: '2-digit',
    ...(english ? { hourCycle: 'h23' } : {}),
  } as const satisfies Intl.DateTimeFormatOptions;
  const currency = numbers({
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const plain = numbers({ minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const figure = numbers({ maximumFractionDigits: 2 });
  const percentFormat = numbers({ style: 'percent', maximumFractionDigits: 4 });
  const shortDay = { month: 'short', day: '2-digit' } as const;
  const dateTimeFormat = dates({ timeZone, year: 'numeric', ...shortDay, ...clock, timeZoneName: 'short' });
  const timeFormat = dates({ timeZone, ...clock, timeZoneName: 'short' });
  const dayFormat = dates({ timeZone: 'UTC', year: 'numeric', ...shortDay });
  const shortDayFormat = dates({ timeZone: 'UTC', ...shortDay });
  const monthFormat = dates({ timeZone: 'UTC', month: 'long', year: 'numeric' });
  // The UK clock the daily runs keep (ukClock).
  const ukTimeFormat = dates({ timeZone: 'Europe/London', ...clock });
  const partsOf = (format: Intl.DateTimeFormat, date: Date) =>
    Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value])) as Record<
      string,
      string
    >;
  return {
    locale,
    timeZone,
    money: (value) => shown(value, (n) => isolated(currency().format(n))),
    amount: (value) => shown(value, (n) => plain().format(n)),
    number: (value) => shown(value, (n) => figure().format(n)),
    percent: (value) => shown(value, (n) => percentFormat().format(n / 100)),
    dateTime: (value) => {
      const date = dateOf(value);
      if (!date) return NO_FIGURE;
      if (!english) return dateTimeFormat().format(date);
      const p = partsOf(dateTimeFormat(), date);
      return `${p.month} ${p.day}, ${p.year} ${p.hour}:${p.minute} ${p.timeZoneName}`;
    },
    time: (value) => {
      const date = dateOf(value);
      return date ? timeFormat().format(date) : NO_FIGURE;
    },
    day: (day, withYear = true) => {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
      if (!match) return NO_FIGURE;
      const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
      if (!Number.isFinite(date.getTime())) return NO_FIGURE;
      const format = withYear ? dayFormat() : shortDayFormat();
      if (!english) return format.format(date);
      const p = partsOf(format, date);
      return withYear ? `${p.month} ${p.day}, ${p.year}` : `${p.month} ${p.day}`;
    },
    month: (month) => {
      const match = /^(\d{4})-(\d{2})$/.exec(month);
      return match
        ? monthFormat().format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)))
        : NO_FIGURE;
    },
    zoneName: (at = Date.now()) => partsOf(timeFormat(), dateOf(at) ?? new Date()).timeZoneName ?? timeZone,
    ukTime: (date) => ukTimeFormat().format(date),
  };
}

/** "Oct 02, 2026 01:05 GMT+1": an instant in English in `timeZone`, the zone named (statements, mail). */
export const zonedDateTime = (value: unknown, timeZone: string): string =>
  createFormatters('en-US', timeZone).dateTime(value);

/**
 * An instant for a daily run (binary matching at 11:00 UK, the ROI run): `local`, its date and
 * time in the member's zone, the zone named ("Nov 30, 2026 12:00 GMT+1"), and `uk`, its time of
 * day on the UK clock the runs keep ("11:00"; the text around it says "UK time").
 */
export function ukClock(value: unknown, formatters: Formatters): { local: string; uk: string } {
  const date = dateOf(value);
  if (!date) return { local: NO_FIGURE, uk: NO_FIGURE };
  return { local: formatters.dateTime(date), uk: formatters.ukTime(date) };
}

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');
/**
 * A time in a notice or mail the server writes: the app's 'MMM dd, yyyy HH:mm' in UTC, said so (the
 * server does not know the member's zone); the app shows each such time again in the member's zone
 * (localizeNoticeTimes).
 */
export const noticeTime = (ms: number) => {
  const d = new Date(ms);
  return `${MONTHS_EN[d.getUTCMonth()]} ${two(d.getUTCDate())}, ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
};
const NOTICE_TIME =
  /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{2}), (\d{4}) (\d{2}):(\d{2}) UTC\b/g;
/** A notice's text with each time the server wrote in UTC (noticeTime) in the member's zone and language, the zone named. */
export const localizeNoticeTimes = (text: string, format: Pick<Formatters, 'dateTime'>): string =>
  text.replace(NOTICE_TIME, (_, month: string, day: string, year: string, hour: string, minute: string) =>
    format.dateTime(
      Date.UTC(Number(year), MONTHS_EN.indexOf(month), Number(day), Number(hour), Number(minute)),
    ),
  );
