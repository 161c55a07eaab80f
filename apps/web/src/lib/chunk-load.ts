/**
 * Loading a lazy chunk on a phone's connection: a failed load is tried again a few times with a
 * short pause (a blip, or a deploy's new file still reaching the CDN, often passes within them),
 * then fails with a `ChunkLoadError`, which the screens' boundary (components/chunk-boundary.tsx)
 * shows as a message with Retry and Reload instead of leaving a blank page.
 */

/** The pauses before each new try of a chunk that failed to load. */
export const CHUNK_RETRY_DELAYS_MS: readonly number[] = [400, 1_200];

/** A lazy chunk that could not be loaded after its tries: the network or the server, not a bug in the screen. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : 'A part of the app could not be loaded', { cause });
    this.name = 'ChunkLoadError';
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `load()`, tried again after each of `delays` while it fails; the last failure is a ChunkLoadError.
 * Browsers do not keep a failed dynamic import's error (Chromium fetches the file again), so each
 * try is a real request.
 */
export async function loadChunk<T>(
  load: () => Promise<T>,
  delays: readonly number[] = CHUNK_RETRY_DELAYS_MS,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (error) {
      if (attempt >= delays.length) throw new ChunkLoadError(error);
      await pause(delays[attempt]!);
    }
  }
}
