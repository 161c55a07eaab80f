/**
 * Migration 0014 drops `transfers_member_time`, an index no query reads, on a database of the
 * previous main: the index goes, every row of every table stays as it was, the ledger check stays
 * clean, and a new transfer is written and read back.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { manualClock } from '../src/core/clock.ts';
import { ledgerCheck, walletBalance } from '../src/modules/ledger/ledger.ts';
import { swapWallets } from '../src/modules/wallets/wallets.ts';
import { undoMigrationsAfter } from './helpers.ts';
import { fromTemplate } from './templates.ts';

/** Each table's row count and a digest of its rows in rowid order (every column). */
function contents(db: Database.Database): Record<string, { rows: number; digest: string }> {
  const tables = db
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name <> '__drizzle_migrations' order by name",
    )
    .pluck()
    .all() as string[];
  return Object.fromEntries(
    tables.map((table) => {
      const rows = db.prepare(`select * from "${table}"`).raw().all();
      const digest = createHash('sha256').update(JSON.stringify(rows)).digest('hex');
      return [table, { rows: rows.length, digest }];
    }),
  );
}

const indexOf = (db: Database.Database, name: string) =>
  db.prepare("select sql from sqlite_master where type = 'index' and name = ?").pluck().get(name);

describe('a database of the previous main', () => {
  it('loses the unread transfers_member_time index and keeps every row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-transfers-index-'));
    try {
      const path = join(dir, 'old.sqlite');
      const clock = manualClock();
      const built = await buildApp(await fromTemplate({ databasePath: path, seed: 'demo', clock }));
      await built.fastify.close();

      const old = new Database(path);
      undoMigrationsAfter(old, '0013_volume_rows_per_leg');
      expect(indexOf(old, 'transfers_member_time')).toMatch(/member_id/);
      const before = contents(old);
      old.close();
      expect(before.transfers!.rows).toBeGreaterThan(1_000);

      const app = await buildApp({ databasePath: path, seed: 'empty', clock });
      try {
        const db = app.services.sqlite;
        expect(indexOf(db, 'transfers_member_time')).toBeUndefined();
        expect(indexOf(db, 'transfers_to_time')).toMatch(/to_account_id/);
        expect(contents(db)).toEqual(before);
        const check = ledgerCheck(app.services);
        expect(check.balanced).toBe(true);
        expect(check.negativeWallets).toEqual([]);
        expect(check.mismatchedWallets).toEqual([]);

        const demo = db.prepare("select id from members where username = 'demo'").pluck().get() as number;
        const roi = walletBalance(app.services, demo, 'ROI');
        expect(roi).toBeGreaterThanOrEqual(1_000_000);
        swapWallets(app.services, demo, 'ROI', 'Deposit', 1_000_000);
        expect(walletBalance(app.services, demo, 'ROI')).toBe(roi - 1_000_000);
        expect(ledgerCheck(app.services).mismatchedWallets).toEqual([]);
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
