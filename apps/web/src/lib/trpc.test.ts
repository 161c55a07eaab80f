/**
 * Mock mode's batching: one procedure's bad answer fails that call only. A cut-off
 * notifications answer used to fail the profile riding the same batch; a hung table call used to
 * time out the package list beside it, which toasts (table calls themselves fail silently, §8).
 */
import { describe, expect, it } from 'vitest';
import { MSG } from '@md/shared';
import { createAppTrpcClient } from './trpc.ts';
import { testConfig } from '@/testing/render.tsx';

const CUT_OFF = '{"Success": [{"Username": "demo", "Amount": 12.5';
const answers: Record<string, unknown> = {
  'user.view_profile': { Success: [{ Username: 'demo' }] },
  'table.view_subscription': { Success: [{ Package: 'Starter' }] },
  'notification.view_notification': { Success: [] },
  'subscription.subscription_transaction': { Success: [] },
};

interface Request {
  procedures: string[];
  batch: boolean;
}

/** A /trpc stand-in: `broken` procedures answer cut-off JSON (the whole body, as a proxy would), `hung` ones never answer. */
function server({ broken = [] as string[], hung = [] as string[] }) {
  const requests: Request[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = new URL(String(input), 'http://test');
    const procedures = decodeURIComponent(url.pathname.replace('/trpc/', '')).split(',');
    const batch = url.searchParams.get('batch') === '1';
    requests.push({ procedures, batch });
    if (procedures.some((p) => hung.includes(p)))
      return new Promise((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    const headers = { 'content-type': 'application/json' };
    if (procedures.some((p) => broken.includes(p)))
      return Promise.resolve(new Response(CUT_OFF, { status: 200, headers }));
    const results = procedures.map((p) => ({ result: { data: answers[p] } }));
    return Promise.resolve(
      new Response(JSON.stringify(batch ? results : results[0]), { status: 200, headers }),
    );
  };
  return { fetch, requests };
}

const clientWith = (fetch: typeof globalThis.fetch, requestTimeoutMs = 20_000) =>
  createAppTrpcClient(
    { ...testConfig, trpcUrl: '/trpc', requestTimeoutMs },
    { getToken: () => 'jwt-1', onUnauthorized: () => undefined, fetch },
  );

describe('mock mode batching', () => {
  it('a cut-off notifications answer fails the notifications only, not the profile of the same batch', async () => {
    const { fetch, requests } = server({ broken: ['notification.view_notification'] });
    const client = clientWith(fetch);
    const [profile, notifications] = await Promise.allSettled([
      client['user.view_profile'].query({}),
      client['notification.view_notification'].query({}),
    ]);
    expect(requests[0]).toEqual({
      procedures: ['user.view_profile', 'notification.view_notification'],
      batch: true,
    });
    expect(profile).toEqual({ status: 'fulfilled', value: answers['user.view_profile'] });
    expect(notifications.status).toBe('rejected');
    // The batch, then each query alone once: nothing more.
    expect(requests).toHaveLength(3);
  });

  it('healthy reads of one tick still go as one request', async () => {
    const { fetch, requests } = server({});
    const client = clientWith(fetch);
    await Promise.all([
      client['user.view_profile'].query({}),
      client['notification.view_notification'].query({}),
      client['table.view_subscription'].query({}),
    ]);
    expect(requests).toEqual([
      {
        procedures: ['user.view_profile', 'notification.view_notification', 'table.view_subscription'],
        batch: true,
      },
    ]);
  });

  it('a hung table call times out alone: the package list beside it answers', async () => {
    const { fetch, requests } = server({ hung: ['subscription.subscription_transaction'] });
    const client = clientWith(fetch, 300);
    const [packages, rows] = await Promise.allSettled([
      client['table.view_subscription'].query({}),
      client['subscription.subscription_transaction'].query({ pageNo: 1, pageSize: 10 }),
    ]);
    expect(packages).toEqual({ status: 'fulfilled', value: answers['table.view_subscription'] });
    expect(rows.status === 'rejected' && (rows.reason as Error).message).toBe(MSG.requestTimedOut);
    // A timeout is not retried: the table call was sent once.
    expect(
      requests.filter((r) => r.procedures.includes('subscription.subscription_transaction')),
    ).toHaveLength(1);
  });

  it('a cut-off answer to a mutation is not sent again', async () => {
    const { fetch, requests } = server({ broken: ['subscription.buy_subscription_packages'] });
    const client = clientWith(fetch);
    await expect(
      client['subscription.buy_subscription_packages'].mutate({ package: 'Starter' } as never),
    ).rejects.toThrow();
    expect(requests).toHaveLength(1);
  });
});
