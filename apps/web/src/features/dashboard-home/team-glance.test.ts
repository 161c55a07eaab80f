import { describe, expect, it } from 'vitest';
import { createIntl } from 'react-intl';
import { createFormatters } from '@md/shared';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import type { MessageValues } from '@/lib/i18n/i18n.tsx';
import { englishI18n, testI18n } from '@/testing/i18n.ts';
import { formatCountdown, untilCountdownChanges, weakerLegHint } from './team-glance.tsx';

/** useT's `t` outside React, in a loaded language. */
const translator = ({ messages }: typeof englishI18n, intlLocale: string) => {
  const intl = createIntl({ locale: intlLocale, messages: messages as Record<string, string> });
  return (id: MessageId, values?: MessageValues) => intl.formatMessage({ id }, values);
};
const t = translator(englishI18n, 'en');
const f = createFormatters('en', 'UTC');

describe('the next binary run card', () => {
  it('names the weaker leg and the difference of the carries', () => {
    expect(weakerLegHint(0, 3350, t, f)).toBe('$3,350.00 more on the LEFT matches today’s RIGHT carry.');
    expect(weakerLegHint(1200.5, 200, t, f)).toBe('$1,000.50 more on the RIGHT matches today’s LEFT carry.');
    expect(weakerLegHint(0, 0, t, f)).toMatch(/^No carry on either leg/);
    expect(weakerLegHint(50, 50, t, f)).toMatch(/^Both legs carry the same volume/);
  });

  it('counts down in hours and minutes, then minutes and seconds, never below zero', () => {
    expect(formatCountdown(3 * 3_600_000 + 5 * 60_000 + 9_000, t)).toBe('3 h 05 min');
    expect(formatCountdown(59 * 60_000 + 9_999, t)).toBe('59 min 09 s');
    expect(formatCountdown(-5_000, t)).toBe('0 min 00 s');
  });

  it('is drawn again when its text changes (each minute from an hour away, each second below) or the run falls due', () => {
    const clock = Date.UTC(2026, 10, 29, 9, 0, 0);
    // Edges (a whole second, minute and hour away, a millisecond either side) and a spread between.
    const lefts = [1, 999, 1000, 1001, 59_999, 60_000, 3_599_999, 3_600_000, 3_600_001, 86_399_999];
    for (let left = 7; left < 30 * 3_600_000; left = Math.floor(left * 1.37) + 13) lefts.push(left);
    for (const left of lefts) {
      const wait = untilCountdownChanges(clock + left, clock);
      const shown = formatCountdown(left, t);
      expect(formatCountdown(left - wait + 1, t), `${left} ms away`).toBe(shown);
      // Then the text changes, or the run is due ("Running now" stands instead).
      if (left - wait > 0) expect(formatCountdown(left - wait, t), `${left} ms away`).not.toBe(shown);
      else expect(wait, `${left} ms away`).toBe(left + 1);
    }
    // Unknown or due: a second.
    expect(untilCountdownChanges(undefined, clock)).toBe(1000);
    expect(untilCountdownChanges(clock - 5, clock)).toBe(1000);
  });

  it('speaks the member’s language, the amount written its way', () => {
    const es = translator(testI18n('es'), 'es');
    // Intl puts a no-break space before the currency.
    expect(weakerLegHint(0, 3350, es, createFormatters('es', 'UTC')).replace(/\s/g, ' ')).toBe(
      '3350,00 US$ más en la IZQUIERDA igualan el arrastre actual de la DERECHA.',
    );
  });
});
