/**
 * The charts' data: days of a range, sums per day from table rows (the fallback when the
 * server has no `daily_series` extension), and weeks of days for the 90-day view.
 */
import { sideOf, type Formatters } from '@md/shared';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import type { useT } from '@/lib/i18n/i18n.tsx';
import { numberOf, textOf } from '@/lib/guards.ts';

const DAY_MS = 86_400_000;
export const SERIES_RANGES = [30, 90] as const;
export type SeriesRange = (typeof SERIES_RANGES)[number];

/** One bar: its label (a day, or a week's first day) and a value per series key. */
export interface SeriesPoint {
  date: string;
  /** The last day a weekly point covers (its own date for a day). */
  until: string;
  values: Record<string, number>;
}

export interface SeriesKey {
  key: string;
  /** The series' name in the catalogs (translated where it is shown). */
  label: MessageId;
  /** A Chakra colour palette: the bar's colour (seriesColour), light and dark. */
  palette: string;
}

/**
 * A series' colour token: the palette's solid in the light theme; a lighter step in the dark one,
 * where the solid (the 600 step in both themes) sits dim on the dark background.
 */
export const seriesColour = (palette: string, dark = false) => (dark ? `${palette}.400` : `${palette}.solid`);

/**
 * The top of the value axis: above the highest bar by at least a tenth, rounded up to 1, 2, 2.5 or 5
 * times a power of ten, so the highest bar has headroom and the top line a round figure.
 */
export function axisTop(max: number): number {
  if (!(max > 0)) return 1;
  const target = max * 1.1;
  const power = 10 ** Math.floor(Math.log10(target));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= target)!;
  return step * power;
}

export const EARNING_KEYS: readonly SeriesKey[] = [
  { key: 'ROI', label: 'network.chart.series.roi', palette: 'teal' },
  { key: 'Direct', label: 'network.chart.series.direct', palette: 'blue' },
  { key: 'Level', label: 'network.chart.series.level', palette: 'purple' },
  { key: 'Binary', label: 'network.chart.series.binary', palette: 'orange' },
  { key: 'Rank', label: 'network.chart.series.rank', palette: 'pink' },
];
/** The legs are data: Left is the left leg in every language, only its name is translated. */
export const VOLUME_KEYS: readonly SeriesKey[] = [
  { key: 'Left', label: 'network.chart.series.leftLeg', palette: 'blue' },
  { key: 'Right', label: 'network.chart.series.rightLeg', palette: 'orange' },
];

/** The earning history's Type of each income, and the series it adds to. */
export const EARNING_TYPE_KEYS: Readonly<Record<string, string>> = {
  ROI: 'ROI',
  'Direct Income': 'Direct',
  'Level Income': 'Level',
  'Binary Income': 'Binary',
  'Rank Reward': 'Rank',
};

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last `days` UTC days ending with `to` (YYYY-MM-DD), oldest first. */
export function daysUntil(to: string, days: number): string[] {
  const end = Date.parse(`${to}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => isoDay(end - (days - 1 - i) * DAY_MS));
}

/** A point per day of the range: the sums given, 0 elsewhere (a sum outside the range is left out). */
export function fillDays(
  range: readonly string[],
  keys: readonly SeriesKey[],
  sums: ReadonlyMap<string, Record<string, number>>,
): SeriesPoint[] {
  return range.map((date) => ({
    date,
    until: date,
    values: Object.fromEntries(keys.map(({ key }) => [key, sums.get(date)?.[key] ?? 0])),
  }));
}

/** Sums of the server's answer (`Days: [{ Date, ...values }]`), by day; odd entries are skipped. */
export function sumsOfDays(
  days: readonly Record<string, unknown>[],
  keys: readonly SeriesKey[],
): Map<string, Record<string, number>> {
  const sums = new Map<string, Record<string, number>>();
  for (const day of days) {
    const date = textOf(day.Date);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) continue;
    sums.set(date, Object.fromEntries(keys.map(({ key }) => [key, numberOf(day[key]) ?? 0])));
  }
  return sums;
}

/** Adds `amount` to a day's `key` (amounts in cents, so many rows add up exactly). */
function add(sums: Map<string, Record<string, number>>, date: string, key: string, amount: number) {
  const day = sums.get(date) ?? {};
  day[key] = Math.round(((day[key] ?? 0) + amount) * 100) / 100;
  sums.set(date, day);
}

/** Income per day and type from earning-history rows: the rows whose Type is an income. */
export function sumEarningRows(
  rows: readonly Record<string, unknown>[],
): Map<string, Record<string, number>> {
  const sums = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const key = EARNING_TYPE_KEYS[textOf(row.Type)];
    const amount = numberOf(row.Amount);
    const date = textOf(row.DateTime).slice(0, 10);
    if (key && amount !== undefined && amount > 0 && date.length === 10) add(sums, date, key, amount);
  }
  return sums;
}

/** Volume per day and leg from binary-volume rows (Side "0", or a drifted 'L', is left, else right: shared sideOf). */
export function sumVolumeRows(rows: readonly Record<string, unknown>[]): Map<string, Record<string, number>> {
  const sums = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const amount = numberOf(row.Volume);
    const date = textOf(row.DateTime).slice(0, 10);
    if (amount !== undefined && date.length === 10)
      add(sums, date, sideOf(row.Side) === '0' ? 'Left' : 'Right', amount);
  }
  return sums;
}

/** Weeks of 7 days, the last one ending with the last day (the first may be shorter). */
export function weekly(points: readonly SeriesPoint[]): SeriesPoint[] {
  const weeks: SeriesPoint[] = [];
  for (let end = points.length; end > 0; end -= 7) {
    const slice = points.slice(Math.max(0, end - 7), end);
    const values: Record<string, number> = {};
    for (const point of slice)
      for (const [key, value] of Object.entries(point.values))
        values[key] = Math.round(((values[key] ?? 0) + value) * 100) / 100;
    weeks.unshift({ date: slice[0]!.date, until: slice[slice.length - 1]!.until, values });
  }
  return weeks;
}

export type Translate = ReturnType<typeof useT>;

/** "ROI $35.00, Direct $5.00": each series with its figure, listed as the member's language lists. */
export function perKeyText(
  pairs: readonly (readonly [label: string, value: number])[],
  f: Formatters,
  t: Translate,
) {
  const items = pairs.map(([label, value]) =>
    t('network.chart.keyFigure', { label, amount: f.money(value) }),
  );
  return new Intl.ListFormat(f.locale, { type: 'unit', style: 'short' }).format(items);
}

export const totalOf = (point: SeriesPoint) =>
  Object.values(point.values).reduce((sum, value) => sum + value, 0);
