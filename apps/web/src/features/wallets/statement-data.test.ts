/**
 * The statement built on the device (provider mode): from history rows since the month began and
 * the balance now, working back to the month's closing and opening balances, to the micro-unit.
 */
import { describe, expect, it } from 'vitest';
import { movementOf, recentMonths, statementFromMovements } from './statement-data.ts';
import { statementCsv } from './statement-files.ts';

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
    const s = statementFromMovements('ROI', '2026-10', movements, 10.7);
    expect(s.Closing).toBe(11.4); // 10.7 - 0.3 + 1
    expect(s.Total_Credits).toBe(2.500001);
    expect(s.Total_Debits).toBe(2.25);
    expect(s.Opening).toBe(11.149999);
    expect(s.Credits).toEqual([{ Reason: 'ROI', Count: 2, Amount: 2.500001 }]);
    expect(s.Debits).toEqual([{ Reason: 'Wallet Swap', Count: 1, Amount: 2.25 }]);
    const csv = statementCsv(s, 'Built on this device');
    expect(csv).toContain('Opening balance,Balance at 2026-10-01T00:00:00.000Z,,11.149999\r\n');
    expect(csv).toContain('Debit,Wallet Swap,1,-2.25\r\n');
    expect(csv).toContain('Closing balance,Balance at 2026-11-01T00:00:00.000Z,,11.4\r\n');
  });

  it('offers this month and the 23 before it, newest first', () => {
    const months = recentMonths(new Date('2026-03-15T00:00:00Z'));
    expect(months).toHaveLength(24);
    expect(months.slice(0, 4)).toEqual(['2026-03', '2026-02', '2026-01', '2025-12']);
  });
});
