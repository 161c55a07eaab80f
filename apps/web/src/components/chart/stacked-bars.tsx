/**
 * Stacked bars drawn by uPlot: one bar per point, one stack per series key. Loaded
 * lazily (series-chart.tsx) so only the routes with a chart download uPlot. Colours are the Chakra
 * palettes' tokens (seriesColour) read from the page, so the bars follow the light and dark themes.
 * Keyboard: the plot is focusable; Left and Right move between bars, Home and End jump, and the
 * readout under it (a live region) says the bar's date and figures.
 * Time runs left to right in every language (the plot is drawn left to right, Arabic included), so
 * Left and Right keep their meaning: earlier and later.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Box } from '@chakra-ui/react';
import { useTheme } from 'next-themes';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import { ChartReadout, IDLE_READOUT, PLOT_HEIGHT } from './chart-readout.tsx';
import { axisTop, perKeyText, seriesColour, totalOf, type SeriesKey, type SeriesPoint } from './series.ts';

export interface StackedBarsProps {
  points: readonly SeriesPoint[];
  keys: readonly SeriesKey[];
  /** What the plot shows, for screen readers and the focus ring (the table says the figures). */
  label: string;
  formatValue: (value: number) => string;
  formatDate: (point: SeriesPoint) => string;
  /** Short axis labels. */
  formatTick: (value: number) => string;
  height?: number;
}

/** A CSS colour (a token's var) as the rgb() the canvas takes, read through a probe element. */
function resolveColour(probe: HTMLElement, css: string): string {
  probe.style.color = css;
  return getComputedStyle(probe).color || '#888';
}

export default function StackedBars({
  points,
  keys,
  label,
  formatValue,
  formatDate,
  formatTick,
  height = PLOT_HEIGHT,
}: StackedBarsProps) {
  const host = useRef<HTMLDivElement>(null);
  const probe = useRef<HTMLSpanElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [active, setActive] = useState<number | null>(null);
  const { resolvedTheme } = useTheme();
  const t = useT();
  const f = useFormat();

  useEffect(() => {
    const element = host.current;
    const colours = probe.current;
    if (!element || !colours) return;
    const colour = (token: string) =>
      resolveColour(colours, `var(--chakra-colors-${token.replaceAll('.', '-')})`);
    const axisColour = colour('fg.muted');
    const gridColour = colour('border');
    // Stacks: the series drawn first is the whole bar; each next one covers it up to its own top.
    const xs = points.map((_, i) => i);
    const stacks = keys.map((_, k) =>
      points.map((point) =>
        keys.slice(0, keys.length - k).reduce((sum, { key }) => sum + (point.values[key] ?? 0), 0),
      ),
    );
    const bars = uPlot.paths.bars!({ size: [0.7, 48], gap: 1 });
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false }, y: false },
      scales: {
        x: { time: false, range: () => [-0.5, points.length - 0.5] },
        y: { range: (_u, _min, max) => [0, axisTop(max)] },
      },
      axes: [
        {
          stroke: axisColour,
          grid: { show: false },
          ticks: { stroke: gridColour },
          values: (_u, splits) =>
            splits.map((i) => (Number.isInteger(i) && points[i] ? f.day(points[i].date, false) : '')),
        },
        {
          stroke: axisColour,
          grid: { stroke: gridColour, width: 1 },
          ticks: { stroke: gridColour },
          size: 56,
          values: (_u, splits) => splits.map(formatTick),
        },
      ],
      series: [
        {},
        ...keys.map((_, k) => {
          const key = keys[keys.length - 1 - k]!;
          const fill = colour(seriesColour(key.palette, resolvedTheme === 'dark'));
          return {
            label: t(key.label),
            stroke: fill,
            fill,
            width: 0,
            paths: bars,
            points: { show: false },
          } satisfies uPlot.Series;
        }),
      ],
      hooks: { setCursor: [(u) => setActive(u.cursor.idx ?? null)] },
    };
    const created = new uPlot(options, [xs, ...stacks], element);
    plot.current = created;
    const resize = new ResizeObserver(() =>
      created.setSize({ width: Math.max(element.clientWidth, 200), height }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      created.destroy();
      plot.current = null;
    };
  }, [points, keys, height, formatTick, resolvedTheme, f, t]);

  /** Moves the cursor to bar `index` (the readout follows through setCursor). */
  const focusBar = (index: number) => {
    const u = plot.current;
    if (!u || points.length === 0) return;
    const i = Math.min(points.length - 1, Math.max(0, index));
    const top = totalOf(points[i]!);
    u.setCursor({ left: u.valToPos(i, 'x'), top: u.valToPos(top, 'y') });
    setActive(i);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowLeft: (active ?? points.length) - 1,
      ArrowRight: (active ?? -1) + 1,
      Home: 0,
      End: points.length - 1,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    focusBar(moves[event.key]!);
  };

  const point = active !== null ? points[active] : undefined;
  return (
    <Box>
      <span ref={probe} aria-hidden style={{ display: 'none' }} />
      <Box
        ref={host}
        // uPlot lays out its canvas and overlays left to right; the page around it may be right to left.
        dir="ltr"
        role="img"
        aria-label={label}
        aria-roledescription={t('network.chart.roleDescription')}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onFocus={() => active === null && focusBar(points.length - 1)}
        borderRadius="md"
        _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '2px' }}
        colorPalette="teal"
        minH={`${height}px`}
        data-testid="chart-plot"
      />
      <ChartReadout>
        {point
          ? keys.length > 1
            ? t('network.chart.readoutWithKeys', {
                date: formatDate(point),
                total: formatValue(totalOf(point)),
                perKey: perKeyText(
                  keys.map(({ key, label: name }) => [t(name), point.values[key] ?? 0] as const),
                  f,
                  t,
                ),
              })
            : t('network.chart.readout', { date: formatDate(point), total: formatValue(totalOf(point)) })
          : t(IDLE_READOUT)}
      </ChartReadout>
    </Box>
  );
}
