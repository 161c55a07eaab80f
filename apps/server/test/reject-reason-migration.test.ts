/**
 * Migration 0016 adds `withdrawals.reject_reason` to a database of the previous main: every row of
 * every table stays as it was (the new column null on each), the ledger check stays clean, a
 * rejection made before it names no reason on the timeline, and a rejection made after keeps one.
 */
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WITHDRAWAL_DEFAULT_REJECT_REASON } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { ledgerCheck } from '../src/modules/ledger/ledger.ts';
import { decideWithdrawal, withdrawalTimeline } from '../src/modules/withdrawals/withdrawals.ts';
import { previousMainDemo, tableContents } from './helpers.ts';

const columnsOf = (db: Database.Database, table: string) =>
  db.prepare('select name from pragma_table_info(?)').pluck().all(table) as string[];

describe('a database of the previous main', () => {
  it('gains withdrawals.reject_reason, null on every kept row, and keeps every row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-reject-reason-migration-'));
    try {
      const path = join(dir, 'old.sqlite');
      const { clock, before, columns } = await previousMainDemo(path, '0015_idempotency_keys', (old) => {
        expect(columnsOf(old, 'withdrawals')).not.toContain('reject_reason');
      });
      expect(before.withdrawals!.rows).toBeGreaterThan(10);

      const app = await buildApp({ databasePath: path, seed: 'empty', clock });
      try {
        const db = app.services.sqlite;
        expect(columnsOf(db, 'withdrawals')).toContain('reject_reason');
        // Tables of later migrations (Web Push) start empty.
        const { push_outbox: _outbox, push_subscriptions: _devices, ...kept } = tableContents(db, columns);
        expect(kept).toEqual(before);
        expect(
          db.prepare('select count(*) from withdrawals where reject_reason is not null').pluck().get(),
        ).toBe(0);
        expect(ledgerCheck(app.services).mismatchedWallets).toEqual([]);

        // A rejection the old main made: its timeline names no reason (none was recorded).
        const old = db
          .prepare("select member_id, trans_id from withdrawals where status = 'REJECTED' limit 1")
          .get() as { member_id: number; trans_id: string };
        const oldTimeline = withdrawalTimeline(app.services, old.member_id, old.trans_id);
        expect(oldTimeline.Steps.map((s) => s.Step)).toEqual(['Requested', 'Rejected', 'Refunded']);
        expect(oldTimeline.Reason).toBeUndefined();

        // A pending one is rejected now: the reason is kept.
        const pending = db
          .prepare("select member_id, trans_id from withdrawals where status = 'PENDING' limit 1")
          .get() as { member_id: number; trans_id: string };
        decideWithdrawal(app.services, pending.trans_id, 'reject');
        expect(withdrawalTimeline(app.services, pending.member_id, pending.trans_id).Reason).toBe(
          WITHDRAWAL_DEFAULT_REJECT_REASON,
        );
        expect(ledgerCheck(app.services).mismatchedWallets).toEqual([]);
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
