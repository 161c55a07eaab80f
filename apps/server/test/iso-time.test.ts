import { describe, expect, it } from 'vitest';
import { isoTime } from '../src/core/iso-time.ts';

describe('isoTime', () => {
  it("writes every time as Date's toISOString does", () => {
    const edges = [
      0,
      1,
      999,
      86_399_999,
      951_782_400_000, // 2000-02-29: a leap day of a year divisible by 400
      951_868_799_999,
      4_107_456_000_000, // 2100-02-28: 2100 is not a leap year
      4_107_542_399_999,
      4_107_542_400_000,
      1_709_164_800_000, // 2024-02-29
      1_735_689_599_999, // the last ms of 2024
      253_402_300_799_999, // the last ms of 9999
    ];
    for (const ms of edges) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
    // A fixed sequence over the whole range, dense around today's times.
    let seed = 1;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 20_000; i++) {
      const ms = Math.floor(i % 2 ? next() * 253_402_300_800_000 : 1.6e12 + next() * 1e11);
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('leaves what it does not write to toISOString, errors included', () => {
    for (const ms of [-1, -62_198_755_200_000, 253_402_300_800_000, 8.64e15, 1.5])
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
