/** Earnings over time: income per day (30 days) or week (90 days) by type, on the home and the Bonus page. */
import { useState } from 'react';
import { SeriesChart } from './series-chart.tsx';
import { EARNING_KEYS, type SeriesRange } from './series.ts';
import { useEarningSeries } from './use-series.ts';

export function EarningsChart({ headingLevel }: { headingLevel?: 'h2' | 'h3' }) {
  const [days, setDays] = useState<SeriesRange>(30);
  const series = useEarningSeries(EARNING_KEYS, days);
  return (
    <SeriesChart
      title="Earnings over time"
      headingLevel={headingLevel}
      keys={EARNING_KEYS}
      days={days}
      onDaysChange={setDays}
      series={series}
      measure="earned"
      emptyText={`No earnings in the last ${days} days. ROI, direct, level, binary and rank income will show here as they are credited.`}
    />
  );
}
