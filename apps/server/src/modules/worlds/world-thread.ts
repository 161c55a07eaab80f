/**
 * Runs a world's heavy work (a scenario's template, a declared state, a world file written or
 * read) in a worker thread of its own (world-worker.ts), so the request thread keeps answering
 * every other world meanwhile. One thread per piece of work: it ends with it, and cancelling
 * terminates it mid-transaction (nothing is committed; the caller removes the files).
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { WorldBuildProgress, WorldStateSummary } from '../../seed/declared-state.ts';
import { AppError } from '../../core/errors.ts';
import { movable, workerEntry } from '../../core/worker-module.ts';
import type { WorldWork, WorldWorkMessage } from '../../world-worker.ts';
import type { ImportedSettings, WorldSettings } from './world-file.ts';

export interface WorldThreadResult {
  summary?: WorldStateSummary;
  /** The database's image, when it was built in memory; a world file, written or read. */
  image?: Buffer;
  imported?: { settings: ImportedSettings; exportedAt: string };
}

/**
 * Writes a world's database as a world file (world-file.ts) to `target`. A database on a file is
 * read by the thread (its own connection: one consistent copy, WAL included); one in memory is
 * handed over as its image.
 */
export async function exportWorldFile(
  sqlite: Database.Database,
  target: string,
  settings: WorldSettings,
  exportedAt: Date,
): Promise<void> {
  const database = sqlite.memory ? { image: sqlite.serialize() } : { file: sqlite.name };
  await runWorldThread({
    kind: 'export',
    database,
    target,
    settings,
    exportedAt: exportedAt.toISOString(),
  });
}

/** Makes the world file at `file` its database, in place, in a thread (world-file.ts readWorldFile); a 400 for a bad file. */
export async function importWorldFile(
  file: string,
  migrations: readonly string[],
): Promise<{ settings: ImportedSettings; exportedAt: string }> {
  return (await runWorldThread({ kind: 'import', file, migrations })).imported!;
}

/** Raised when a build is cancelled (the thread is terminated). */
export class BuildCancelledError extends Error {
  override name = 'BuildCancelledError';
}

export function runWorldThread(
  work: WorldWork,
  options: { onProgress?: (progress: WorldBuildProgress) => void; signal?: AbortSignal } = {},
): Promise<WorldThreadResult> {
  const entry = workerEntry(new URL('../../world-worker.ts', import.meta.url), 'world-worker.js');
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new BuildCancelledError('The build was cancelled'));
    const data = work.kind === 'export' && 'image' in work.database ? work.database.image : undefined;
    const thread = new Worker(entry.url, {
      workerData: work,
      argv: entry.argv,
      transferList: movable(data),
    });
    let settled = false;
    let cancelled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', cancel);
      finish();
    };
    // Answered once the thread has ended: nothing writes to the build's files after that.
    const cancel = () => {
      cancelled = true;
      void thread.terminate();
    };
    options.signal?.addEventListener('abort', cancel, { once: true });
    thread.on('message', (message: WorldWorkMessage) => {
      if (cancelled) return;
      if (message.kind === 'progress') options.onProgress?.(message.progress);
      else if (message.kind === 'done')
        settle(() =>
          resolve({
            ...(message.summary ? { summary: message.summary } : {}),
            ...(message.imported ? { imported: message.imported } : {}),
            ...(message.image
              ? {
                  image: Buffer.from(
                    message.image.buffer,
                    message.image.byteOffset,
                    message.image.byteLength,
                  ),
                }
              : {}),
          }),
        );
      else
        settle(() =>
          reject(
            message.status < 500
              ? new AppError(message.status, message.message)
              : Object.assign(new Error(message.message), { stack: message.stack }),
          ),
        );
    });
    thread.on('error', (error) => settle(() => reject(error)));
    thread.on('exit', (code) =>
      settle(() =>
        reject(
          cancelled
            ? new BuildCancelledError('The build was cancelled')
            : new Error(`The world's build thread exited (code ${code}) before answering`),
        ),
      ),
    );
  });
}
