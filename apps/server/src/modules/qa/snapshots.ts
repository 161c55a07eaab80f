/**
 * Named snapshots of the whole database for QA: save, list, restore in place, delete.
 *
 * Restoring copies the snapshot's rows INTO the open connection (ATTACH, then delete and insert
 * every table in one transaction) instead of swapping the connection: services, prepared
 * statement caches (keyed by connection) and the Drizzle instance keep working, and a failed
 * restore rolls back to the state before it. File databases keep their snapshots as files
 * beside them (`<database>.snapshots/<name>.sqlite`, git-ignored); ':memory:' databases keep
 * them in memory.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  existsSync,
  readFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { resetGuessLimits } from '../../core/attempts.ts';
import { rewriteAll } from '../../core/read-cache.ts';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import { quoteIdentifier as quote } from '../../core/prepared.ts';
import type { Services } from '../../core/services.ts';

export const SNAPSHOT_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const NAME_RULE = "Snapshot names are 1–64 letters, digits, '-' or '_'";
const ALIAS = 'qa_snapshot';

export interface SnapshotInfo {
  name: string;
  /** Bytes of the stored database image. */
  size: number;
  createdAt: string;
}

export function checkSnapshotName(name: unknown): string {
  if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name)) throw badRequest(NAME_RULE);
  return name;
}

/** The migrations a database was built with: a snapshot restores only into the same schema. */
function migrations(sqlite: Database.Database, schema: string): string {
  const exists = sqlite
    .prepare(`select 1 from ${schema}.sqlite_master where type = 'table' and name = '__drizzle_migrations'`)
    .get();
  if (!exists) return '';
  return (
    sqlite.prepare(`select hash from ${schema}.__drizzle_migrations order by created_at, hash`).all() as {
      hash: string;
    }[]
  )
    .map((r) => r.hash)
    .join(',');
}

/** Replaces every row of the main database with the rows of the database file `file`, atomically. */
export function restoreInto(sqlite: Database.Database, file: string, name: string) {
  const unreadable = (error: unknown) =>
    new AppError(409, `Snapshot '${name}' cannot be read: ${(error as Error).message}`);
  try {
    sqlite.prepare(`attach database ? as ${ALIAS}`).run(file);
  } catch (error) {
    throw unreadable(error);
  }
  try {
    let snapshotMigrations: string;
    try {
      snapshotMigrations = migrations(sqlite, ALIAS);
    } catch (error) {
      throw unreadable(error);
    }
    if (snapshotMigrations !== migrations(sqlite, 'main'))
      throw new AppError(
        409,
        `Snapshot '${name}' was saved with another database schema (its migrations differ); save a new one`,
      );

    const tables = (
      sqlite
        .prepare(
          "select name from main.sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'",
        )
        .all() as { name: string }[]
    ).map((t) => t.name);
    const triggers = sqlite
      .prepare("select name, sql from main.sqlite_master where type = 'trigger' and sql is not null")
      .all() as { name: string; sql: string }[];
    const hasSequence = Boolean(
      sqlite.prepare("select 1 from main.sqlite_master where name = 'sqlite_sequence'").get(),
    );
    const snapshotHasSequence = Boolean(
      sqlite.prepare(`select 1 from ${ALIAS}.sqlite_master where name = 'sqlite_sequence'`).get(),
    );

    // Foreign keys are checked by the snapshot having been consistent; the pragma is a no-op
    // inside a transaction, so it is switched around it.
    const foreignKeys = sqlite.pragma('foreign_keys', { simple: true }) as number;
    sqlite.pragma('foreign_keys = OFF');
    try {
      sqlite
        .transaction(() => {
          // Triggers would fire on the copy (a balance trigger would count twice): off during it.
          for (const trigger of triggers) sqlite.prepare(`drop trigger main.${quote(trigger.name)}`).run();
          for (const table of tables) sqlite.prepare(`delete from main.${quote(table)}`).run();
          for (const table of tables) {
            const columns = (sqlite.pragma(`main.table_info(${quote(table)})`) as { name: string }[])
              .map((c) => quote(c.name))
              .join(', ');
            sqlite
              .prepare(
                `insert into main.${quote(table)} (${columns}) select ${columns} from ${ALIAS}.${quote(table)}`,
              )
              .run();
          }
          if (hasSequence) {
            sqlite.prepare('delete from main.sqlite_sequence').run();
            if (snapshotHasSequence)
              sqlite
                .prepare(
                  `insert into main.sqlite_sequence (name, seq) select name, seq from ${ALIAS}.sqlite_sequence`,
                )
                .run();
          }
          for (const trigger of triggers) sqlite.exec(trigger.sql);
        })
        .immediate();
    } catch (error) {
      // Rolled back: the database is as it was. A snapshot that does not fit is not a server fault.
      throw error instanceof AppError
        ? error
        : new AppError(409, `Snapshot '${name}' cannot be restored: ${(error as Error).message}`);
    } finally {
      sqlite.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
    }
  } finally {
    sqlite.prepare(`detach database ${ALIAS}`).run();
  }
}

interface Store {
  list(): SnapshotInfo[];
  /** Writes the current database under `name` (replacing one of that name). */
  save(name: string): SnapshotInfo;
  /** Writes a database image under `name` (replacing one of that name). */
  put(name: string, data: Buffer): SnapshotInfo;
  /** Runs `use` with a database file holding the snapshot; undefined when there is none. */
  withFile<T>(name: string, use: (file: string) => T): { info: SnapshotInfo; result: T } | undefined;
  remove(name: string): boolean;
}

function memoryStore(sqlite: Database.Database): Store {
  const images = new Map<string, { data: Buffer; createdAt: number }>();
  const info = (name: string, image: { data: Buffer; createdAt: number }): SnapshotInfo => ({
    name,
    size: image.data.length,
    createdAt: new Date(image.createdAt).toISOString(),
  });
  return {
    list: () => [...images].map(([name, image]) => info(name, image)),
    save(name) {
      const image = { data: sqlite.serialize(), createdAt: Date.now() };
      images.set(name, image);
      return info(name, image);
    },
    put(name, data) {
      const image = { data, createdAt: Date.now() };
      images.set(name, image);
      return info(name, image);
    },
    withFile(name, use) {
      const image = images.get(name);
      if (!image) return undefined;
      // ATTACH needs a file: the image lives on disk only while it is copied in.
      const dir = mkdtempSync(join(tmpdir(), 'md-snapshot-'));
      try {
        const file = join(dir, 'snapshot.sqlite');
        writeFileSync(file, image.data);
        return { info: info(name, image), result: use(file) };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    remove: (name) => images.delete(name),
  };
}

function directoryStore(sqlite: Database.Database, dir: string): Store {
  const fileOf = (name: string) => join(dir, `${name}.sqlite`);
  const info = (name: string): SnapshotInfo | undefined => {
    const file = fileOf(name);
    if (!existsSync(file)) return undefined;
    const stat = statSync(file);
    return { name, size: stat.size, createdAt: stat.mtime.toISOString() };
  };
  return {
    list() {
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((f) => f.endsWith('.sqlite') && SNAPSHOT_NAME.test(f.slice(0, -'.sqlite'.length)))
        .map((f) => info(f.slice(0, -'.sqlite'.length)))
        .filter((i): i is SnapshotInfo => i !== undefined);
    },
    save(name) {
      mkdirSync(dir, { recursive: true });
      // VACUUM INTO writes a consistent, compact copy (WAL included); the rename makes a
      // replaced snapshot switch at once rather than be half written.
      const temp = join(dir, `.${name}.${process.pid}.tmp`);
      rmSync(temp, { force: true });
      try {
        sqlite.prepare('vacuum into ?').run(temp);
        renameSync(temp, fileOf(name));
      } finally {
        rmSync(temp, { force: true });
      }
      return info(name)!;
    },
    put(name, data) {
      mkdirSync(dir, { recursive: true });
      const temp = join(dir, `.${name}.${process.pid}.tmp`);
      try {
        writeFileSync(temp, data);
        renameSync(temp, fileOf(name));
      } finally {
        rmSync(temp, { force: true });
      }
      return info(name)!;
    },
    withFile(name, use) {
      const found = info(name);
      return found ? { info: found, result: use(fileOf(name)) } : undefined;
    },
    remove(name) {
      if (!existsSync(fileOf(name))) return false;
      rmSync(fileOf(name));
      return true;
    },
  };
}

export function createSnapshots(services: Services) {
  const { sqlite } = services;
  const store = sqlite.memory
    ? memoryStore(sqlite)
    : directoryStore(sqlite, `${resolve(sqlite.name)}.snapshots`);
  const missing = (name: string) => notFound(`No snapshot named '${name}'`);

  return {
    list: (): SnapshotInfo[] =>
      store.list().sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.name.localeCompare(b.name)),
    save: (name: string): SnapshotInfo => store.save(checkSnapshotName(name)),
    /** Keeps a database image (an imported world file's, at this schema) as the snapshot `name`. */
    put: (name: string, image: Buffer): SnapshotInfo => store.put(checkSnapshotName(name), image),
    /** Puts the database back as it was saved; the clock reads its stored offset again. */
    restore(name: string): SnapshotInfo {
      // Every row is replaced: the read cache's triggers stand aside and every kept answer goes.
      const done = store.withFile(checkSnapshotName(name), (file) =>
        rewriteAll(sqlite, () => restoreInto(sqlite, file, name)),
      );
      if (!done) throw missing(name);
      services.clock.reload();
      resetGuessLimits(services); // failure counts and known addresses belong to the replaced database
      return done.info;
    },
    remove(name: string): void {
      if (!store.remove(checkSnapshotName(name))) throw missing(name);
    },
    /** The snapshot as a database image (a new QA world starts from it). */
    image(name: string): Buffer {
      const done = store.withFile(checkSnapshotName(name), (file) => readFileSync(file));
      if (!done) throw missing(name);
      return done.result;
    },
  };
}
export type Snapshots = ReturnType<typeof createSnapshots>;
