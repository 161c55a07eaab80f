/** Statement helpers for code that writes many rows: the ledger and the daily runs. */
import type Database from 'better-sqlite3';
import { prepared } from '../../core/prepared.ts';

/** Prepared statements cached per connection (core/prepared.ts): the daily runs call these per member. */
export { prepared };

/**
 * An amount of micro-units (an integer expression, 0 ≤ amount < 10^15) as formatMoney writes it in
 * a message: "$1,500.00", truncated to the cent.
 */
export const moneyTextSql = (micros: string) =>
  `printf('$%,d.%02d', (${micros}) / 1000000, ((${micros}) % 1000000) / 10000)`;

/** Rows per statement; a smaller remainder goes through 32, 16, … 1 row statements. */
const MAX_ROWS = 64;

/** Insert SQL by table and columns, by row count: built once, and the same string each time keeps the statement cache's lookups cheap. */
const insertSqls = new Map<string, string[]>();

export interface RowWriter {
  /** Queues one row (values in the writer's column order); every 64 rows are inserted at once. */
  push(row: readonly unknown[]): void;
  /** Inserts what is still queued. */
  end(): void;
}

/**
 * Inserts rows into `table` in the order they are pushed, up to 64 rows per statement. The rows
 * get the same ids, in the same order, as one insert per row would give them, for about a third
 * less per row (an AUTOINCREMENT table reads and writes sqlite_sequence once per statement, and
 * each statement has its own call overhead). The statements are `insert or fail`: a multi-row
 * insert that may abort keeps a statement journal (a copy of every page it touches, spilled to a
 * temporary file past 64 KiB), a failing one does not; the rows written here are checked before
 * (amounts, accounts), and should one fail anyway the error rolls the caller's whole transaction
 * back, not just the statement. Caller holds the transaction and calls end().
 */
export function rowWriter(sqlite: Database.Database, table: string, columns: readonly string[]): RowWriter {
  const key = `${table} (${columns.join(', ')})`;
  const bySize = insertSqls.get(key) ?? [];
  insertSqls.set(key, bySize);
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const statement = (rows: number) =>
    prepared(
      sqlite,
      (bySize[rows] ??= `insert or fail into ${key} values ${Array<string>(rows).fill(tuple).join(', ')}`),
    );
  const params: unknown[] = [];
  const flush = (rows: number) => {
    // The first `rows` queued rows, removed from the queue.
    const values = params.splice(0, rows * columns.length);
    statement(rows).run(values);
  };
  return {
    push(row) {
      if (row.length !== columns.length)
        throw new Error(`${table}: ${row.length} values for ${columns.length} columns`);
      for (const value of row) params.push(value);
      if (params.length === MAX_ROWS * columns.length) {
        statement(MAX_ROWS).run(params);
        params.length = 0;
      }
    },
    end() {
      for (let size = MAX_ROWS >> 1; size >= 1; size >>= 1)
        if (params.length >= size * columns.length) flush(size);
    },
  };
}
