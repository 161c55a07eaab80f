/**
 * Migration 0015 adds `idempotency_keys` to a database of the previous main: every row of every
 * table stays as it was, the ledger check stays clean, and a keyed money move is stored and replayed.
 */
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { DEMO_PASSWORD } from '../src/core/passwords.ts';
import { ledgerCheck } from '../src/modules/ledger/ledger.ts';
import { previousMainDemo, tableContents } from './helpers.ts';

const hasTable = (db: Database.Database, name: string) =>
  db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").pluck().get(name) === 1;

describe('a database of the previous main', () => {
  it('gains the idempotency_keys table and keeps every row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-idempotency-migration-'));
    try {
      const path = join(dir, 'old.sqlite');
      const { clock, before, columns } = await previousMainDemo(
        path,
        '0014_transfers_member_time_dropped',
        (old) => {
          expect(hasTable(old, 'idempotency_keys')).toBe(false);
        },
      );
      expect(before.transfers!.rows).toBeGreaterThan(1_000);

      const app = await buildApp({ databasePath: path, seed: 'empty', clock });
      try {
        const db = app.services.sqlite;
        // Tables of later migrations (Web Push) start empty.
        const {
          idempotency_keys: added,
          push_outbox: _outbox,
          push_subscriptions: _devices,
          ...kept
        } = tableContents(db, columns);
        expect(kept).toEqual(before);
        expect(added?.rows).toBe(0);
        expect(ledgerCheck(app.services).mismatchedWallets).toEqual([]);

        const login = await app.fastify.inject({
          method: 'POST',
          url: '/user/login',
          payload: { username: 'demo', password: DEMO_PASSWORD },
        });
        const swap = () =>
          app.fastify.inject({
            method: 'POST',
            url: '/wallet/transfer_wallet',
            headers: {
              authorization: `Bearer ${login.json<{ JWT: string }>().JWT}`,
              [IDEMPOTENCY_KEY_HEADER]: 'upgrade-check',
            },
            payload: { amount: 1, from_wallet: 'ROI', to_wallet: 'Deposit' },
          });
        const first = await swap();
        expect(first.statusCode, first.body).toBe(200);
        const again = await swap();
        expect(again.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBe('true');
        expect(again.json()).toEqual(first.json());
        expect(db.prepare('select count(*) from idempotency_keys').pluck().get()).toBe(1);
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
