/**
 * The thread a world's heavy work runs in (modules/worlds/world-thread.ts starts one per piece of
 * work): seeding a scenario's template, building a declared state, writing a world file and
 * reading one (both on disk, never whole in the request thread's memory). Each is long and synchronous (a 100,000-member world's file is 176 MB: seconds to
 * write, seconds to read, migrate and ledger-check); on the request thread they froze every world.
 * Here a build runs on its own connection, on the file it is given (closed, and so checkpointed,
 * before it answers), or in memory, answered as the database's image.
 *
 * It tells the parent its progress while a state builds; a parent that cancels terminates it
 * (the transaction is never committed, and the parent removes the files). Each kind loads only
 * what it needs: a world file's work does not load the app.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Plan, WorldState } from '@md/shared';
import { AppError } from './core/errors.ts';
import { movable } from './core/worker-module.ts';
import type { WorldBuildProgress, WorldStateSummary } from './seed/declared-state.ts';
import type { ImportedSettings, WorldSettings } from './modules/worlds/world-file.ts';

export type WorldWork =
  | { kind: 'template'; scenario: string; file: string | null; plan?: Plan }
  | { kind: 'state'; state: WorldState; file: string | null; plan?: Plan }
  /** The world file of a database (its file, opened here; or its image) written to `target`. */
  | {
      kind: 'export';
      database: { file: string } | { image: Uint8Array };
      target: string;
      settings: WorldSettings;
      exportedAt: string;
    }
  /** A world file made, in place, the database it holds: at this server's schema (`migrations`), checked. */
  | { kind: 'import'; file: string; migrations: readonly string[] };

export type WorldWorkMessage =
  | { kind: 'progress'; progress: WorldBuildProgress }
  | {
      kind: 'done';
      summary?: WorldStateSummary;
      image?: Uint8Array;
      imported?: { settings: ImportedSettings; exportedAt: string };
    }
  | { kind: 'failed'; status: number; message: string; stack?: string };

const work = workerData as WorldWork;
const post = (message: WorldWorkMessage, transfer: ArrayBuffer[] = []) =>
  parentPort!.postMessage(message, transfer);

async function make(): Promise<WorldWorkMessage & { kind: 'done' }> {
  if (work.kind === 'export' || work.kind === 'import') {
    const { default: Database } = await import('better-sqlite3');
    const { readWorldFile, withoutWal, writeWorldFile } = await import('./modules/worlds/world-file.ts');
    if (work.kind === 'import') return { kind: 'done', imported: readWorldFile(work.file, work.migrations) };
    const source =
      'image' in work.database
        ? new Database(withoutWal(bufferOf(work.database.image)))
        : new Database(work.database.file, { readonly: true, fileMustExist: true });
    try {
      writeWorldFile(source, work.target, work.settings, new Date(work.exportedAt));
    } finally {
      source.close();
    }
    return { kind: 'done' };
  }
  const { buildApp } = await import('./app.ts');
  if (work.kind === 'template') {
    const app = await buildApp({
      seed: work.scenario,
      standin: false,
      webDist: '',
      ...(work.plan ? { plan: work.plan } : {}),
    });
    try {
      // VACUUM INTO writes a compact copy that needs no WAL beside it.
      if (work.file) app.services.sqlite.prepare('vacuum into ?').run(work.file);
      else return { kind: 'done', image: app.services.sqlite.serialize() };
      return { kind: 'done' };
    } finally {
      await app.fastify.close();
    }
  }
  const app = await buildApp({
    databasePath: work.file ?? ':memory:',
    seed: 'none',
    createDatabase: true,
    standin: false,
    webDist: '',
    ...(work.plan ? { plan: work.plan } : {}),
  });
  try {
    const { buildWorldState } = await import('./seed/declared-state.ts');
    const summary = buildWorldState(app.services, work.state, (progress) =>
      post({ kind: 'progress', progress }),
    );
    return work.file
      ? { kind: 'done', summary }
      : { kind: 'done', summary, image: app.services.sqlite.serialize() };
  } finally {
    await app.fastify.close();
  }
}

function bufferOf(data: Uint8Array): Buffer {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

try {
  const done = await make();
  post(done, movable(done.image));
} catch (error) {
  const failure = error instanceof Error ? error : new Error(String(error));
  post({
    kind: 'failed',
    status: error instanceof AppError ? error.status : 500,
    message: failure.message,
    ...(failure.stack ? { stack: failure.stack } : {}),
  });
}
