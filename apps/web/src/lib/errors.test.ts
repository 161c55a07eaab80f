/**
 * What a failed call shows (spec §8), read through the real links of both client modes: the
 * server's words when it gave some, the call's fallback when it answered without them (no Error
 * text, an empty, broken or foreign body), the no-answer message when the connection failed.
 */
import { describe, expect, it, vi } from 'vitest';
import { createTRPCClient } from '@trpc/client';
import { MSG, parseRuntimeConfig, type ContractRouter as AppRouter } from '@md/shared';
import { errorMessage, failureKind, type FailureKind } from './errors.ts';
import { createLinks } from './trpc.ts';

type Answer = { status: number; body: string } | 'network-failure';

function clientFor(mode: 'mock' | 'provider', answer: Answer) {
  const config = parseRuntimeConfig({
    mode,
    apiBaseUrl: 'https://api.example',
    trpcUrl: 'https://mock.example/trpc',
  });
  const fetchMock = vi.fn(async () => {
    if (answer === 'network-failure') throw new TypeError('Failed to fetch');
    return new Response(answer.body, {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  const onUnauthorized = vi.fn();
  const client = createTRPCClient<AppRouter>({
    links: createLinks(config, { getToken: () => 'T0K', onUnauthorized, fetch: fetchMock as typeof fetch }),
  });
  return { client, onUnauthorized };
}

async function failureOf(mode: 'mock' | 'provider', answer: Answer) {
  const { client } = clientFor(mode, answer);
  return client['rank.current_rank'].query({}).then(
    () => {
      throw new Error('the call should have failed');
    },
    (error: unknown) => error,
  );
}

/** One tRPC batch item (mock mode answers a batch of one). */
const trpcError = (message: string, httpStatus: number) =>
  JSON.stringify([
    {
      error: {
        message,
        code: -32603,
        data: { code: 'INTERNAL_SERVER_ERROR', httpStatus, path: 'rank.current_rank' },
      },
    },
  ]);
const trpcData = (data: unknown) => JSON.stringify([{ result: { type: 'data', data } }]);

const CASES: { what: string; mock: Answer; provider: Answer; kind: FailureKind; shows: string }[] = [
  {
    what: "the server's Error",
    mock: { status: 500, body: trpcError('Boom', 500) },
    provider: { status: 500, body: '{"Error":"Boom"}' },
    kind: 'server',
    shows: 'Boom',
  },
  {
    what: 'an Error answered with HTTP 200',
    mock: { status: 200, body: trpcData({ Error: 'Session Expired' }) },
    provider: { status: 200, body: '{"Error":"Session Expired"}' },
    kind: 'server',
    shows: MSG.sessionExpired,
  },
  {
    what: 'a server failure worded only by its status line',
    mock: { status: 500, body: trpcError('Internal Server Error', 500) },
    provider: { status: 500, body: '{"Error":"Internal Server Error"}' },
    kind: 'unreadable',
    shows: MSG.failedCurrentRank,
  },
  {
    what: 'an empty Error',
    mock: { status: 500, body: trpcError('', 500) },
    provider: { status: 500, body: '{"Error":""}' },
    kind: 'unreadable',
    shows: MSG.failedCurrentRank,
  },
  {
    what: 'an error status with no Error',
    mock: { status: 200, body: trpcData({ Error: null }) },
    provider: { status: 503, body: '{}' },
    kind: 'unreadable',
    shows: MSG.failedCurrentRank,
  },
  {
    what: 'an empty body',
    mock: { status: 200, body: '' },
    provider: { status: 200, body: '' },
    kind: 'unreadable',
    shows: MSG.failedCurrentRank,
  },
  {
    what: 'a broken body',
    mock: { status: 200, body: '{"Success": [{"Rank": "Go' },
    provider: { status: 200, body: '{"Success": {"Rank": "Go' },
    kind: 'unreadable',
    shows: MSG.failedCurrentRank,
  },
  {
    what: "a proxy's HTML page",
    mock: { status: 502, body: '<html>Bad gateway</html>' },
    provider: { status: 502, body: '<html>Bad gateway</html>' },
    kind: 'unreadable',
    shows: MSG.failedCurrentRank,
  },
  {
    what: 'JSON that is no tRPC answer',
    mock: { status: 200, body: '{"hello":1}' },
    provider: { status: 200, body: 'null' },
    kind: 'unreadable',
    shows: MSG.failedCurrentRank,
  },
  {
    what: 'no answer at all',
    mock: 'network-failure',
    provider: 'network-failure',
    kind: 'no-answer',
    shows: 'no answer',
  },
];

describe.each(['mock', 'provider'] as const)('failures in %s mode', (mode) => {
  it.each(CASES.filter((c) => !(mode === 'provider' && c.what === 'JSON that is no tRPC answer')))(
    '$what',
    async (c) => {
      const error = await failureOf(mode, c[mode]);
      expect(failureKind(error)).toBe(c.kind);
      expect(errorMessage(error, MSG.failedCurrentRank, 'no answer')).toBe(c.shows);
    },
  );

  it('a 401 without words still ends the session', async () => {
    const { client, onUnauthorized } = clientFor(
      mode,
      mode === 'mock' ? { status: 401, body: trpcError('', 401) } : { status: 401, body: '' },
    );
    const error = await client['rank.current_rank'].query({}).catch((e: unknown) => e);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(errorMessage(error, MSG.failedCurrentRank)).toBe(MSG.failedCurrentRank);
  });
});

describe('errorMessage outside calls', () => {
  it("shows the app's own messages, never the language's", () => {
    expect(errorMessage(new Error(MSG.profileNotFound), MSG.failedGetProfile)).toBe(MSG.profileNotFound);
    expect(
      errorMessage(new TypeError("Cannot read properties of null (reading '0')"), MSG.failedGetProfile),
    ).toBe(MSG.failedGetProfile);
    expect(errorMessage(new TypeError('Failed to fetch'), MSG.failedGetProfile, 'offline')).toBe('offline');
    expect(errorMessage('a string', MSG.failedGetProfile)).toBe(MSG.failedGetProfile);
    expect(errorMessage(new Error(MSG.requestTimedOut), MSG.failedGetProfile)).toBe(MSG.requestTimedOut);
  });
});
