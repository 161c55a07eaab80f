/**
 * Migration 0014 drops `transfers_member_time`, an index no query reads, on a database of the
 * previous main: the index goes, every row of every table stays as it was, the ledger check stays
 * clean, and a new transfer is written and read back.
 */
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ledgerCheck, walletBalance } from '../src/modules/ledger/ledger.ts';
import { swapWallets } from '../src/modules/wallets/wallets.ts';
import { previousMainDemo, tableContents } from './helpers.ts';

const indexOf = (db: Database.Database, name: string) =>
  db.prepare("select sql from sqlite_master where type = 'index' and name = ?").pluck().get(name);

describe('a database of the previous main', () => {
  it('loses the unread transfers_member_time index and keeps every row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-transfers-index-'));
    try {
      const path = join(dir, 'old.sqlite');
      const { clock, before, columns } = await previousMainDemo(path, '0013_volume_rows_per_leg', (old) => {
        expect(indexOf(old, 'transfers_member_time')).toMatch(/member_id/);
      });
      expect(before.transfers!.rows).toBeGreaterThan(1_000);

      const app = await buildApp({ databasePath: path, seed: 'empty', clock });
      try {
        const db = app.services.sqlite;
        expect(indexOf(db, 'transfers_member_time')).toBeUndefined();
        expect(indexOf(db, 'transfers_to_time')).toMatch(/to_account_id/);
        // Later migrations' tables (idempotency_keys, 0015) start empty beside the kept ones; their
        // columns (withdrawals.reject_reason, 0016) are left out, read as the old database had them.
        // Tables of later migrations (Web Push) start empty.
        const {
          idempotency_keys: later,
          push_outbox: _outbox,
          push_subscriptions: _devices,
          ...kept
        } = tableContents(db, columns);
        expect(kept).toEqual(before);
        expect(later?.rows).toBe(0);
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
