/**
 * Migration 0013 (volume rows per leg) on a database of the previous main: its daily volume rows (no Side, binary Volume
 * the day's match, both legs' new volume on one row) become a row per leg, every figure kept.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { manualClock } from '../src/core/clock.ts';
import { undoMigrationsAfter } from './helpers.ts';

const COLUMNS =
  'kind, trans_id, member_id, side, volume, left_volume, left_carry, left_total, right_volume, right_carry, right_total, status, created_at';
type Row = Record<string, string | number | null>;

describe('a database of the previous main', () => {
  it('splits each daily volume row into a row per leg that received volume, keeping carries, totals and status', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-volume-rows-'));
    try {
      const path = join(dir, 'old.sqlite');
      const clock = manualClock();
      const built = await buildApp({ databasePath: path, seed: 'empty', clock });
      await built.fastify.close();

      // The previous main's rows (member 1): both legs with a match, left only carried, a rank credit on the right.
      const old = new Database(path);
      undoMigrationsAfter(old, '0012_withdrawal_tx_hash');
      old.exec('delete from volume_entries');
      const insert = old.prepare(
        `insert into volume_entries (${COLUMNS}) values (?, ?, 1, null, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      insert.run('binary', 'BV20260302M1', 500e6, 1000e6, 500e6, 1000e6, 500e6, 0, 500e6, 'Matched', 1000);
      insert.run('binary', 'BV20260303M1', 0, 250e6, 750e6, 1250e6, 0, 0, 500e6, 'Carried', 2000);
      insert.run('rank', 'RV20260303M1', 300e6, 0, 0, 0, 300e6, 0, 800e6, 'Credited', 2000);
      old.close();

      const app = await buildApp({ databasePath: path, seed: 'empty', clock });
      try {
        const rows = app.services.sqlite
          .prepare(`select ${COLUMNS} from volume_entries order by created_at, kind, side`)
          .all() as Row[];
        expect(rows).toEqual([
          {
            kind: 'binary',
            trans_id: 'BV20260302M1',
            member_id: 1,
            side: '0',
            volume: 1000e6,
            left_volume: 1000e6,
            left_carry: 500e6,
            left_total: 1000e6,
            right_volume: 0,
            right_carry: 0,
            right_total: 500e6,
            status: 'Matched',
            created_at: 1000,
          },
          {
            kind: 'binary',
            trans_id: 'BV20260302M1',
            member_id: 1,
            side: '1',
            volume: 500e6,
            left_volume: 0,
            left_carry: 500e6,
            left_total: 1000e6,
            right_volume: 500e6,
            right_carry: 0,
            right_total: 500e6,
            status: 'Matched',
            created_at: 1000,
          },
          {
            kind: 'binary',
            trans_id: 'BV20260303M1',
            member_id: 1,
            side: '0',
            volume: 250e6,
            left_volume: 250e6,
            left_carry: 750e6,
            left_total: 1250e6,
            right_volume: 0,
            right_carry: 0,
            right_total: 500e6,
            status: 'Carried',
            created_at: 2000,
          },
          {
            kind: 'rank',
            trans_id: 'RV20260303M1',
            member_id: 1,
            side: '1',
            volume: 300e6,
            left_volume: 0,
            left_carry: 0,
            left_total: 0,
            right_volume: 300e6,
            right_carry: 0,
            right_total: 800e6,
            status: 'Credited',
            created_at: 2000,
          },
        ]);
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
