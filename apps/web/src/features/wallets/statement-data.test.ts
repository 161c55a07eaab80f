/**
 * The statement built on the device (provider mode): from history rows since the month began and
 * the balance now, working back to the month's closing and opening balances, to the micro-unit.
 */
import { describe, expect, it } from 'vitest';
import { createIntl } from 'react-intl';
import { createFormatters, zonedDateTime } from '@md/shared';
import type { AnyLocale } from '@/lib/i18n/locales.ts';
import { intlLocaleOf } from '@/lib/i18n/locales.ts';
import { testI18n } from '@/testing/i18n.ts';
import { movementOf, recentMonths, statementFromMovements } from './statement-data.ts';
import { statementAmount, statementCsv, type StatementWords } from './statement-files.ts';

/** A statement's words in `locale`, times in `timeZone` (what the page passes from useT and useFormat). */
function wordsIn(locale: AnyLocale, timeZone: string): StatementWords {
  const intl = createIntl({
    locale: intlLocaleOf(locale),
    messages: testI18n(locale).messages as Record<string, string>,
  });
  return {
    t: (id, values) => intl.formatMessage({ id }, values),
    f: createFormatters(intlLocaleOf(locale), timeZone),
  };
}

const row = (DateTime: string, Amount: number, Type: string, Transfer: string) => ({
  DateTime,
  TransID: 'T',
  Amount,
  Type,
  By: 'System',
  Transfer,
  Wallet: '-',
  Status: 'Success',
});

describe('a statement built on the device', () => {
  const rows = [
    row('2026-10-02T00:05:00.000Z', 1.5, 'ROI', 'Payouts → ROI'),
    row('2026-10-03T00:05:00.000Z', 1.000001, 'ROI', 'Payouts → ROI'),
    row('2026-10-10T12:00:00.000Z', 2.25, 'Wallet Swap', 'ROI → Deposit'),
    row('2026-10-11T12:00:00.000Z', 9, 'Deposit', 'Deposits Clearing → Deposit'),
    // After the month: moved the balance since, so the month's closing is worked back from it.
    row('2026-11-02T00:05:00.000Z', 0.3, 'ROI', 'Payouts → ROI'),
    row('2026-11-03T00:05:00.000Z', 1, 'Wallet Swap', 'ROI → Withdrawal'),
  ];
  it('reads each row as money into or out of the wallet from its Transfer, and ignores rows of other wallets', () => {
    expect(movementOf(rows[0]!, 'ROI')).toMatchObject({ micros: 1_500_000, type: 'ROI' });
    expect(movementOf(rows[2]!, 'ROI')).toMatchObject({ micros: -2_250_000 });
    expect(movementOf(rows[3]!, 'ROI')).toBeUndefined();
  });

  it('works back from the balance now: closing = balance - later movements; opening + credits - debits = closing', () => {
    const movements = rows.map((r) => movementOf(r, 'ROI')).filter((m) => m !== undefined);
    const s = statementFromMovements('ROI', '2026-10', movements, 10.7, Date.parse('2026-11-05T00:00:00Z'));
    expect(s.Closing).toBe(11.4); // 10.7 - 0.3 + 1
    expect(s.Total_Credits).toBe(2.500001);
    expect(s.Total_Debits).toBe(2.25);
    expect(s.Opening).toBe(11.149999);
    expect(s.Credits).toEqual([{ Reason: 'ROI', Count: 2, Amount: 2.500001 }]);
    expect(s.Debits).toEqual([{ Reason: 'Wallet Swap', Count: 1, Amount: 2.25 }]);
    // Every line of the month, oldest first, with its running balance ending at the closing one.
    expect(s.Lines).toEqual([
      {
        DateTime: '2026-10-02T00:05:00.000Z',
        Reason: 'ROI',
        Reference: 'T',
        Amount: 1.5,
        Balance: 12.649999,
      },
      {
        DateTime: '2026-10-03T00:05:00.000Z',
        Reason: 'ROI',
        Reference: 'T',
        Amount: 1.000001,
        Balance: 13.65,
      },
      {
        DateTime: '2026-10-10T12:00:00.000Z',
        Reason: 'Wallet Swap',
        Reference: 'T',
        Amount: -2.25,
        Balance: 11.4,
      },
    ]);
    // A month that has ended is as of its end; the reference is the same for the same rows.
    expect(s.As_Of).toBe('2026-11-01T00:00:00.000Z');
    expect(s.Reference).toMatch(/^ST-ROI-202610-[0-9A-F]{10}$/);
    expect(statementFromMovements('ROI', '2026-10', movements, 10.7).Reference).toBe(s.Reference);
    expect(statementFromMovements('ROI', '2026-10', movements.slice(1), 10.7).Reference).not.toBe(
      s.Reference,
    );
    const csv = statementCsv(s, wordsIn('en', 'UTC'), true);
    expect(csv).toContain('Built on this device from your history');
    expect(csv).toContain('Opening balance,"Balance at Oct 01, 2026 00:00 UTC",,11.149999\r\n');
    expect(csv).toContain('Debit,Wallet Swap,1,-2.25\r\n');
    expect(csv).toContain('Closing balance,"Balance at Nov 01, 2026 00:00 UTC",,11.4\r\n');
    expect(csv).toContain('"Oct 10, 2026 12:00 UTC",Wallet Swap,T,-2.25,11.4\r\n');
    expect(csv).not.toContain('$');

    // In the member's language: the words, the reasons and the dates; the amounts stay plain decimals.
    const spanish = statementCsv(s, wordsIn('es', 'UTC'));
    expect(spanish).toContain('Saldo inicial,"Saldo al 01 oct 2026, 00:00 UTC",,11.149999\r\n');
    expect(spanish).toContain('Cargo,Intercambio entre billeteras,1,-2.25\r\n');
    const arabic = statementCsv(s, wordsIn('ar', 'UTC'));
    expect(arabic).toContain('الرصيد الافتتاحي');
    expect(arabic).toContain(',-2.25,11.4\r\n');
  });

  it('is as of the moment it was read for the current month, never a later date', () => {
    const now = Date.parse('2026-11-05T09:30:00Z');
    const movements = rows.map((r) => movementOf(r, 'ROI')).filter((m) => m !== undefined);
    const s = statementFromMovements('ROI', '2026-11', movements, 10.7, now);
    expect(s.As_Of).toBe('2026-11-05T09:30:00.000Z');
    expect(s.Closing).toBe(10.7);
    expect(s.Lines!.at(-1)!.Balance).toBe(10.7);
  });

  it('writes dates in the member’s zone with the zone named, and amounts in USDT alone', () => {
    expect(zonedDateTime('2026-10-02T00:05:00.000Z', 'Europe/London')).toBe('Oct 02, 2026 01:05 GMT+1');
    expect(zonedDateTime('2026-12-02T00:05:00.000Z', 'America/New_York')).toBe('Dec 01, 2026 19:05 EST');
    expect(statementAmount(1065.75)).toBe('1,065.75 USDT');
    expect(statementAmount(-2.250001)).toBe('-2.250001 USDT');
  });

  it('offers this month and the 23 before it, newest first', () => {
    const months = recentMonths(new Date('2026-03-15T00:00:00Z'));
    expect(months).toHaveLength(24);
    expect(months.slice(0, 4)).toEqual(['2026-03', '2026-02', '2026-01', '2025-12']);
  });
});
