/**
 * A money move whose answer is lost (lib/money-move.ts), through the real links of both client
 * modes: with keys, every attempt carries the same Idempotency-Key and a lost answer or a 409 is
 * sent again until the server says what happened; a refusal is never sent again; without keys a
 * lost answer is never sent again and the outcome is unknown.
 */
import { describe, expect, it, vi } from 'vitest';
import { createTRPCClient } from '@trpc/client';
import { IDEMPOTENCY_KEY_HEADER, parseRuntimeConfig, type ContractRouter as AppRouter } from '@md/shared';
import { keyedContext, RESEND_DELAYS_MS, sendMoneyMove } from './money-move.ts';
import { createLinks } from './trpc.ts';

type Step = 'network-failure' | { status: number; body: unknown };

const SWAPPED = { Success: 'Swapped 1.00 USDT from Direct to Deposit' };

function clientFor(mode: 'mock' | 'provider', steps: Step[]) {
  const config = parseRuntimeConfig({
    mode,
    apiBaseUrl: 'https://api.example',
    trpcUrl: 'https://mock.example/trpc',
  });
  const calls: { url: string; key: string | null }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), key: new Headers(init?.headers).get(IDEMPOTENCY_KEY_HEADER) });
    const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
    if (step === 'network-failure') throw new TypeError('Failed to fetch');
    // Mock mode's keyed call goes alone (not batched): tRPC's single answer, or its error shape.
    const body =
      mode === 'provider'
        ? step.body
        : step.status < 300
          ? { result: { data: step.body } }
          : {
              error: {
                message: (step.body as { Error: string }).Error,
                code: -32600,
                data: { httpStatus: step.status, path: 'wallet.transfer_wallet' },
              },
            };
    return new Response(JSON.stringify(body), {
      status: step.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  const client = createTRPCClient<AppRouter>({
    links: createLinks(config, {
      getToken: () => 'T0K',
      onUnauthorized: vi.fn(),
      fetch: fetchMock as typeof fetch,
    }),
  });
  return { client, calls };
}

const swapWith = (client: ReturnType<typeof clientFor>['client']) => (key: string | undefined) =>
  client['wallet.transfer_wallet'].mutate(
    { amount: 1, from_wallet: 'Direct', to_wallet: 'Deposit' },
    keyedContext(key),
  );

const noWait = { sleep: () => Promise.resolve(), newKey: () => 'key-1' };

describe.each(['mock', 'provider'] as const)('%s mode', (mode) => {
  it('a lost answer is sent again with the same key until the server answers: done, recovered', async () => {
    const { client, calls } = clientFor(mode, [
      'network-failure',
      'network-failure',
      { status: 200, body: SWAPPED },
    ]);
    const checking = vi.fn();
    const outcome = await sendMoneyMove(swapWith(client), { keyed: true, onChecking: checking, ...noWait });
    expect(outcome).toEqual({ status: 'done', answer: SWAPPED, recovered: true });
    expect(calls.map((c) => c.key)).toEqual(['key-1', 'key-1', 'key-1']);
    expect(calls[0]!.url).toMatch(/wallet[./]transfer_wallet/);
    expect(checking).toHaveBeenCalledTimes(1);
  });

  it('a 409 (the first call still running) is waited out with the same key', async () => {
    const { client, calls } = clientFor(mode, [
      'network-failure',
      { status: 409, body: { Error: 'still being processed' } },
      { status: 200, body: SWAPPED },
    ]);
    const outcome = await sendMoneyMove(swapWith(client), { keyed: true, ...noWait });
    expect(outcome.status).toBe('done');
    expect(calls).toHaveLength(3);
  });

  it('a refusal learned after a lost answer is the truth: refused, not sent again', async () => {
    const { client, calls } = clientFor(mode, [
      'network-failure',
      { status: 400, body: { Error: 'Insufficient balance' } },
    ]);
    const outcome = await sendMoneyMove(swapWith(client), { keyed: true, ...noWait });
    expect(outcome).toMatchObject({ status: 'refused', recovered: true });
    expect(calls).toHaveLength(2);
  });

  it('a refusal at once is sent once', async () => {
    const { client, calls } = clientFor(mode, [{ status: 400, body: { Error: 'Insufficient balance' } }]);
    const outcome = await sendMoneyMove(swapWith(client), { keyed: true, ...noWait });
    expect(outcome).toMatchObject({ status: 'refused', recovered: false });
    expect(calls).toHaveLength(1);
  });

  it('answers that stay lost end, after a bounded number of resends, as unknown', async () => {
    const { client, calls } = clientFor(mode, ['network-failure']);
    const slept: number[] = [];
    const outcome = await sendMoneyMove(swapWith(client), {
      keyed: true,
      newKey: () => 'key-1',
      sleep: async (ms) => void slept.push(ms),
    });
    expect(outcome.status).toBe('unknown');
    expect(calls).toHaveLength(1 + RESEND_DELAYS_MS.length);
    expect(slept).toEqual(RESEND_DELAYS_MS);
  });

  it('without keys (a provider without the capability) a lost answer is never sent again', async () => {
    const { client, calls } = clientFor(mode, ['network-failure', { status: 200, body: SWAPPED }]);
    const outcome = await sendMoneyMove(swapWith(client), { keyed: false, ...noWait });
    expect(outcome.status).toBe('unknown');
    expect(calls).toEqual([expect.objectContaining({ key: null })]);
  });
});

it('each confirmed move has a key of its own', async () => {
  const keys = new Set<string | undefined>();
  for (let i = 0; i < 3; i++) await sendMoneyMove(async (key) => void keys.add(key), { keyed: true });
  expect(keys.size).toBe(3);
  expect([...keys].every((key) => typeof key === 'string' && key.length >= 32)).toBe(true);
});
