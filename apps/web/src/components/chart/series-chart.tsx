/**
 * A chart of a series over the last 30 or 90 days with what makes it usable without
 * seeing it: a summary read by screen readers, a legend, and "Show as table" for the figures.
 * The plot itself (uPlot, stacked-bars.tsx) loads lazily with a skeleton in its place, so a route
 * downloads it only when the chart renders. 90 days are drawn as weeks: 13 bars read at 375 px.
 */
import { lazy, Suspense, useCallback, useId, useMemo, useState, type ReactNode } from 'react';
import {
  Box,
  Button,
  ButtonGroup,
  Card,
  HStack,
  Heading,
  Skeleton,
  Stack,
  Table,
  Text,
  chakra,
} from '@chakra-ui/react';
import type { Formatters } from '@md/shared';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import { Unavailable } from '../unavailable.tsx';
import { PlotArea } from './chart-readout.tsx';
import {
  perKeyText,
  SERIES_RANGES,
  seriesColour,
  totalOf,
  weekly,
  type SeriesKey,
  type SeriesPoint,
  type SeriesRange,
  type Translate,
} from './series.ts';
import { FALLBACK_PAGES, type Series } from './use-series.ts';

const StackedBars = lazy(() => import('./stacked-bars.tsx'));

/** A bar's day (or week: "Mar 04 – Mar 10, 2026") as the member's language writes dates. */
export const pointDate = (point: SeriesPoint, f: Formatters, t: Translate) =>
  point.date === point.until
    ? f.day(point.date)
    : t('network.chart.weekRange', { from: f.day(point.date, false), until: f.day(point.until) });

/** Short axis labels ("$1.2K") in the member's language. */
const useTick = (locale: string) =>
  useMemo(() => {
    const compactMoney = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: 'USD',
      notation: 'compact',
      maximumFractionDigits: 1,
    });
    return (value: number) => compactMoney.format(value);
  }, [locale]);

export interface SeriesChartProps {
  title: string;
  /** Headings below the page's h1 are h2; inside a section, h3. */
  headingLevel?: 'h2' | 'h3';
  keys: readonly SeriesKey[];
  days: SeriesRange;
  onDaysChange: (days: SeriesRange) => void;
  series: Series;
  /** What a range without any figure says. */
  emptyText: string;
  /** What a bar measures, for the summary: money earned, or binary volume. */
  measure: 'earned' | 'binaryVolume';
  /** Shown under the chart (e.g. where the figures come from). */
  note?: ReactNode;
}

/** One sentence for screen readers: the range, the total, the best bar and each series' share. */
export function summaryOf(
  title: string,
  points: readonly SeriesPoint[],
  keys: readonly SeriesKey[],
  days: number,
  measure: SeriesChartProps['measure'],
  f: Formatters,
  t: Translate,
): string {
  const total = points.reduce((sum, point) => sum + totalOf(point), 0);
  if (total === 0) return t('network.chart.summaryNothing', { title, measure, days });
  const best = points.reduce((top, point) => (totalOf(point) > totalOf(top) ? point : top));
  const perKey = perKeyText(
    keys
      .map(
        ({ key, label }) =>
          [t(label), points.reduce((sum, point) => sum + (point.values[key] ?? 0), 0)] as const,
      )
      .filter(([, sum]) => sum > 0),
    f,
    t,
  );
  const unit = points[0] && points[0].date !== points[0].until ? 'week' : 'day';
  return t('network.chart.summary', {
    title,
    total: f.money(total),
    measure,
    days,
    perKey,
    unit,
    date: pointDate(best, f, t),
    best: f.money(totalOf(best)),
  });
}

/** Which colour is which series. */
function Legend({ keys }: { keys: readonly SeriesKey[] }) {
  const t = useT();
  return (
    <HStack
      as="ul"
      listStyleType="none"
      m="0"
      p="0"
      gap="3"
      wrap="wrap"
      fontSize="xs"
      aria-label={t('network.chart.legend')}
    >
      {keys.map(({ key, label, palette }) => (
        <HStack as="li" key={key} gap="1">
          <Box
            w="3"
            h="3"
            borderRadius="sm"
            bg={seriesColour(palette)}
            _dark={{ bg: seriesColour(palette, true) }}
            aria-hidden
          />
          <Text>{t(label)}</Text>
        </HStack>
      ))}
    </HStack>
  );
}

/** Keeps its room, unseen and unheard (props, not text). */
const UNSEEN = { visibility: 'hidden', 'aria-hidden': true } as const;

/**
 * "Show as table" (disabled until there are figures) and, for 90 days, that bars are weeks. With
 * nothing to show (no figures, a failed read) it keeps its room, unseen.
 */
function Footer({
  asTable,
  days,
  onToggle,
  unseen = false,
}: {
  asTable: boolean;
  days: SeriesRange;
  onToggle?: () => void;
  unseen?: boolean;
}) {
  const t = useT();
  return (
    <HStack justify="space-between" wrap="wrap" gap="2" {...(unseen ? UNSEEN : {})}>
      <Button
        size="xs"
        variant="ghost"
        colorPalette="teal"
        aria-pressed={asTable}
        disabled={!onToggle}
        onClick={onToggle}
      >
        {t(asTable ? 'network.chart.showAsChart' : 'network.chart.showAsTable')}
      </Button>
      {days > 30 && (
        <Text fontSize="xs" color="fg.muted">
          {t('network.chart.weeklyTotals')}
        </Text>
      )}
    </HStack>
  );
}

export function SeriesChart({
  title,
  headingLevel = 'h2',
  keys,
  days,
  onDaysChange,
  series,
  emptyText,
  measure,
  note,
}: SeriesChartProps) {
  const t = useT();
  const f = useFormat();
  const tick = useTick(f.locale);
  const formatDate = useCallback((point: SeriesPoint) => pointDate(point, f, t), [f, t]);
  const [asTable, setAsTable] = useState(false);
  const points = useMemo(
    () => (series.points ? (days > 30 ? weekly(series.points) : series.points) : undefined),
    [series.points, days],
  );
  const hasFigures = Boolean(points?.some((point) => totalOf(point) > 0));
  const summary = points ? summaryOf(title, points, keys, days, measure, f, t) : '';
  // Not from the title: a title in Arabic has no \w characters to make an id of.
  const headingId = `chart-${useId()}`;

  return (
    <Card.Root variant="outline" as="section" aria-labelledby={headingId} data-testid="series-chart">
      <Card.Body gap="3">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Heading as={headingLevel} size="md" id={headingId}>
            {title}
          </Heading>
          <ButtonGroup
            size="xs"
            variant="outline"
            attached
            role="group"
            aria-label={t('network.chart.rangeLabel', { title })}
          >
            {SERIES_RANGES.map((range) => (
              <Button
                key={range}
                aria-pressed={days === range}
                variant={days === range ? 'solid' : 'outline'}
                colorPalette="teal"
                onClick={() => onDaysChange(range)}
              >
                {t('network.chart.days', { days: range })}
              </Button>
            ))}
          </ButtonGroup>
        </HStack>
        {series.isPending || series.isError || !points || !hasFigures ? (
          // The loaded chart's layout, its plot's place holding a skeleton or what stands in for it:
          // nothing below moves when the figures arrive, or turn out to be none.
          <Stack gap="2">
            <Legend keys={keys} />
            <PlotArea>
              {series.isPending ? (
                <Skeleton
                  h="full"
                  w="full"
                  role="status"
                  aria-busy
                  aria-label={t('network.chart.loading', { title })}
                />
              ) : series.isError || !points ? (
                <Unavailable what={title} onRetry={series.refetch} retrying={series.isFetching} />
              ) : (
                <Text color="fg.muted" data-testid="chart-empty" textAlign="center">
                  {emptyText}
                </Text>
              )}
            </PlotArea>
            <Footer asTable={false} days={days} unseen={!series.isPending} />
          </Stack>
        ) : (
          <Stack gap="2">
            <chakra.p srOnly data-testid="chart-summary">
              {summary}
            </chakra.p>
            <Legend keys={keys} />
            {asTable ? (
              <SeriesTable title={title} points={points} keys={keys} />
            ) : (
              <Suspense fallback={<PlotArea />}>
                <StackedBars
                  points={points}
                  keys={keys}
                  label={summary}
                  formatValue={f.money}
                  formatDate={formatDate}
                  formatTick={tick}
                />
              </Suspense>
            )}
            <Footer asTable={asTable} days={days} onToggle={() => setAsTable((shown) => !shown)} />
          </Stack>
        )}
        {series.cut && (
          <Text fontSize="xs" color="fg.muted" data-testid="chart-cut">
            {t('network.chart.cut', { count: FALLBACK_PAGES * 100 })}
          </Text>
        )}
        {note}
      </Card.Body>
    </Card.Root>
  );
}

/** The chart's figures as a table (the "Show as table" view). */
export function SeriesTable({
  title,
  points,
  keys,
}: {
  title: string;
  points: readonly SeriesPoint[];
  keys: readonly SeriesKey[];
}) {
  const t = useT();
  const f = useFormat();
  return (
    <Box
      overflowX="auto"
      maxH="320px"
      overflowY="auto"
      tabIndex={0}
      role="region"
      aria-label={t('network.chart.figuresLabel', { title })}
    >
      <Table.Root size="sm" variant="line" stickyHeader data-testid="chart-table">
        <Table.Caption srOnly>{title}</Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('network.chart.date')}</Table.ColumnHeader>
            {keys.map(({ key, label }) => (
              <Table.ColumnHeader key={key} textAlign="end">
                {t(label)}
              </Table.ColumnHeader>
            ))}
            {keys.length > 1 && (
              <Table.ColumnHeader textAlign="end">{t('network.chart.total')}</Table.ColumnHeader>
            )}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {[...points].reverse().map((point) => (
            <Table.Row key={point.date}>
              <Table.Cell whiteSpace="nowrap">{pointDate(point, f, t)}</Table.Cell>
              {keys.map(({ key }) => (
                <Table.Cell key={key} textAlign="end">
                  {f.money(point.values[key] ?? 0)}
                </Table.Cell>
              ))}
              {keys.length > 1 && (
                <Table.Cell textAlign="end" fontWeight="semibold">
                  {f.money(totalOf(point))}
                </Table.Cell>
              )}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
