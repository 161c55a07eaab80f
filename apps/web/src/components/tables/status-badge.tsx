/**
 * A status as a badge, the same in every table, so a status reads alike wherever it appears. The spec's own
 * colour rules are passed as `ok` (green when true, red otherwise: History, Rank Bonus, Package
 * transactions); without `ok` the tone comes from the status word (`statusTone`). A status word the
 * app knows reads in the member's language; English shows it as the server wrote it.
 */
import { useCallback } from 'react';
import { Badge } from '@chakra-ui/react';
import { cellText } from '@md/shared';
import { useT } from '@/lib/i18n/i18n.tsx';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';

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

/** The status words with a translation (TRUE and FALSE are data flags, shown as sent). */
const STATUS_KEYS: Record<string, MessageId> = {
  ACTIVE: 'tables.status.active',
  SUCCESS: 'tables.status.success',
  PAID: 'tables.status.paid',
  APPROVED: 'tables.status.approved',
  COMPLETED: 'tables.status.completed',
  CONFIRMED: 'tables.status.confirmed',
  CREDITED: 'tables.status.credited',
  MATCHED: 'tables.status.matched',
  PENDING: 'tables.status.pending',
  WAITING: 'tables.status.waiting',
  PROCESSING: 'tables.status.processing',
  PARTIAL: 'tables.status.partial',
  EXPIRED: 'tables.status.expired',
  FAILED: 'tables.status.failed',
  REJECTED: 'tables.status.rejected',
  CANCELLED: 'tables.status.cancelled',
  CANCELED: 'tables.status.cancelled',
  CARRIED: 'tables.status.carried',
};

/** The tone of a status word; one it does not know is neutral (grey), never green. */
export const statusTone = (status: unknown): StatusTone => TONES[cellText(status).toUpperCase()] ?? 'neutral';

/**
 * A status word in the member's language; one the app does not know is shown as sent. Where the
 * translation is the same word (English), the server's own spelling stays ('ACTIVE', 'Success').
 */
export function useStatusText() {
  const t = useT();
  return useCallback(
    (status: unknown) => {
      const sent = cellText(status);
      const key = STATUS_KEYS[sent.toUpperCase()];
      if (!key) return sent;
      const translated = t(key);
      return translated.toLowerCase() === sent.toLowerCase() ? sent : translated;
    },
    [t],
  );
}

export function StatusBadge({ status, ok, tone }: { status: unknown; ok?: boolean; tone?: StatusTone }) {
  const statusText = useStatusText();
  const shown = tone ?? (ok === undefined ? statusTone(status) : ok ? 'ok' : 'bad');
  return (
    <Badge colorPalette={PALETTE[shown]} variant="subtle" data-tone={shown}>
      {statusText(status)}
    </Badge>
  );
}
