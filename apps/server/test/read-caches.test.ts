/**
 * The read caches of the hot endpoints answer what the database holds: the wallet figures are
 * recomputed after a write by this connection or a commit by another, never served from a
 * transaction that was rolled back, and follow the month.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock.ts';
import { moneyTransaction, transfer, walletFigures } from '../src/modules/ledger/ledger.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'md-read-caches-'));
const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  rmSync(dir, { recursive: true, force: true });
});

async function appWithMember(databasePath = ':memory:') {
  // Mid-month, so a month later is the next month whatever the day.
  const t = await createTestApp({ seed: 'empty', databasePath, clock: manualClock(Date.UTC(2026, 9, 15, 12)) });
  apps.push(t);
  const id = Number(
    t.services.sqlite
      .prepare(`insert into members (username, name, email, country, created_at, password_hash) values ('cache_me', 'Cache Me', 'c@example.com', 'India', 0, 'x') returning id`)
      .pluck()
      .get(),
  );
  return { t, id };
}

const credit = (t: TestApp, id: number, micros: number) =>
  moneyTransaction(t.services, () =>
    transfer(t.services, [{ transId: `T${Math.random()}`, from: { system: 'payouts' }, to: { member: id, wallet: 'ROI' }, amount: micros, reason: 'roi', memberId: id }]),
  );

describe('wallet figures cache', () => {
  it('is recomputed after a write by this connection', async () => {
    const { t, id } = await appWithMember();
    credit(t, id, 5_000_000);
    expect(walletFigures(t.services, id).ROI).toEqual({ balance: 5_000_000, total: 5_000_000, thisMonth: 5_000_000, lastMonth: 0 });
    credit(t, id, 1_000_000);
    expect(walletFigures(t.services, id).ROI).toEqual({ balance: 6_000_000, total: 6_000_000, thisMonth: 6_000_000, lastMonth: 0 });
  });

  it('never serves figures read inside a transaction that was rolled back', async () => {
    const { t, id } = await appWithMember();
    credit(t, id, 5_000_000);
    expect(walletFigures(t.services, id).ROI.balance).toBe(5_000_000);
    expect(() =>
      t.services.sqlite.transaction(() => {
        transfer(t.services, [{ transId: 'ROLLED', from: { system: 'payouts' }, to: { member: id, wallet: 'ROI' }, amount: 7_000_000, reason: 'roi', memberId: id }]);
        expect(walletFigures(t.services, id).ROI.balance).toBe(12_000_000);
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    expect(walletFigures(t.services, id).ROI.balance).toBe(5_000_000);
  });

  it("is recomputed after another connection's commit", async () => {
    const { t, id } = await appWithMember(join(dir, 'shared.sqlite'));
    credit(t, id, 5_000_000);
    expect(walletFigures(t.services, id).ROI.balance).toBe(5_000_000);
    const other = new Database(join(dir, 'shared.sqlite'));
    other.prepare("update accounts set balance = balance + 1 where member_id = ? and wallet = 'ROI'").run(id);
    other.close();
    expect(walletFigures(t.services, id).ROI.balance).toBe(5_000_001);
  });

  it('follows the month', async () => {
    const { t, id } = await appWithMember();
    credit(t, id, 5_000_000);
    expect(walletFigures(t.services, id).ROI).toMatchObject({ thisMonth: 5_000_000, lastMonth: 0 });
    t.clock.advance(31 * 86_400_000);
    expect(walletFigures(t.services, id).ROI).toMatchObject({ total: 5_000_000, thisMonth: 0, lastMonth: 5_000_000 });
  });
});
