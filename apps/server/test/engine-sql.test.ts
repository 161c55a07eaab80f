/**
 * The daily runs compute payouts and write their notification texts in SQL (income.ts): the SQL
 * forms must answer exactly what the JavaScript ones answer, for every amount a run can pay.
 */
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { formatMoney, microsToAmount } from '@md/shared';
import { moneyTextSql, percentOf, percentSql } from '../src/modules/engine/income.ts';

const db = new Database(':memory:');
afterAll(() => db.close());

/** Micro-unit amounts: the edges of the fraction, rounding-prone values, and a seeded spread up to 10^15. */
function amounts(): number[] {
  const edges = [
    0, 1, 9, 10, 99_999, 100_000, 500_000, 999_999, 1_000_000, 1_000_001, 1_500_000, 15_000_000, 123_456_789,
    1_000_000_000, 999_999_999_999_999,
  ];
  let seed = 20_261_127;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const spread = Array.from({ length: 2_000 }, (_, i) => Math.floor(random() * 10 ** (1 + (i % 15))));
  return [...edges, ...spread];
}

describe('the daily runs’ SQL arithmetic', () => {
  it('writes an amount as formatMoney writes money in a message ("$1,500.00", truncated to the cent)', () => {
    const format = db.prepare(`select ${moneyTextSql('value')} as text from json_each(?)`).pluck();
    const values = amounts();
    expect(format.all(JSON.stringify(values))).toEqual(
      values.map((micros) => formatMoney(microsToAmount(micros))),
    );
  });

  it('takes a percentage in basis points as percentOf does (ROI rates, binary 10 %, level percentages)', () => {
    const percent = db
      .prepare(`select ${percentSql('a.value', 'b.value')} as result from json_each(?) a, json_each(?) b`)
      .pluck();
    const values = amounts();
    const rates = [0, 1, 100, 150, 175, 200, 1000, 10_000];
    expect(percent.all(JSON.stringify(values), JSON.stringify(rates))).toEqual(
      values.flatMap((micros) => rates.map((bps) => percentOf(micros, bps))),
    );
  });
});
