/**
 * fetch with a deadline, for both client modes: a server that never answers (or a dropped
 * connection that never closes) ends in an error carrying MSG.requestTimedOut instead of a
 * spinner forever. The caller's own abort (tRPC cancelling a query) still wins.
 */
import { MSG } from '@md/shared';

export class RequestTimeoutError extends Error {
  constructor() {
    super(MSG.requestTimedOut);
    this.name = 'RequestTimeoutError';
  }
}

export function fetchWithTimeout(fetchImpl: typeof fetch, timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      return await fetchImpl(input, { ...init, signal });
    } catch (error) {
      if (deadline.aborted && !init?.signal?.aborted) throw new RequestTimeoutError();
      throw error;
    }
  };
}
