/**
 * The thread a world's heavy making runs in (modules/worlds/build-thread.ts starts one per build):
 * seeding a scenario's template, or building a declared state. Both are one long synchronous
 * transaction; on the request thread they froze every world (a 20,000-member state for minutes).
 * Here the thread builds the database on its own connection, on the file it is given (closed,
 * and so checkpointed, before it answers), or in memory, answered as the database's image.
 *
 * It tells the parent its progress while a state builds; a parent that cancels terminates it
 * (the transaction is never committed, and the parent removes the files).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Plan, WorldState } from '@md/shared';
import { buildApp } from './app.ts';
import { AppError } from './core/errors.ts';
import { buildWorldState, type WorldBuildProgress, type WorldStateSummary } from './seed/declared-state.ts';

export type WorldWork =
  | { kind: 'template'; scenario: string; file: string | null; plan?: Plan }
  | { kind: 'state'; state: WorldState; file: string | null; plan?: Plan };

export type WorldWorkMessage =
  | { kind: 'progress'; progress: WorldBuildProgress }
  | { kind: 'done'; summary?: WorldStateSummary; image?: Uint8Array }
  | { kind: 'failed'; status: number; message: string; stack?: string };

const work = workerData as WorldWork;
const post = (message: WorldWorkMessage, transfer: ArrayBuffer[] = []) =>
  parentPort!.postMessage(message, transfer);

async function make(): Promise<WorldWorkMessage & { kind: 'done' }> {
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

try {
  const done = await make();
  // The image moves to the parent without a copy when it owns its whole buffer.
  const image = done.image;
  const whole = image && image.byteOffset === 0 && image.byteLength === image.buffer.byteLength;
  post(done, whole ? [image.buffer as ArrayBuffer] : []);
} catch (error) {
  const failure = error instanceof Error ? error : new Error(String(error));
  post({
    kind: 'failed',
    status: error instanceof AppError ? error.status : 500,
    message: failure.message,
    ...(failure.stack ? { stack: failure.stack } : {}),
  });
}
