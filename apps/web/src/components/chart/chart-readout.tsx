/**
 * The line under a plot that reads out the bar in focus, and the plot's stand-in while uPlot or the
 * figures load: the same height as the plot with its readout (the idle sentence wraps to two lines on a
 * phone), so what sits under a chart does not move when the chart arrives.
 */
import type { ReactNode } from 'react';
import { Box, Skeleton, Text } from '@chakra-ui/react';

/** The plot's height in px (the canvas; the readout comes under it). */
export const PLOT_HEIGHT = 220;
export const IDLE_READOUT = 'Point at a bar, or focus the chart and use the arrow keys, to read its figures.';

export function ChartReadout({ children, live = true }: { children: ReactNode; live?: boolean }) {
  return (
    <Text
      fontSize="sm"
      color="fg.muted"
      minH="1.5em"
      {...(live ? { 'aria-live': 'polite', 'data-testid': 'chart-readout' } : { 'aria-hidden': true })}
    >
      {children}
    </Text>
  );
}

/** A skeleton where the plot will be, and the readout's idle sentence (hidden from screen readers). */
export function PlotPlaceholder({ label }: { label?: string }) {
  return (
    <Box>
      <Skeleton height={`${PLOT_HEIGHT}px`} {...(label ? { 'aria-busy': true, 'aria-label': label } : {})} />
      <ChartReadout live={false}>{IDLE_READOUT}</ChartReadout>
    </Box>
  );
}
