/**
 * A world as one file, to carry it to another server: its SQLite database (every row, its clock's
 * offset and its mailbox with it) plus a table `world_file` holding the format, its version and
 * the world's settings that live outside the database (fault rules, gateway routing, client mode).
 * A file any SQLite tool opens, and one a tester attaches to a bug report.
 *
 * Reading one is reading hostile input: anything but a world file of a known version whose schema
 * this server knows is refused with a message saying which, and nothing is made. A file from an
 * older schema is migrated forward in memory, as a database of the previous main is at start.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { z } from 'zod';
import { firstIssueMessage } from '@md/shared';
import { MIGRATIONS_DIR } from '@md/db';
import { AppError, badRequest } from '../../core/errors.ts';
import { ScratchFile } from '../../core/scratch.ts';
import { recordingOf, routingInput, type Routing, type RoutingInput } from '../gateway/routing.ts';
import { ledgerCheck } from '../ledger/ledger.ts';
import { ruleInput, type FaultStore, type RuleInput } from '../qa/faults.ts';

export const WORLD_FILE_FORMAT = 'md-world';
/** Raised when the file's layout changes; a server reads every version up to its own. */
export const WORLD_FILE_VERSION = 1;
/**
 * What an import may weigh. It goes to disk as it arrives, never into memory: the 100,000-member
 * `scale` world's file is 176 MB as made and 447 MB after 30 days of daily runs.
 */
export const WORLD_FILE_MAX_BYTES = 2 * 1024 ** 3;
const TABLE = 'world_file';
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export const WORLD_FILE_MESSAGES = {
  notAWorld: 'This is not a world file: export one with GET /__qa/worlds/{id}/export',
  unreadable: (why: string) => `The world file cannot be read: ${why}`,
  newerFormat: (version: number) =>
    `The world file is of format version ${version}; this server reads up to ${WORLD_FILE_VERSION}: import it on a newer server`,
  newerSchema: (unknown: string) =>
    `The world file was exported by a newer server: its database has a migration this server does not know (${unknown}); import it on a server at least as new`,
  otherSchema: (at: number) =>
    `The world file's database schema is not this server's: its migration ${at + 1} differs from this server's`,
  unmigratable: (why: string) =>
    `The world file's database, of an older schema, cannot be brought to this server's: ${why}`,
  settings: (why: string) => `The world file's settings are not valid: ${why}`,
  ledger: (why: string) => `The world file's ledger does not balance: ${why}`,
};

/**
 * A world's settings that live beside its database, as their own routes take them (POST
 * /__qa/faults, PUT /__qa/routing): a file is checked exactly as those calls would be.
 */
export const worldSettings = z
  .object({
    from: z.string().max(200),
    name: z.string().trim().min(1).max(64).optional(),
    clientMode: z.enum(['mock', 'provider']).optional(),
    faults: z.array(ruleInput).max(1000),
    routing: z.array(routingInput).max(1000),
  })
  .strict();
export type WorldSettings = z.input<typeof worldSettings>;
/** A world file's settings as read: checked, and ready for applySettings. */
export type ImportedSettings = z.output<typeof worldSettings>;

/** Where a world's settings live: its QA surface's fault rules and its gateway's routing table. */
export interface SettingsHolders {
  faults?: FaultStore;
  routing?: Routing;
  /** Whether this server forwards to a provider (PROVIDER_URL): routes to it are kept only then. */
  hasProvider?: boolean;
}

/** The fault rules and routing a world has now, as a world file carries them. */
export function settingsOf(holders: SettingsHolders): Pick<WorldSettings, 'faults' | 'routing'> {
  const faults = (holders.faults?.list() ?? []).map(
    ({ id: _id, applied: _applied, createdAt: _createdAt, remaining, ...rule }) => ({
      ...rule,
      ...(remaining !== undefined ? { times: remaining } : {}),
    }),
  );
  const view = holders.routing?.view();
  const routing = (view?.endpoints ?? [])
    .filter((endpoint) => endpoint.target !== view!.default)
    .map(({ procedure, target }) => ({ path: procedure, target }));
  return { faults, routing };
}

/**
 * Gives a new world the settings a file carried; answers what could not travel: routes to a
 * recording (recordings stay on the server that made them) and, on a server without a provider,
 * routes to the provider. Those endpoints keep this server's default.
 */
export function applySettings(
  holders: SettingsHolders,
  settings: { faults: RuleInput[]; routing: RoutingInput[] },
): string[] {
  const left: string[] = [];
  for (const rule of settings.faults) holders.faults?.add(rule);
  for (const { path, target } of settings.routing) {
    if (recordingOf(target) !== null) {
      left.push(`routing of ${path} to ${target}: recordings do not travel`);
      continue;
    }
    if (target === 'provider' && !holders.hasProvider) {
      left.push(`routing of ${path} to the provider: this server has none (PROVIDER_URL)`);
      continue;
    }
    holders.routing?.set(path, target);
  }
  return left;
}

const header = z
  .object({
    format: z.literal(WORLD_FILE_FORMAT),
    version: z.number().int().min(1),
    exportedAt: z.string(),
    settings: z.unknown(),
  })
  .strict();

/** The world file a request's body brought (application/octet-stream, on disk), or a 400 saying how to send it. */
export function worldFileOf(body: unknown): ScratchFile {
  if (!(body instanceof ScratchFile))
    throw badRequest(
      'Send the world file as the body, with Content-Type: application/octet-stream (from GET /__qa/worlds/{id}/export)',
    );
  return body;
}

/** The migrations a database was built with, oldest first (drizzle's journal of them). */
export function appliedMigrations(sqlite: Database.Database): string[] {
  const journal = sqlite
    .prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'")
    .get();
  if (!journal) return [];
  return (
    sqlite.prepare('select hash from __drizzle_migrations order by created_at, hash').all() as {
      hash: string;
    }[]
  ).map((row) => row.hash);
}

/**
 * The image with its header saying the rollback journal, not WAL: SQLite opens no WAL-mode image
 * in memory.
 */
export function withoutWal(image: Buffer): Buffer {
  if (image.length >= 20 && (image[18] === 2 || image[19] === 2)) {
    image[18] = 1;
    image[19] = 1;
  }
  return image;
}

/**
 * Writes the world file of `source` (one consistent copy of it, WAL included, compacted) to
 * `target`, with its settings. Seconds for a large world: world-thread.ts runs it off the
 * request thread.
 */
export function writeWorldFile(
  source: Database.Database,
  target: string,
  settings: WorldSettings,
  now: Date,
): void {
  source.prepare('vacuum into ?').run(target);
  const file = new Database(target);
  try {
    // One file that any SQLite opens as it is: no WAL beside it.
    file.pragma('journal_mode = delete');
    file.exec(`create table ${TABLE} (key text primary key, value text not null)`);
    file.prepare(`insert into ${TABLE} (key, value) values ('header', ?)`).run(
      JSON.stringify({
        format: WORLD_FILE_FORMAT,
        version: WORLD_FILE_VERSION,
        exportedAt: now.toISOString(),
        settings,
      }),
    );
  } finally {
    file.close();
  }
}

/** Whether the file starts as a SQLite database does (and is long enough to hold one). */
function looksLikeSqlite(file: string): boolean {
  const head = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  try {
    return (
      readSync(fd, head, 0, head.length, 0) === head.length && head.subarray(0, 16).equals(SQLITE_HEADER)
    );
  } finally {
    closeSync(fd);
  }
}

/**
 * Makes the world file at `file` the database it holds, in place: at this server's schema and
 * checked, its settings and when it was exported answered; a 400 saying what is wrong with any
 * other file (then left as it was, or half done: the caller removes it). `migrations`: this
 * server's, oldest first. Seconds for a large world: world-thread.ts runs it off the request thread.
 */
export function readWorldFile(
  file: string,
  migrations: readonly string[],
): { settings: ImportedSettings; exportedAt: string } {
  if (!looksLikeSqlite(file)) throw badRequest(WORLD_FILE_MESSAGES.notAWorld);
  let copy: Database.Database;
  try {
    copy = new Database(file);
  } catch (error) {
    throw badRequest(WORLD_FILE_MESSAGES.unreadable((error as Error).message));
  }
  try {
    let raw: { value: string } | undefined;
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(String(check));
      const hasTable = copy
        .prepare("select 1 from sqlite_master where type = 'table' and name = ?")
        .get(TABLE);
      if (!hasTable) throw badRequest(WORLD_FILE_MESSAGES.notAWorld);
      raw = copy.prepare(`select value from ${TABLE} where key = 'header'`).get() as
        { value: string } | undefined;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw badRequest(WORLD_FILE_MESSAGES.unreadable((error as Error).message));
    }
    let parsedHeader: z.infer<typeof header>;
    try {
      const result = header.safeParse(raw ? JSON.parse(raw.value) : undefined);
      if (!result.success) throw new Error();
      parsedHeader = result.data;
    } catch {
      throw badRequest(WORLD_FILE_MESSAGES.notAWorld);
    }
    if (parsedHeader.version > WORLD_FILE_VERSION)
      throw badRequest(WORLD_FILE_MESSAGES.newerFormat(parsedHeader.version));
    const settings = worldSettings.safeParse(parsedHeader.settings);
    if (!settings.success) throw badRequest(WORLD_FILE_MESSAGES.settings(firstIssueMessage(settings.error)));

    // The file's migrations must be this server's, or the first of them (an older server's).
    const theirs = appliedMigrations(copy);
    for (const [at, hash] of theirs.entries())
      if (migrations[at] !== hash)
        throw badRequest(
          at >= migrations.length || !migrations.includes(hash)
            ? WORLD_FILE_MESSAGES.newerSchema(hash.slice(0, 12))
            : WORLD_FILE_MESSAGES.otherSchema(at),
        );
    copy.exec(`drop table ${TABLE}`);
    if (theirs.length < migrations.length)
      try {
        migrate(drizzle(copy), { migrationsFolder: MIGRATIONS_DIR });
      } catch (error) {
        throw badRequest(WORLD_FILE_MESSAGES.unmigratable((error as Error).message));
      }
    // Its rows are checked as the ledger check would, before anything is made of them: an edited
    // file becomes neither a world nor a snapshot.
    const check = ledgerCheck({ sqlite: copy });
    const problems = [
      ...(check.balanced ? [] : [`the balances sum to ${check.total}, not 0`]),
      ...check.negativeWallets.map((w) => `${w.username ?? w.accountId}'s ${w.wallet} wallet is negative`),
      ...check.mismatchedWallets.map(
        (w) => `${w.username ?? w.accountId}'s ${w.wallet} wallet differs from its transfers`,
      ),
    ];
    if (problems.length > 0) throw badRequest(WORLD_FILE_MESSAGES.ledger(problems.slice(0, 3).join('; ')));
    // One file, as a world's database is copied in: no WAL beside it.
    copy.pragma('journal_mode = delete');
    return { settings: settings.data, exportedAt: parsedHeader.exportedAt };
  } finally {
    copy.close();
  }
}
