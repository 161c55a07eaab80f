/**
 * Prism's validation proxy between a client and this server, as an integrator puts it in front of a
 * provider to check both sides against the document: a scripted member session (sign-in, every read
 * the dashboard makes, money moves with keys, a replay, refusals with their documented statuses)
 * passes with zero violations. A request that breaks the document is flagged, so the proxy checks.
 */
import { contract, procedureNames, tableInput, type ProcedureName } from '@md/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../src/modules/docs/openapi.ts';
import { createTestApp, expectLedgerSound, type TestApp } from './helpers.ts';
import { startPrism } from './prism.ts';

let t: TestApp;
let prism: Awaited<ReturnType<typeof startPrism>> | undefined;
let proxy: string;

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo', config: { qaControl: true } });
  const upstream = await t.fastify.listen({ port: 0, host: '127.0.0.1' });
  prism = await startPrism('proxy', (await t.get<OpenApiDocument>('/docs/openapi.json')).body, [upstream]);
  proxy = prism.url;
}, 90_000);
afterAll(async () => {
  prism?.stop();
  await t?.close();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
  violations: unknown[];
}

async function call(
  name: ProcedureName,
  body: Record<string, unknown>,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${proxy}${contract[name].path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const violations = response.headers.get('sl-violations');
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    violations: violations ? (JSON.parse(violations) as unknown[]) : [],
  };
}

const qa = async <T>(path: string) => (await t.get<T>(path)).body;

describe('Prism proxy over a member session', () => {
  it(
    'finds zero violations, requests and answers, over a scripted session',
    { timeout: 120_000 },
    async () => {
      const seen: { step: string; status: number; violations: unknown[] }[] = [];
      const step = async (label: string, answer: Promise<Answer>, status = 200) => {
        const { status: got, violations, body } = await answer;
        seen.push({ step: label, status: got, violations });
        expect(got, `${label}: ${JSON.stringify(body)}`).toBe(status);
        return body;
      };
      const login = await step('sign-in', call('user.login', { username: 'demo', password: 'Demo@1234' }));
      const token = login.JWT as string;

      // Every read of the dashboard that needs nothing but the token, and the paged tables' first pages.
      for (const name of procedureNames) {
        const entry = contract[name];
        if (entry.kind !== 'query' || entry.auth !== 'required') continue;
        const input =
          entry.input === tableInput ? { pageSize: 10 } : entry.input.safeParse({}).success ? {} : undefined;
        if (input) await step(name, call(name, input, token));
      }
      const month = new Date(t.services.clock.now()).toISOString().slice(0, 7);
      await step('statement', call('wallet.view_statement', { wallet: 'Deposit', month }, token));
      await step('tree', call('binary.view_binary_downline', { username: 'demo' }, token));
      await step('series', call('earning.view_daily_earnings', { days: 30 }, token));
      const history = await step('history', call('earning.view_all_earning_history', { pageSize: 5 }, token));
      await step(
        'next page by cursor',
        call('earning.view_all_earning_history', { pageSize: 5, cursor: history.Next_Cursor }, token),
      );
      const [withdrawal] = await qa<{ TransID: string; username: string }[]>('/__qa/withdrawals');
      expect(withdrawal).toBeDefined();

      // Money moves with keys, and a retry answered from the store.
      const key = { 'Idempotency-Key': 'prism-swap-1' };
      const swap = { amount: 1, from_wallet: 'ROI', to_wallet: 'Deposit' };
      await step('swap', call('wallet.transfer_wallet', swap, token, key));
      await step('swap replayed', call('wallet.transfer_wallet', swap, token, key));
      await step('purchase', call('subscription.buy_subscription_packages', { plan: 'Starter' }, token));
      await step(
        'P2P',
        call('transfer_to_user', { username: 'gonzalo_001', amount: 1, password: 'Txn@123' }, token, {
          'Idempotency-Key': 'prism-p2p-1',
        }),
      );

      // Refusals, each with a documented status and body.
      await step('wrong password', call('user.login', { username: 'demo', password: 'Wrong@1234' }), 400);
      await step('forged token', call('user.view_profile', {}, 'forged.token.value'), 401);
      await step('unknown payout', call('earning.view_payout_details', { trans_id: 'NOPE1' }, token), 404);
      await step('outside the downline', call('binary.view_path', { username: 'nobody_at_all' }, token), 404);
      await step('key reused', call('wallet.transfer_wallet', { ...swap, amount: 2 }, token, key), 422);
      await step('too much', call('wallet.transfer_wallet', { ...swap, amount: 1e9 }, token), 400);

      expect(seen.filter((s) => s.violations.length > 0)).toEqual([]);
      expect(seen.length).toBeGreaterThan(40);
      await expectLedgerSound(t);
    },
  );

  it('flags a request that breaks the document (the proxy does check)', async () => {
    const token = (await call('user.login', { username: 'demo', password: 'Demo@1234' })).body.JWT as string;
    const typo = await call('earning.view_all_earning_history', { pagesize: 5 }, token);
    expect(typo.status).toBe(400);
    expect(typo.violations).toEqual([
      expect.objectContaining({ location: ['request', 'body'], code: 'additionalProperties' }),
    ]);
  });
});
