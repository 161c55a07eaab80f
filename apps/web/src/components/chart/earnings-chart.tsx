/** Earnings over time: income per day (30 days) or week (90 days) by type, on the home and the Bonus page. */
import { useState } from 'react';
import { SeriesChart } from './series-chart.tsx';
import { EARNING_KEYS, type SeriesRange } from './series.ts';
import { useEarningSeries } from './use-series.ts';
import { useT } from '@/lib/i18n/i18n.tsx';

export function EarningsChart({ headingLevel }: { headingLevel?: 'h2' | 'h3' }) {
  const t = useT();
  const [days, setDays] = useState<SeriesRange>(30);
  const series = useEarningSeries(EARNING_KEYS, days);
  return (
    <SeriesChart
      title={t('network.chart.earningsTitle')}
      headingLevel={headingLevel}
      keys={EARNING_KEYS}
      days={days}
      onDaysChange={setDays}
      series={series}
      measure="earned"
      emptyText={t('network.chart.earningsEmpty', { days })}
    />
  );
}
