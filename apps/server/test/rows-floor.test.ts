/**
 * The daily run's floor (scripts/bench/rows-floor.ts): the rows a run left new, changed or removed
 * are found against a copy taken before it, and written into another copy of that state, a
 * statement a row and by set statements, leave it holding exactly the run's rows. The bench's ratio
 * means something only while this holds (a new table kind, a column the diff misses). Timings are
 * in scripts/bench/engine-daily.ts, never asserted here.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock.ts';
import { runDueJobs } from '../src/modules/engine/jobs.ts';
import { openRunConnection } from '../src/modules/engine/run-connection.ts';
import {
  rowChanges,
  snapshotDatabase,
  writeFloor,
  type RowChanges,
} from '../../../scripts/bench/rows-floor.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'md-rows-floor-'));
const after = join(dir, 'world.sqlite');
const before = join(dir, 'before.sqlite');
let t: TestApp;
let changes: RowChanges;
/** The run's ROI payouts. */
let paid: number;
const roiTransfers = () =>
  t.services.sqlite.prepare("select count(*) from transfers where reason = 'roi'").pluck().get() as number;

beforeAll(async () => {
  // A Monday: the two days hold ROI, binary matching and rank evaluation.
  t = await createTestApp({
    seed: 'demo',
    databasePath: after,
    clock: manualClock(Date.parse('2026-03-02T09:00:00Z')),
  });
  const { services, clock } = t;
  snapshotDatabase(services.sqlite, before);
  paid = -roiTransfers();
  const from = clock.now();
  clock.set(from + 2 * DAY);
  runDueJobs(services, from, from + 2 * DAY);
  paid += roiTransfers();
  services.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  changes = rowChanges(after, before);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const tableOf = (name: string) => changes.tables.find((table) => table.table === name);
const open = (path: string) => openRunConnection(path, t.clock, t.services.plan).sqlite;

describe("a run's rows and their floor", () => {
  it("finds the run's new rows and the columns it changed", () => {
    const transfers = tableOf('transfers')!;
    // Two days of ROI for demo's ACTIVE packages (and any binary or rank payout beside them).
    expect(paid).toBeGreaterThan(0);
    expect(transfers.inserts.rows.length).toBeGreaterThanOrEqual(paid);
    expect(transfers.updates.size + transfers.deletes.keys.length).toBe(0);
    // Balances move in place: an update that sets the balance, never a new account row for an old one.
    const accounts = tableOf('accounts')!;
    const setColumns = [...accounts.updates.values()].flatMap((update) => update.columns);
    expect(setColumns).toContain('balance');
    expect(changes.updated).toBeGreaterThan(0);
  });

  it.each(['rows', 'sets'] as const)('written %s, leaves the copy with exactly the run’s rows', (mode) => {
    const floor = writeFloor(changes, before, after, join(dir, `floor-${mode}.sqlite`), 3, open, mode);
    expect(floor.commits).toBeGreaterThanOrEqual(3);
    expect(floor.cpuMs).toBeGreaterThan(0);
  });

  it('removes rows too, from rowid tables and tables without one', () => {
    // The run's result with two rows of before gone: a notice (rowid) and an earning entry (keyed by its columns).
    const fewer = join(dir, 'fewer.sqlite');
    copyFileSync(after, fewer);
    const db = new Database(fewer);
    db.exec(
      'delete from notifications where id = (select min(id) from notifications); ' +
        'delete from earning_entries where (member_id, created_at, transfer_id) = ' +
        '(select member_id, created_at, transfer_id from earning_entries order by 1, 2, 3 limit 1)',
    );
    db.close();
    const removing = rowChanges(fewer, before);
    const removed = (name: string) =>
      removing.tables.find((table) => table.table === name)?.deletes.keys.length ?? 0;
    expect(removed('notifications')).toBe(1);
    expect(removed('earning_entries')).toBe(1);
    for (const mode of ['rows', 'sets'] as const)
      expect(
        writeFloor(removing, before, fewer, join(dir, `fewer-${mode}.sqlite`), 2, open, mode).commits,
      ).toBeGreaterThanOrEqual(2);
  });

  it('refuses to stand as a floor when a row is left out', () => {
    const transfers = tableOf('transfers')!;
    const short: RowChanges = {
      ...changes,
      inserted: changes.inserted - 1,
      tables: changes.tables.map((table) =>
        table === transfers
          ? { ...table, inserts: { ...table.inserts, rows: table.inserts.rows.slice(1) } }
          : table,
      ),
    };
    expect(() => writeFloor(short, before, after, join(dir, 'floor-short.sqlite'), 3, open, 'sets')).toThrow(
      /is not the run's: its copy lacks transfers 1 new$/,
    );
  });
});
