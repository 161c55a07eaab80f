/** The legs' binary volume over time: left and right per day (30 days) or week (90 days). */
import { useState } from 'react';
import { SeriesChart } from '@/components/chart/series-chart.tsx';
import { VOLUME_KEYS, type SeriesRange } from '@/components/chart/series.ts';
import { useVolumeSeries } from '@/components/chart/use-series.ts';

export function LegVolumeChart() {
  const [days, setDays] = useState<SeriesRange>(30);
  const series = useVolumeSeries(VOLUME_KEYS, days);
  return (
    <SeriesChart
      title="Leg volumes over time"
      keys={VOLUME_KEYS}
      days={days}
      onDaysChange={setDays}
      series={series}
      measure="of binary volume"
      emptyText={`No binary volume reached your legs in the last ${days} days.`}
      note="From the Binary Volume table: each purchase in your team adds its volume to the leg it is on."
    />
  );
}
