/**
 * A chart of a series over the last 30 or 90 days with what makes it usable without
 * seeing it: a summary read by screen readers, a legend, and "Show as table" for the figures.
 * The plot itself (uPlot, stacked-bars.tsx) loads lazily with a skeleton in its place, so a route
 * downloads it only when the chart renders. 90 days are drawn as weeks: 13 bars read at 375 px.
 */
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
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
import { formatDay, formatMoney } from '@md/shared';
import { Unavailable } from '../unavailable.tsx';
import { PlotArea } from './chart-readout.tsx';
import {
  SERIES_RANGES,
  seriesColour,
  totalOf,
  weekly,
  type SeriesKey,
  type SeriesPoint,
  type SeriesRange,
} from './series.ts';
import { FALLBACK_PAGES, type Series } from './use-series.ts';

const StackedBars = lazy(() => import('./stacked-bars.tsx'));

/** A bar's day (or week: "Mar 04 – Mar 10, 2026") as the app writes dates. */
export const pointDate = (point: SeriesPoint) =>
  point.date === point.until
    ? formatDay(point.date)
    : `${formatDay(point.date, false)} – ${formatDay(point.until)}`;
const compactMoney = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});
const tick = (value: number) => compactMoney.format(value);

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
  /** What a bar measures, for the summary: "earned", "of volume". */
  measure: string;
  /** Shown under the chart (e.g. where the figures come from). */
  note?: ReactNode;
}

/** One sentence for screen readers: the range, the total, the best bar and each series' share. */
export function summaryOf(
  title: string,
  points: readonly SeriesPoint[],
  keys: readonly SeriesKey[],
  days: number,
  measure: string,
): string {
  const total = points.reduce((sum, point) => sum + totalOf(point), 0);
  if (total === 0) return `${title}: nothing ${measure} in the last ${days} days.`;
  const best = points.reduce((top, point) => (totalOf(point) > totalOf(top) ? point : top));
  const perKey = keys
    .map(
      ({ key, label }) => [label, points.reduce((sum, point) => sum + (point.values[key] ?? 0), 0)] as const,
    )
    .filter(([, sum]) => sum > 0)
    .map(([label, sum]) => `${label} ${formatMoney(sum)}`)
    .join(', ');
  const unit = points[0] && points[0].date !== points[0].until ? 'week' : 'day';
  return `${title}: ${formatMoney(total)} ${measure} in the last ${days} days (${perKey}); the highest ${unit} was ${pointDate(best)} with ${formatMoney(totalOf(best))}.`;
}

/** Which colour is which series. */
function Legend({ keys }: { keys: readonly SeriesKey[] }) {
  return (
    <HStack as="ul" listStyleType="none" m="0" p="0" gap="3" wrap="wrap" fontSize="xs" aria-label="Legend">
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
          <Text>{label}</Text>
        </HStack>
      ))}
    </HStack>
  );
}

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
  return (
    <HStack
      justify="space-between"
      wrap="wrap"
      gap="2"
      {...(unseen ? { visibility: 'hidden', 'aria-hidden': true } : {})}
    >
      <Button
        size="xs"
        variant="ghost"
        colorPalette="teal"
        aria-pressed={asTable}
        disabled={!onToggle}
        onClick={onToggle}
      >
        {asTable ? 'Show as chart' : 'Show as table'}
      </Button>
      {days > 30 && (
        <Text fontSize="xs" color="fg.muted">
          Weekly totals
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
  const [asTable, setAsTable] = useState(false);
  const points = useMemo(
    () => (series.points ? (days > 30 ? weekly(series.points) : series.points) : undefined),
    [series.points, days],
  );
  const hasFigures = Boolean(points?.some((point) => totalOf(point) > 0));
  const summary = points ? summaryOf(title, points, keys, days, measure) : '';
  const headingId = `chart-${title.replaceAll(/\W+/g, '-').toLowerCase()}`;

  return (
    <Card.Root variant="outline" as="section" aria-labelledby={headingId} data-testid="series-chart">
      <Card.Body gap="3">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Heading as={headingLevel} size="md" id={headingId}>
            {title}
          </Heading>
          <ButtonGroup size="xs" variant="outline" attached role="group" aria-label={`${title}: range`}>
            {SERIES_RANGES.map((range) => (
              <Button
                key={range}
                aria-pressed={days === range}
                variant={days === range ? 'solid' : 'outline'}
                colorPalette="teal"
                onClick={() => onDaysChange(range)}
              >
                {range} days
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
                <Skeleton h="full" w="full" aria-busy aria-label={`Loading ${title}`} />
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
                  formatValue={formatMoney}
                  formatDate={pointDate}
                  formatTick={tick}
                />
              </Suspense>
            )}
            <Footer asTable={asTable} days={days} onToggle={() => setAsTable((shown) => !shown)} />
          </Stack>
        )}
        {series.cut && (
          <Text fontSize="xs" color="fg.muted" data-testid="chart-cut">
            Only the latest {FALLBACK_PAGES * 100} records of the range were read: older days may be missing
            from this chart.
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
  return (
    <Box overflowX="auto" maxH="320px" overflowY="auto" tabIndex={0} aria-label={`${title} figures`}>
      <Table.Root size="sm" variant="line" stickyHeader data-testid="chart-table">
        <Table.Caption srOnly>{title}</Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Date</Table.ColumnHeader>
            {keys.map(({ key, label }) => (
              <Table.ColumnHeader key={key} textAlign="end">
                {label}
              </Table.ColumnHeader>
            ))}
            {keys.length > 1 && <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {[...points].reverse().map((point) => (
            <Table.Row key={point.date}>
              <Table.Cell whiteSpace="nowrap">{pointDate(point)}</Table.Cell>
              {keys.map(({ key }) => (
                <Table.Cell key={key} textAlign="end">
                  {formatMoney(point.values[key] ?? 0)}
                </Table.Cell>
              ))}
              {keys.length > 1 && (
                <Table.Cell textAlign="end" fontWeight="semibold">
                  {formatMoney(totalOf(point))}
                </Table.Cell>
              )}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
