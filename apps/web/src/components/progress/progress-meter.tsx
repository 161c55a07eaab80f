/**
 * A labelled progress meter: Chakra's Progress (role=progressbar with its value), its
 * label, and the figures as text ("$1,200.00 of $5,000.00"), so the value is read, not only seen.
 */
import { HStack, Progress, Text } from '@chakra-ui/react';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';

export interface ProgressMeterProps {
  label: string;
  value: number;
  max: number;
  /** The figures beside the label, e.g. useFormat().money. */
  format: (value: number) => string;
  /** A line under the bar (e.g. the remaining amount). */
  help?: string;
  colorPalette?: string;
}

export function ProgressMeter({
  label,
  value,
  max,
  format,
  help,
  colorPalette = 'teal',
}: ProgressMeterProps) {
  const t = useT();
  const f = useFormat();
  // A requirement of 0 is met; the bar never runs past its end.
  const percent = max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 100;
  const figures = t('earnings.progress.figures', { value: format(value), max: format(max) });
  return (
    <Progress.Root value={percent} size="sm" colorPalette={percent >= 100 ? 'green' : colorPalette}>
      <HStack justify="space-between" gap="2" mb="1" wrap="wrap">
        <Progress.Label fontWeight="medium">{label}</Progress.Label>
        <Text fontSize="sm" color="fg.muted">
          {figures}
        </Text>
      </HStack>
      {/* The track is the progressbar: named by the label, its value read as the figures. */}
      <Progress.Track
        aria-label={label}
        aria-valuetext={t('earnings.progress.valueText', {
          figures,
          percent: f.percent(Math.floor(percent)),
        })}
      >
        <Progress.Range />
      </Progress.Track>
      {help && (
        <Text fontSize="xs" color="fg.muted" mt="1">
          {help}
        </Text>
      )}
    </Progress.Root>
  );
}
