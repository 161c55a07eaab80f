import { describe, expect, it, vi } from 'vitest';
import { TRPCClientError, createTRPCClient } from '@trpc/client';
import { parseRuntimeConfig } from '@md/shared';
import { httpStatusOf } from './errors.ts';
import { createLinks } from './trpc.ts';
import type { ContractRouter as AppRouter } from '@md/shared';

const config = parseRuntimeConfig({
  mode: 'provider',
  apiBaseUrl: 'https://api.example',
  depositBaseUrl: 'https://pay.example',
});

function setup(
  respond: (url: string, init: RequestInit) => { status: number; body: unknown },
  token: string | null = 'T0K',
) {
  const requests: { url: string; init: RequestInit; body: Record<string, unknown> }[] = [];
  const fetchMock = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const request = {
      url: String(url),
      init: init ?? {},
      body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>,
    };
    requests.push(request);
    const { status, body } = respond(request.url, request.init);
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  const onUnauthorized = vi.fn();
  const client = createTRPCClient<AppRouter>({
    links: createLinks(config, { getToken: () => token, onUnauthorized, fetch: fetchMock as typeof fetch }),
  });
  return { client, requests, onUnauthorized };
}

describe('providerLink', () => {
  it('POSTs to the provider path and passes the whole success envelope through', async () => {
    const { client, requests } = setup(
      () => ({ status: 200, body: { Success: 'Login successful!', JWT: 'abc' } }),
      null,
    );
    const result = await client['user.login'].mutate({ username: 'demo', password: 'Demo@1234' });
    expect(result).toEqual({ Success: 'Login successful!', JWT: 'abc' });
    expect(requests[0]!.url).toBe('https://api.example/user/login');
    expect(requests[0]!.init.method).toBe('POST');
    expect(requests[0]!.body).toEqual({ username: 'demo', password: 'Demo@1234' });
    expect((requests[0]!.init.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('sends the token as a bearer header and in the body field the contract names', async () => {
    const { client, requests } = setup(() => ({ status: 200, body: { Success: 3 } }));
    await client['notification.total_view_notification'].query({});
    expect((requests[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer T0K');
    expect(requests[0]!.body).toEqual({ token: 'T0K' });
    await client['user.view_profile'].query({});
    expect(requests[1]!.body).toEqual({ jwt: 'T0K' });
  });

  it('uses the deposit host for deposit endpoints', async () => {
    const { client, requests } = setup(() => ({
      status: 200,
      body: { Success: { Amount: 10, QR_Code: 'x', Address: '0x1', TransID: 't' } },
    }));
    await client['deposit.make_payment'].mutate({ amount_usdt: 10, currency: 'USDT.BEP20' });
    expect(requests[0]!.url).toBe('https://pay.example/deposit/make_payment');
  });

  it('turns {Error} into a TRPCClientError with the message and HTTP status', async () => {
    const { client, onUnauthorized } = setup(
      () => ({ status: 400, body: { Error: 'Invalid username or password' } }),
      null,
    );
    const error = await client['user.login']
      .mutate({ username: 'x', password: 'y' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as Error).message).toBe('Invalid username or password');
    expect(httpStatusOf(error)).toBe(400);
    expect((error as TRPCClientError<AppRouter>).shape?.data.httpStatus).toBe(400);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('treats an Error body with HTTP 200 as a failure, and reads lowercase error or message', async () => {
    const bodies = [{ Error: 'Bad thing' }, { error: 'lower case' }];
    let i = 0;
    const { client } = setup(() => ({ status: 200, body: bodies[i++] }));
    await expect(client['user.view_profile'].query({})).rejects.toThrow('Bad thing');
    await expect(client['user.view_profile'].query({ jwt: 'again' })).rejects.toThrow('lower case');
    const failing = setup(() => ({ status: 500, body: { message: 'Server exploded' } }));
    const error = await failing.client['user.view_profile'].query({}).catch((e: unknown) => e);
    expect((error as Error).message).toBe('Server exploded');
    expect(httpStatusOf(error)).toBe(500);
  });

  it('maps HTTP 401 on a call made with a token to the session end', async () => {
    const { client, onUnauthorized } = setup(() => ({ status: 401, body: { Error: 'Session Expired' } }));
    const error = await client['user.view_profile'].query({}).catch((e: unknown) => e);
    expect((error as Error).message).toBe('Session Expired');
    expect(httpStatusOf(error)).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});
