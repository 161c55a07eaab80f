/**
 * Migration 0017 adds Web Push to a database of the previous main: push_subscriptions and
 * push_outbox (empty) and `notification_preferences.phone` (on for every kept row); every row of
 * every table stays as it was, the ledger check stays clean, and a kept preference row answers
 * Phone on for the events that are pushed.
 */
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ledgerCheck } from '../src/modules/ledger/ledger.ts';
import { preferencesOf } from '../src/modules/notifications/preferences.ts';
import { previousMainDemo, tableContents } from './helpers.ts';

const columnsOf = (db: Database.Database, table: string) =>
  db.prepare('select name from pragma_table_info(?)').pluck().all(table) as string[];
const tablesOf = (db: Database.Database) =>
  db.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[];

describe('a database of the previous main', () => {
  it('gains the push tables and the phone choice, on for every kept preference, and keeps every row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-web-push-migration-'));
    try {
      const path = join(dir, 'old.sqlite');
      let member = 0;
      const { clock, before, columns } = await previousMainDemo(
        path,
        '0016_withdrawal_reject_reason',
        (old) => {
          expect(tablesOf(old)).not.toContain('push_subscriptions');
          expect(columnsOf(old, 'notification_preferences')).not.toContain('phone');
          // A member who changed preferences before the upgrade.
          member = old.prepare("select id from members where username = 'demo'").pluck().get() as number;
          const insert = old.prepare(
            'insert or replace into notification_preferences (member_id, event, in_app, email, updated_at) values (?, ?, ?, ?, 1)',
          );
          insert.run(member, 'payouts', 0, 0);
          insert.run(member, 'deposits', 1, 1);
          insert.run(member, 'team', 0, 1);
        },
      );
      expect(before.notification_preferences!.rows).toBeGreaterThanOrEqual(3);

      const app = await buildApp({ databasePath: path, seed: 'empty', clock });
      try {
        const db = app.services.sqlite;
        expect(tablesOf(db)).toEqual(expect.arrayContaining(['push_subscriptions', 'push_outbox']));
        expect(columnsOf(db, 'notification_preferences')).toContain('phone');
        const { push_outbox: outbox, push_subscriptions: devices, ...kept } = tableContents(db, columns);
        expect(kept).toEqual(before);
        expect([outbox?.rows, devices?.rows]).toEqual([0, 0]);
        expect(
          db.prepare('select count(*) from notification_preferences where phone <> 1').pluck().get(),
        ).toBe(0);
        expect(db.prepare('select count(*) from push_subscriptions').pluck().get()).toBe(0);
        expect(db.prepare('select count(*) from push_outbox').pluck().get()).toBe(0);
        // No VAPID keys until one is asked for: a world copied from this file makes its own.
        expect(db.prepare("select count(*) from meta where key like 'vapid_%'").pluck().get()).toBe(0);
        const prefs = Object.fromEntries(preferencesOf(app.services, member).map((p) => [p.Event, p]));
        expect(prefs.payouts).toMatchObject({ In_App: false, Phone: true });
        expect(prefs.deposits).toMatchObject({ In_App: true, Email: true, Phone: true });
        expect(prefs.team).toMatchObject({ In_App: false, Email: true, Phone: false, Phone_Offered: false });
        expect(ledgerCheck(app.services).mismatchedWallets).toEqual([]);
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
