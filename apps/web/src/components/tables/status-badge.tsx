/**
 * A status as a badge, the same in every table, so a status reads alike wherever it appears. The spec's own
 * colour rules are passed as `ok` (green when true, red otherwise: History, Rank Bonus, Package
 * transactions); without `ok` the tone comes from the status word (`statusTone`).
 */
import { Badge } from '@chakra-ui/react';
import { cellText } from '@md/shared';

export type StatusTone = 'ok' | 'bad' | 'pending' | 'info' | 'neutral';

const PALETTE: Record<StatusTone, string> = {
  ok: 'green',
  bad: 'red',
  pending: 'orange',
  info: 'blue',
  neutral: 'gray',
};

// Upper-cased status words of the provider and the stand-in (deposits, packages, withdrawals, volume).
const TONES: Record<string, StatusTone> = {
  ACTIVE: 'ok',
  SUCCESS: 'ok',
  PAID: 'ok',
  APPROVED: 'ok',
  COMPLETED: 'ok',
  CONFIRMED: 'ok',
  CREDITED: 'ok',
  MATCHED: 'ok',
  TRUE: 'ok',
  PENDING: 'pending',
  WAITING: 'pending',
  PROCESSING: 'pending',
  PARTIAL: 'pending',
  EXPIRED: 'bad',
  FAILED: 'bad',
  REJECTED: 'bad',
  CANCELLED: 'bad',
  CANCELED: 'bad',
  FALSE: 'bad',
  CARRIED: 'info',
};

/** The tone of a status word; one it does not know is neutral (grey), never green. */
export const statusTone = (status: unknown): StatusTone => TONES[cellText(status).toUpperCase()] ?? 'neutral';

export function StatusBadge({ status, ok, tone }: { status: unknown; ok?: boolean; tone?: StatusTone }) {
  const shown = tone ?? (ok === undefined ? statusTone(status) : ok ? 'ok' : 'bad');
  return (
    <Badge colorPalette={PALETTE[shown]} variant="subtle" data-tone={shown}>
      {cellText(status)}
    </Badge>
  );
}
