/**
 * Runs a world's heavy making (a scenario's template, a declared state) in a worker thread of
 * its own (world-worker.ts), so the request thread keeps answering every other world meanwhile.
 * One thread per build: it ends with its build, and cancelling terminates it mid-transaction
 * (nothing is committed; the caller removes the files).
 */
import { Worker } from 'node:worker_threads';
import type { WorldBuildProgress, WorldStateSummary } from '../../seed/declared-state.ts';
import { AppError } from '../../core/errors.ts';
import { workerEntry } from '../../core/worker-module.ts';
import type { WorldWork, WorldWorkMessage } from '../../world-worker.ts';

export interface BuildThreadResult {
  summary?: WorldStateSummary;
  /** The database's image, when it was built in memory. */
  image?: Buffer;
}

/** Raised when a build is cancelled (the thread is terminated). */
export class BuildCancelledError extends Error {
  override name = 'BuildCancelledError';
}

export function runBuildThread(
  work: WorldWork,
  options: { onProgress?: (progress: WorldBuildProgress) => void; signal?: AbortSignal } = {},
): Promise<BuildThreadResult> {
  const entry = workerEntry(new URL('../../world-worker.ts', import.meta.url), 'world-worker.js');
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new BuildCancelledError('The build was cancelled'));
    const thread = new Worker(entry.url, { workerData: work, argv: entry.argv });
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
