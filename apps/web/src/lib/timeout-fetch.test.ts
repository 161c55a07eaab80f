import { describe, expect, it } from 'vitest';
import { TRPCClientError, createTRPCClient } from '@trpc/client';
import { MSG, parseRuntimeConfig, type ContractRouter as AppRouter } from '@md/shared';
import { fetchWithTimeout, RequestTimeoutError } from './timeout-fetch.ts';
import { createLinks } from './trpc.ts';

/** A server that never answers: the promise settles only when the request is aborted. */
const hangingFetch: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () =>
      reject(init.signal?.reason ?? new DOMException('aborted', 'AbortError')),
    );
  });

describe('fetchWithTimeout', () => {
  it('ends an unanswered request with the timeout message', async () => {
    await expect(fetchWithTimeout(hangingFetch, 30)('https://x.example/')).rejects.toThrow(
      new RequestTimeoutError(),
    );
  });

  it("leaves the caller's own abort alone and passes answers through", async () => {
    const controller = new AbortController();
    const pending = fetchWithTimeout(hangingFetch, 60_000)('https://x.example/', {
      signal: controller.signal,
    });
    controller.abort();
    await expect(pending).rejects.not.toBeInstanceOf(RequestTimeoutError);
    const answered = await fetchWithTimeout(
      async () => new Response('{"Success":1}'),
      30,
    )('https://x.example/');
    expect(await answered.json()).toEqual({ Success: 1 });
  });

  it.each(['mock', 'provider'] as const)(
    'gives the %s-mode client a TRPCClientError with the message',
    async (mode) => {
      const config = parseRuntimeConfig({
        mode,
        apiBaseUrl: 'https://api.example',
        trpcUrl: 'https://mock.example/trpc',
        requestTimeoutMs: 30,
      });
      const client = createTRPCClient<AppRouter>({
        links: createLinks(config, { getToken: () => 'T0K', onUnauthorized: () => {}, fetch: hangingFetch }),
      });
      const error = await client['user.view_profile'].query({}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCClientError);
      expect((error as Error).message).toBe(MSG.requestTimedOut);
    },
  );
});
