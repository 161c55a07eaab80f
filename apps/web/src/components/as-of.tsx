/**
 * Figures whose latest refresh failed are not shown as live: "as of 10:42", the time the figures on
 * screen were read (spec's 24-hour HH:mm, the member's clock), with the day in front when it was
 * not today. Drawn with the first screen's classes: the dashboard's frame shows it.
 */
import { useCallback } from 'react';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '10:42', or 'Mar 05, 10:42' for another day than `now`'s (English, this device's clock). */
export function asOfTime(updatedAt: number, now = Date.now()): string {
  const at = new Date(updatedAt);
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  return at.toDateString() === new Date(now).toDateString()
    ? time
    : `${MONTHS[at.getMonth()]} ${pad(at.getDate())}, ${time}`;
}

/** `asOfTime` in the member's language and zone: '10:42', or '05 mar, 10:42' on another day. */
export function useAsOfTime() {
  const f = useFormat();
  return useCallback(
    (updatedAt: number, now = Date.now()): string => {
      if (f.locale === 'en' || f.locale.startsWith('en-')) return asOfTime(updatedAt, now);
      const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: f.timeZone });
      const sameDay = dayOf.format(updatedAt) === dayOf.format(now);
      return new Intl.DateTimeFormat(f.locale, {
        timeZone: f.timeZone,
        hour: '2-digit',
        minute: '2-digit',
        ...(sameDay ? {} : { month: 'short', day: '2-digit' }),
      }).format(updatedAt);
    },
    [f],
  );
}

/** "as of 10:42" beside a figure that is not current; `prefix` goes before it ("Available as of 10:42"). */
export function AsOf({ updatedAt, prefix }: { updatedAt: number; prefix?: string }) {
  const t = useT();
  const time = useAsOfTime()(updatedAt);
  return (
    <span className="fs-as-of" title={t('common.asOfTitle', { time })} data-testid="as-of">
      {prefix ? t('common.asOfWith', { prefix, time }) : t('common.asOf', { time })}
    </span>
  );
}
