/** The legs' binary volume over time: left and right per day (30 days) or week (90 days). */
import { useState } from 'react';
import { SeriesChart } from '@/components/chart/series-chart.tsx';
import { VOLUME_KEYS, type SeriesRange } from '@/components/chart/series.ts';
import { useVolumeSeries } from '@/components/chart/use-series.ts';
import { useT } from '@/lib/i18n/i18n.tsx';

export function LegVolumeChart() {
  const t = useT();
  const [days, setDays] = useState<SeriesRange>(30);
  const series = useVolumeSeries(VOLUME_KEYS, days);
  return (
    <SeriesChart
      title={t('network.volume.chartTitle')}
      keys={VOLUME_KEYS}
      days={days}
      onDaysChange={setDays}
      series={series}
      measure="binaryVolume"
      emptyText={t('network.volume.chartEmpty', { days })}
      note={t('network.volume.chartNote')}
    />
  );
}
