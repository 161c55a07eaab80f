import { describe, expect, it } from 'vitest';
import {
  amountToMicros,
  cellText,
  createFormatters,
  localizeNoticeTimes,
  noticeTime,
  formatAmount,
  formatDateTime,
  formatDay,
  formatMoney,
  formatNumber,
  formatPercent,
  humanizeType,
  maskEmail,
  microsToAmount,
  shortenAddress,
  sideLabel,
  truncate2,
} from '../src/index.ts';

describe('truncate2', () => {
  it('truncates instead of rounding', () => {
    expect(truncate2(12.349)).toBe(12.34);
    expect(truncate2(0.999)).toBe(0.99);
    expect(truncate2(-1.239)).toBe(-1.23);
  });
  it('is not fooled by float noise', () => {
    expect(truncate2(1.1 * 3)).toBe(3.3); // 3.3000000000000003
    expect(truncate2(0.29)).toBe(0.29); // 0.29 * 100 = 28.999999999999996
    expect(truncate2(4.35)).toBe(4.35);
  });
  it('reads non-finite values as 0', () => {
    expect(truncate2(Number.NaN)).toBe(0);
    expect(truncate2(Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe('formatMoney', () => {
  it('formats USD with 2 truncated decimals and thousands separators', () => {
    expect(formatMoney(1234.567)).toBe('$1,234.56');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney('15.999')).toBe('$15.99');
  });
  it("shows '-' for a figure that is absent or unreadable, never $0.00", () => {
    for (const value of [undefined, null, '', ' ', 'abc', Number.NaN, Number.POSITIVE_INFINITY, {}, [], true])
      expect(formatMoney(value)).toBe('-');
    expect(formatAmount(undefined)).toBe('-');
  });
  it('formatAmount drops the sign', () => {
    expect(formatAmount(1000)).toBe('1,000.00');
  });
});

describe('formatNumber and formatPercent (one number format)', () => {
  it('puts thousands separators in plain figures and keeps at most 2 decimals, truncated', () => {
    expect(formatNumber(20100)).toBe('20,100');
    expect(formatNumber('1234567.899')).toBe('1,234,567.89');
    expect(formatNumber(5)).toBe('5');
    expect(formatNumber(undefined)).toBe('-');
    expect(formatPercent('n/a')).toBe('-');
  });
  it('marks percentages with % and keeps the value as given', () => {
    expect(formatPercent(1.4)).toBe('1.4%');
    expect(formatPercent('1.75')).toBe('1.75%');
    expect(formatPercent(10)).toBe('10%');
    expect(formatPercent(1000)).toBe('1,000%');
    expect(formatPercent(null)).toBe('-');
  });
});

describe('formatDay', () => {
  it('writes a calendar day as the app writes dates, with or without the year, whatever the time zone', () => {
    expect(formatDay('2026-11-27')).toBe('Nov 27, 2026');
    expect(formatDay('2026-03-09', false)).toBe('Mar 09');
    expect(formatDay('2026-03-09T00:00:00Z')).toBe('-');
    expect(formatDay('garbage')).toBe('-');
  });
});

describe('formatDateTime', () => {
  it("uses 'MMM dd, yyyy HH:mm'", () => {
    const local = new Date(2026, 0, 5, 7, 3);
    expect(formatDateTime(local)).toBe('Jan 05, 2026 07:03');
    expect(formatDateTime(local.toISOString())).toBe('Jan 05, 2026 07:03');
    expect(formatDateTime(local.getTime())).toBe('Jan 05, 2026 07:03');
  });
  it("shows '-' for empty and invalid values", () => {
    expect(formatDateTime(null)).toBe('-');
    expect(formatDateTime('')).toBe('-');
    expect(formatDateTime('not a date')).toBe('-');
  });
});

describe('maskEmail', () => {
  it('keeps the first 3 and last 3 characters of the local part', () => {
    expect(maskEmail('johnathan@example.com')).toBe('joh***han@example.com');
    expect(maskEmail('abcdefg@x.io')).toBe('abc*efg@x.io');
  });
  it('stars short local parts but the first character', () => {
    expect(maskEmail('abc@x.io')).toBe('a**@x.io');
  });
  it('handles missing values', () => {
    expect(maskEmail('')).toBe('-');
    expect(maskEmail(undefined)).toBe('-');
  });
});

describe('shortenAddress', () => {
  it('shows the first 6 and last 4 characters', () => {
    expect(shortenAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe('0x5290...9EE7');
  });
  it('leaves short values and missing ones readable', () => {
    expect(shortenAddress('0x1234')).toBe('0x1234');
    expect(shortenAddress(null)).toBe('-');
  });
});

describe('small formatters', () => {
  it('humanizes types, labels sides and fills empty cells', () => {
    expect(humanizeType('New_Registration_Bonus')).toBe('New Registration Bonus');
    expect(sideLabel('0')).toBe('Left');
    expect(sideLabel('1')).toBe('Right');
    expect(sideLabel(0)).toBe('Left');
    // Drifted spellings from a provider: 'L' and 'Left' still mean left; no side at all is '-'.
    expect(sideLabel('L')).toBe('Left');
    expect(sideLabel(' left ')).toBe('Left');
    expect(sideLabel('R')).toBe('Right');
    expect(sideLabel('anything')).toBe('Right');
    expect(sideLabel(undefined)).toBe('-');
    expect(sideLabel(null)).toBe('-');
    expect(cellText('')).toBe('-');
    expect(cellText(null)).toBe('-');
    expect(cellText(0)).toBe('0');
  });
  it('converts amounts to micro-units and back exactly', () => {
    expect(amountToMicros(0.000001)).toBe(1);
    expect(amountToMicros(19.99)).toBe(19_990_000);
    expect(amountToMicros(1.1 * 3)).toBe(3_300_000);
    expect(microsToAmount(19_990_000)).toBe(19.99);
  });
});

describe('times in the member’s zone', () => {
  it('writes a time with its zone named, English keeping the app’s pattern', () => {
    expect(createFormatters('en', 'Europe/Madrid').dateTime('2026-11-27T14:05:00Z')).toBe(
      'Nov 27, 2026 15:05 GMT+1',
    );
    expect(createFormatters('es', 'America/New_York').dateTime('2026-11-27T14:05:00Z')).toMatch(
      /^27 nov 2026, 09:05 (EST|GMT-5)$/,
    );
  });

  it('shows the UTC times the server writes in notices again in the member’s zone and language', () => {
    const notice = `Expected to be processed by ${noticeTime(Date.UTC(2026, 10, 30, 9, 5))}.`;
    expect(notice).toBe('Expected to be processed by Nov 30, 2026 09:05 UTC.');
    expect(localizeNoticeTimes(notice, createFormatters('en', 'Asia/Tokyo'))).toBe(
      'Expected to be processed by Nov 30, 2026 18:05 GMT+9.',
    );
    expect(localizeNoticeTimes(notice, createFormatters('pt-BR', 'America/Sao_Paulo'))).toMatch(
      /^Expected to be processed by 30 de nov\. de 2026, 06:05 BRT\.$/,
    );
    // Text without such a time is left as sent.
    expect(
      localizeNoticeTimes(
        'Scheduled maintenance on Sunday 02:00–03:00 UK time.',
        createFormatters('en', 'UTC'),
      ),
    ).toBe('Scheduled maintenance on Sunday 02:00–03:00 UK time.');
  });
});
