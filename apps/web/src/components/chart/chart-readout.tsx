/**
 * The line under a plot that reads out the bar in focus, and the plot's place while uPlot or the
 * figures load, or when there is nothing to plot: the same height as the plot with its readout (the
 * idle sentence wraps to two lines on a phone), so what sits under a chart does not move.
 */
import type { ReactNode } from 'react';
import { Box, Flex, Skeleton, Text } from '@chakra-ui/react';
import { useT } from '@/lib/i18n/i18n.tsx';

/** The plot's height in px (the canvas; the readout comes under it). */
export const PLOT_HEIGHT = 220;
/** What the readout says before a bar is chosen. */
export const IDLE_READOUT = 'network.chart.idleReadout';

/** A readout read aloud as it changes, or one that only holds its room (props, not text). */
const LIVE = { 'aria-live': 'polite', 'data-testid': 'chart-readout' } as const;
const UNSEEN = { 'aria-hidden': true, visibility: 'hidden' } as const;

export function ChartReadout({ children, live = true }: { children: ReactNode; live?: boolean }) {
  return (
    <Text fontSize="sm" color="fg.muted" minH="1.5em" {...(live ? LIVE : UNSEEN)}>
      {children}
    </Text>
  );
}

/**
 * Where the plot goes, with room for its readout (the idle sentence, unseen, holds the height it
 * wraps to): a skeleton while loading, or what stands in for a plot (no figures, a failed read).
 */
export function PlotArea({ children }: { children?: ReactNode }) {
  const t = useT();
  return (
    <Box>
      <Flex h={`${PLOT_HEIGHT}px`} align="center" justify="center">
        {children ?? <Skeleton h="full" w="full" />}
      </Flex>
      <ChartReadout live={false}>{t(IDLE_READOUT)}</ChartReadout>
    </Box>
  );
}
