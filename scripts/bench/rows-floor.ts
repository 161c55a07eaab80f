/**
 * The floor of a run's own rows: what writing exactly the rows a run left changed costs, with the
 * tables' indexes and nothing else. A copy of the database is taken before the run; after it, every
 * table's new, changed and removed rows are found against the copy (for a changed row, the columns
 * that changed); then another copy of the before state gets those rows, in as many commits as the
 * run made, on a connection opened as the run's (engine/run-connection.ts): a statement a row, or by
 * set statements (`FloorMode`). Triggers are dropped on that copy and foreign keys are not checked
 * there: what the triggers wrote is already among the rows, and the rows are the run's, consistent
 * as they are. `sqlite_sequence` is left to the inserts that move it. The copy must end with the
 * run's rows exactly (`writeFloor` checks). What the floor leaves out is exactly the run's own
 * work: deciding who is paid what (the reads), and any row it wrote and removed again.
 */
import { copyFileSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { quoteIdentifier as quote } from '../../apps/server/src/core/prepared.ts';

interface TableRows {
  table: string;
  /** The columns an insert writes (`rowid` first where no column is its alias), the key's columns. */
  columns: string[];
  key: string[];
  inserts: { sql: string; rows: unknown[][] };
  /** UPDATEs grouped by the columns they set (one statement each): values, then the key. */
  updates: Map<string, { sql: string; columns: string[]; rows: unknown[][] }>;
  deletes: { sql: string; keys: unknown[][] };
}

export interface RowChanges {
  tables: TableRows[];
  /** Rows inserted, updated and deleted, in all. */
  inserted: number;
  updated: number;
  deleted: number;
}

/**
 * Copies the database file of `sqlite` to `path` (its WAL checkpointed first, so the file is all of
 * it). A file copy keeps every page as the run finds it; VACUUM INTO would pack the B-trees full, and
 * the floor would then split leaves the run does not.
 */
export function snapshotDatabase(sqlite: Database.Database, path: string): void {
  const [result] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  if (result?.busy)
    throw new Error('snapshot: the WAL could not be checkpointed (a reader or writer is busy)');
  copyFileSync(sqlite.name, path);
}

/** Every table's rows in `after` that differ from the same table in the database file `before`. */
export function rowChanges(after: string, before: string): RowChanges {
  const sqlite = new Database(after, { readonly: true, fileMustExist: true });
  sqlite.prepare('attach ? as b').run(before);
  const changes: RowChanges = { tables: [], inserted: 0, updated: 0, deleted: 0 };
  try {
    const tables = sqlite
      .prepare(
        "select name, wr from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%' order by name",
      )
      .all() as { name: string; wr: number }[];
    for (const { name, wr } of tables) {
      const info = sqlite.prepare(`select name, type, pk, hidden from pragma_table_xinfo(?)`).all(name) as {
        name: string;
        type: string;
        pk: number;
        hidden: number;
      }[];
      const columns = info.filter((c) => c.hidden === 0).map((c) => c.name);
      const pk = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      // A rowid table names its rowid when no INTEGER PRIMARY KEY column is its alias.
      const rowidAlias = !wr && pk.length === 1 && pk[0]!.type.toUpperCase() === 'INTEGER';
      const key = wr ? pk.map((c) => c.name) : rowidAlias ? [pk[0]!.name] : ['rowid'];
      const written = key[0] === 'rowid' ? ['rowid', ...columns] : columns;
      const keyAt = key.map((k) => written.indexOf(k));
      const list = written.map(quote).join(', ');
      const keys = key.map(quote).join(', ');
      const byKey = key.map((k) => `${quote(k)} = ?`).join(' and ');
      const order = `order by ${key.map((_, i) => i + 1).join(', ')}`;
      const differing = sqlite
        .prepare(
          `select ${list} from main.${quote(name)} except select ${list} from b.${quote(name)} ${order}`,
        )
        .raw()
        .all() as unknown[][];
      const removed = sqlite
        .prepare(
          `select ${keys} from b.${quote(name)} except select ${keys} from main.${quote(name)} ${order}`,
        )
        .raw()
        .all() as unknown[][];
      if (differing.length === 0 && removed.length === 0) continue;
      const beforeRow = sqlite.prepare(`select ${list} from b.${quote(name)} where ${byKey}`).raw();
      const rows: TableRows = {
        table: name,
        columns: written,
        key,
        inserts: {
          sql: `insert into ${quote(name)} (${list}) values (${written.map(() => '?').join(', ')})`,
          rows: [],
        },
        updates: new Map(),
        deletes: { sql: `delete from ${quote(name)} where ${byKey}`, keys: removed },
      };
      for (const row of differing) {
        const old = beforeRow.get(...keyAt.map((i) => row[i])) as unknown[] | undefined;
        if (!old) {
          rows.inserts.rows.push(row);
          continue;
        }
        const set = written.flatMap((_, i) => (keyAt.includes(i) || Object.is(old[i], row[i]) ? [] : [i]));
        const setKey = set.join(',');
        let update = rows.updates.get(setKey);
        if (!update)
          rows.updates.set(
            setKey,
            (update = {
              sql: `update ${quote(name)} set ${set.map((i) => `${quote(written[i]!)} = ?`).join(', ')} where ${byKey}`,
              columns: set.map((i) => written[i]!),
              rows: [],
            }),
          );
        update.rows.push([...set.map((i) => row[i]), ...keyAt.map((i) => row[i])]);
      }
      changes.inserted += rows.inserts.rows.length;
      changes.updated += differing.length - rows.inserts.rows.length;
      changes.deleted += removed.length;
      changes.tables.push(rows);
    }
  } finally {
    sqlite.close();
  }
  return changes;
}

/** What each table got, most rows first: "transfers 53,451 new, accounts 50,000 changed, …". */
export function describeChanges(changes: RowChanges): string {
  return changes.tables
    .map((t) => {
      const updated = [...t.updates.values()].reduce((sum, u) => sum + u.rows.length, 0);
      return { t, n: t.inserts.rows.length + updated + t.deletes.keys.length, updated };
    })
    .sort((a, b) => b.n - a.n)
    .map(({ t, updated }) =>
      [
        t.table,
        t.inserts.rows.length && `${t.inserts.rows.length.toLocaleString('en')} new`,
        updated && `${updated.toLocaleString('en')} changed`,
        t.deletes.keys.length && `${t.deletes.keys.length.toLocaleString('en')} removed`,
      ]
        .filter(Boolean)
        .join(' '),
    )
    .join(', ');
}

/**
 * How the floor writes the rows: `rows`, one prepared statement run per row from JavaScript (as a
 * request writes); `sets`, the rows staged beforehand in an attached database and written by one
 * INSERT … SELECT, UPDATE … FROM or DELETE per table, kind of change and slice (as the runs write).
 */
export type FloorMode = 'rows' | 'sets';

interface Work {
  table: string;
  kind: 'insert' | 'update' | 'delete';
  /** The statement's text for `rows`. */
  sql: string;
  rows: unknown[][];
  /** For `sets`: the columns set (updates) or written (inserts), the key's columns. */
  columns: string[];
  key: string[];
}

/**
 * Writes `changes` into a copy of the database file `before` through `open` (a connection set up as
 * the run's), in about `commits` transactions; returns the wall and CPU milliseconds of the writes
 * alone and the commits made. Throws unless the copy's tables then hold exactly the rows of `after`.
 */
export function writeFloor(
  changes: RowChanges,
  before: string,
  after: string,
  copy: string,
  commits: number,
  open: (path: string) => Database.Database,
  mode: FloorMode = 'rows',
): { ms: number; cpuMs: number; commits: number } {
  copyFileSync(before, copy);
  const stage = `${copy}.stage`;
  const sqlite = open(copy);
  try {
    sqlite.pragma('foreign_keys = OFF');
    for (const trigger of sqlite
      .prepare("select name from sqlite_master where type = 'trigger'")
      .pluck()
      .all() as string[])
      sqlite.exec(`drop trigger ${quote(trigger)}`);
    const work: Work[] = [];
    for (const t of changes.tables) {
      const base = { table: t.table, columns: t.columns, key: t.key };
      if (t.deletes.keys.length)
        work.push({ ...base, kind: 'delete', sql: t.deletes.sql, rows: t.deletes.keys, columns: [] });
      for (const u of t.updates.values())
        work.push({ ...base, kind: 'update', sql: u.sql, rows: u.rows, columns: u.columns });
      if (t.inserts.rows.length)
        work.push({ ...base, kind: 'insert', sql: t.inserts.sql, rows: t.inserts.rows });
    }
    const total = changes.inserted + changes.updated + changes.deleted;
    const perCommit = Math.max(1, Math.ceil(total / Math.max(1, commits)));
    const steps = mode === 'rows' ? rowSteps(sqlite, work) : setSteps(sqlite, work, stage, perCommit);
    const begin = sqlite.prepare('begin');
    const commit = sqlite.prepare('commit');
    let made = 0;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let inCommit = 0;
    begin.run();
    for (const step of steps) {
      inCommit += step();
      if (inCommit >= perCommit) {
        commit.run();
        made++;
        begin.run();
        inCommit = 0;
      }
    }
    commit.run();
    made++;
    const cpu = process.cpuUsage(cpu0);
    const written = { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, commits: made };
    sqlite.close();
    const left = rowChanges(after, copy);
    if (left.inserted + left.updated + left.deleted > 0)
      throw new Error(`the floor (${mode}) is not the run's: its copy lacks ${describeChanges(left)}`);
    return written;
  } finally {
    if (sqlite.open) sqlite.close();
    for (const file of [copy, stage])
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
  }
}

/** One step per row: its statement run with its values; each step returns the rows it wrote (1). */
function rowSteps(sqlite: Database.Database, work: Work[]): (() => number)[] {
  return work.flatMap(({ sql, rows }) => {
    const statement = sqlite.prepare(sql);
    return rows.map((row) => () => (statement.run(...row), 1));
  });
}

/**
 * The rows staged in tables of an attached database (`s.w0`, `s.w1`, … with columns c0, c1, …, in
 * key order), then one step per slice of at most `slice` rows: a set statement over that rowid range.
 */
function setSteps(sqlite: Database.Database, work: Work[], stage: string, slice: number): (() => number)[] {
  // Made apart: the run's connection opens files that exist only (attach included).
  new Database(stage).close();
  sqlite.prepare('attach ? as s').run(stage);
  const steps: (() => number)[] = [];
  work.forEach((w, n) => {
    const width = w.rows[0]!.length;
    const cols = Array.from({ length: width }, (_, i) => `c${i}`);
    sqlite.exec(`create table s.w${n} (${cols.join(', ')})`);
    const put = sqlite.prepare(`insert into s.w${n} values (${cols.map(() => '?').join(', ')})`);
    sqlite.transaction(() => {
      for (const row of w.rows) put.run(...row);
    })();
    const t = quote(w.table);
    const range = `select * from s.w${n} where rowid between ? and ?`;
    // Staged columns: a delete's row is its key; an update's, the columns set then the key; an insert's, every column.
    const keyCols =
      w.kind === 'update' ? w.key.map((_, i) => `c${w.columns.length + i}`) : cols.slice(0, w.key.length);
    const keyIs = w.key.map((k, i) => `${t}.${quote(k)} = x.${keyCols[i]}`).join(' and ');
    const statement = sqlite.prepare(
      w.kind === 'insert'
        ? `insert into ${t} (${w.columns.map(quote).join(', ')}) select ${cols.join(', ')} from s.w${n} where rowid between ? and ? order by rowid`
        : w.kind === 'update'
          ? `update ${t} set ${w.columns.map((c, i) => `${quote(c)} = x.c${i}`).join(', ')} from (${range}) as x where ${keyIs}`
          : `delete from ${t} where (${w.key.map(quote).join(', ')}) in (select ${keyCols.join(', ')} from s.w${n} where rowid between ? and ?)`,
    );
    for (let first = 1; first <= w.rows.length; first += slice) {
      const last = Math.min(w.rows.length, first + slice - 1);
      steps.push(() => statement.run(first, last).changes);
    }
  });
  return steps;
}
