/**
 * An honest gateway: in front of a real provider, /config.json advertises an extension only while
 * every endpoint of it is answered by the provider (or a recording of it) and the operator said the
 * provider has it (PROVIDER_CAPABILITIES). A mock-routed extension would describe the member's
 * shadow (an empty ledger), so the web app keeps the spec's fallback instead: a member never sees a
 * statement closing at 0 under a funded wallet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURSOR_PAGING_CAPABILITY, IDEMPOTENCY_CAPABILITY } from '@md/shared';
import { buildApp, type App, type BuildOptions } from '../src/app.ts';
import { CONFIG_MESSAGES, startConfig } from '../src/config.ts';
import { manualClock } from '../src/core/clock.ts';
import { STANDIN_CAPABILITIES } from '../src/modules/gateway/capabilities.ts';

const started: App[] = [];
async function start(options: BuildOptions): Promise<{ app: App; url: string }> {
  const app = await buildApp({ databasePath: ':memory:', clock: manualClock(), ...options });
  started.push(app);
  return { app, url: await app.fastify.listen({ port: 0, host: '127.0.0.1' }) };
}
afterAll(async () => {
  await Promise.allSettled(started.map((app) => app.fastify.close()));
});

const capabilitiesOf = async (url: string) =>
  ((await (await fetch(`${url}/config.json`)).json()) as { capabilities: string[] }).capabilities;
const route = (url: string, path: string, target: string) =>
  fetch(`${url}/__qa/routing`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path, target }),
  });

let provider: { app: App; url: string };

beforeAll(async () => {
  provider = await start({ seed: 'demo', jwtSecret: 'provider-secret' });
});

describe('capabilities in front of a provider', () => {
  it('a stand-in without a provider advertises every extension it answers', async () => {
    const standin = await start({ seed: 'empty', config: { qaControl: true } });
    expect(await capabilitiesOf(standin.url)).toEqual([...STANDIN_CAPABILITIES, 'qa']);
  });

  it('a provider that declares none: no extension, no idempotency keys, no cursors; the QA panel stays', async () => {
    const gateway = await start({
      seed: 'empty',
      config: { qaControl: true },
      provider: { url: provider.url },
    });
    expect(await capabilitiesOf(gateway.url)).toEqual(['qa']);
    // Routed to the stand-in, an extension would answer for the shadow member: still not advertised.
    expect((await route(gateway.url, '/wallet/view_statement', 'mock')).status).toBe(200);
    expect(await capabilitiesOf(gateway.url)).toEqual(['qa']);
  });

  it('a provider that declares statements: advertised while the provider answers them, not once routed to the stand-in', async () => {
    const gateway = await start({
      seed: 'empty',
      config: { qaControl: true },
      provider: {
        url: provider.url,
        capabilities: ['statements', IDEMPOTENCY_CAPABILITY, CURSOR_PAGING_CAPABILITY],
      },
    });
    expect(await capabilitiesOf(gateway.url)).toEqual([
      'statements',
      IDEMPOTENCY_CAPABILITY,
      CURSOR_PAGING_CAPABILITY,
      'qa',
    ]);
    await route(gateway.url, '/wallet/view_statement', 'mock');
    // One money move answered by the shadow is enough to take idempotency keys away.
    await route(gateway.url, '/wallet/transfer_wallet', 'mock');
    expect(await capabilitiesOf(gateway.url)).toEqual([CURSOR_PAGING_CAPABILITY, 'qa']);
    await route(gateway.url, '*', 'provider');
    expect(await capabilitiesOf(gateway.url)).toContain('statements');
  });

  it('what the member then sees: the provider’s wallet, and no statement of the shadow', async () => {
    const gateway = await start({
      seed: 'empty',
      config: { qaControl: true },
      provider: { url: provider.url },
    });
    await route(gateway.url, '/wallet/view_statement', 'mock');
    const login = await fetch(`${gateway.url}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'Demo@1234' }),
    });
    const { JWT } = (await login.json()) as { JWT: string };
    const call = async (path: string, body: unknown) =>
      (await fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${JWT}` },
        body: JSON.stringify(body),
      }).then((r) => r.json())) as { Success: Record<string, unknown> };
    const wallets = (await call('/wallet/view_all_wallets_details', {})) as unknown as {
      Success: Record<string, { Available: number }>;
    };
    const funded = Object.values(wallets.Success).reduce((sum, wallet) => sum + wallet.Available, 0);
    expect(funded).toBeGreaterThan(0);
    // The shadow's statement would close at 0 under that wallet: the capability is not there, so
    // the web app (statement-data.ts) never asks for it.
    const month = new Date(provider.app.services.clock.now()).toISOString().slice(0, 7);
    const shadow = await call('/wallet/view_statement', { wallet: 'Deposit', month });
    expect(shadow.Success.Closing).toBe(0);
    expect(await capabilitiesOf(gateway.url)).not.toContain('statements');
  });

  it('PROVIDER_CAPABILITIES is read, checked and needs PROVIDER_URL', () => {
    const base = { PROVIDER_URL: 'https://api.provider.example', QA_CONTROL: 'off' };
    expect(
      startConfig({ ...base, PROVIDER_CAPABILITIES: ' statements, sessions ,' }).build.provider,
    ).toMatchObject({
      capabilities: ['statements', 'sessions'],
    });
    expect(() => startConfig({ ...base, PROVIDER_CAPABILITIES: 'statements,teleport' })).toThrow(
      CONFIG_MESSAGES.providerCapabilities('teleport'),
    );
    expect(() => startConfig({ PROVIDER_CAPABILITIES: 'statements' })).toThrow(
      CONFIG_MESSAGES.providerCapabilitiesAlone,
    );
  });
});
