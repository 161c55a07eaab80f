import { describe, expect, it } from 'vitest';
import { formatCountdown, weakerLegHint } from './team-glance.tsx';

describe('the next binary run card', () => {
  it('names the weaker leg and the difference of the carries', () => {
    expect(weakerLegHint(0, 3350)).toBe('$3,350.00 more on the LEFT matches today’s RIGHT carry.');
    expect(weakerLegHint(1200.5, 200)).toBe('$1,000.50 more on the RIGHT matches today’s LEFT carry.');
    expect(weakerLegHint(0, 0)).toMatch(/^No carry on either leg/);
    expect(weakerLegHint(50, 50)).toMatch(/^Both legs carry the same volume/);
  });

  it('counts down in hours and minutes, then minutes and seconds, never below zero', () => {
    expect(formatCountdown(3 * 3_600_000 + 5 * 60_000 + 9_000)).toBe('3 h 05 min');
    expect(formatCountdown(59 * 60_000 + 9_999)).toBe('59 min 09 s');
    expect(formatCountdown(-5_000)).toBe('0 min 00 s');
  });
});
