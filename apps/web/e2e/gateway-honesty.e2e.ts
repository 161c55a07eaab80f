/**
 * An honest gateway, in the browser, in both client modes (tRPC and REST), at 1280 and 375 px.
 * A "real provider" (a plain demo-seeded stand-in, no web app, no QA) sits behind this server in
 * gateway mode. One gateway is the misconfiguration the docs once offered: PROVIDER_CAPABILITIES
 * empty and every extension routed to `mock`, where it answers for the member's shadow (funded
 * here with a Deposit no real member has). The member signs in through it and must see the
 * provider's wallets and, under them, only the documented fallback (a statement built on the
 * device that closes at the wallet's balance), never the shadow's. The positive control is a
 * gateway whose provider declares statements and answers them: the served statement is offered
 * and closes at the same balance. Servers are in-process on loopback, one set for the file.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { extensionNames, formatMoney, type RuntimeConfig } from '@md/shared';
import { buildApp, type App } from '../../server/src/app.ts';
import { freshPagePerTest, signIn } from './support.ts';

type Mode = RuntimeConfig['mode'];
type Wallets = Record<string, { Available: number }>;
interface JournalRow {
  procedure: string;
  transport: 'rest' | 'trpc';
  source: string | null;
  pending: boolean;
}

const MODES: Mode[] = ['mock', 'provider'];
/** The shadow's Deposit: an amount the provider's member has nowhere, so a leak of it is visible. */
const SHADOW_DEPOSIT = 4321.09;
/** As the statement shows an amount: at least two decimals, every one it has, in USDT. */
const statementMoney = (n: number) =>
  `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })} USDT`;

async function post<T>(base: string, path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}
const route = (gateway: string, path: string, target: string) =>
  post(gateway, '/__qa/routing', { path, target });

const started: App[] = [];
async function listen(app: App) {
  started.push(app);
  return app.fastify.listen({ port: 0, host: '127.0.0.1' });
}

let providerUrl = '';
/** Per client mode: the gateway without statements (`bare`) and the one whose provider has them (`declared`). */
const gateways = {} as Record<Mode, { bare: string; declared: string }>;

beforeAll(async () => {
  providerUrl = await listen(
    await buildApp({
      databasePath: ':memory:',
      seed: 'demo',
      jwtSecret: 'gateway-honesty-provider',
      webDist: resolve(import.meta.dirname, 'no-web-app'),
      demoHint: false,
      config: { qaControl: false, rateLimits: false },
    }),
  );
  const gateway = (clientMode: Mode, capabilities: string[]) =>
    buildApp({
      databasePath: ':memory:',
      seed: 'empty',
      clientMode,
      jwtSecret: `gateway-honesty-${clientMode}-${capabilities.length}`,
      webDist: resolve(import.meta.dirname, '../dist'),
      worlds: false,
      config: { qaControl: true, rateLimits: false },
      provider: { url: providerUrl, capabilities },
    }).then(listen);
  for (const mode of MODES) {
    const bare = await gateway(mode, []);
    for (const name of extensionNames) await route(bare, name, 'mock');
    // Fund the demo member's shadow: a deposit window at the stand-in, paid through QA.
    const { JWT } = await post<{ JWT: string }>(bare, '/user/login', {
      username: 'demo',
      password: 'Demo@1234',
    });
    await route(bare, 'deposit.make_payment', 'mock');
    const window = await post<{ Success: { TransID: string } }>(
      bare,
      '/deposit/make_payment',
      { amount_usdt: SHADOW_DEPOSIT, currency: 'USDT.BEP20', gateway: 'nowpayments' },
      JWT,
    );
    await post(bare, `/__qa/deposits/${window.Success.TransID}/pay`, {});
    await route(bare, 'deposit.make_payment', 'provider');
    gateways[mode] = { bare, declared: await gateway(mode, ['statements']) };
  }
});

afterAll(async () => {
  await Promise.allSettled(started.map((app) => app.fastify.close()));
});

const configOf = async (url: string) => (await (await fetch(`${url}/config.json`)).json()) as RuntimeConfig;
const clearJournal = (url: string) => fetch(`${url}/__qa/journal`, { method: 'DELETE' });
/** The contract calls the gateway answered (one still in flight, a poll, has no answerer yet). */
const journal = async (url: string) =>
  ((await (await fetch(`${url}/__qa/journal?limit=500`)).json()) as JournalRow[]).filter(
    (row) => !row.pending,
  );

describe.each(MODES)('an honest gateway in %s mode', (mode) => {
  let page!: Page;
  freshPagePerTest(null, { width: 1280, height: 900 }, (fresh) => (page = fresh));

  const token = () => page.evaluate(() => localStorage.getItem('jwt') ?? '');
  /** The member's wallets as the provider itself keeps them. */
  const providerWallets = async () =>
    (await post<{ Success: Wallets }>(providerUrl, '/wallet/view_all_wallets_details', {}, await token()))
      .Success;

  /** Signs the provider's demo in through `gateway` and opens Wallets: every card is the provider's. */
  async function openWallets(gateway: string) {
    await signIn(page, { mode, url: gateway }, 'demo', 'Demo@1234');
    await page.goto(`${gateway}/dashboard/wallets`);
    const wallets = await providerWallets();
    expect(wallets.Deposit!.Available).toBeGreaterThan(0);
    for (const [name, wallet] of Object.entries(wallets))
      await expect
        .poll(() => page.getByTestId(`wallet-available-${name}`).innerText(), { message: name })
        .toContain(formatMoney(wallet.Available));
    return wallets;
  }

  /** The Deposit statement (the section's default wallet) as shown: its closing balance and whether it says it was built on the device. */
  async function shownStatement() {
    const statement = page.getByTestId('statement');
    await statement.waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Wallet', { exact: true }).inputValue()).toBe('Deposit');
    const closing = await statement.getByRole('row').filter({ hasText: 'Closing balance' }).innerText();
    return { closing, onDevice: await page.getByTestId('statement-on-device').count() };
  }

  async function expectNoShadowFigure() {
    const text = await page.locator('body').innerText();
    expect(text).not.toContain(formatMoney(SHADOW_DEPOSIT).replace('$', ''));
    expect(text).not.toContain(String(SHADOW_DEPOSIT));
  }

  it('in front of a provider without statements: the provider’s wallets, the fallback statement, nothing of the shadow', async () => {
    const gateway = gateways[mode].bare;
    const config = await configOf(gateway);
    expect(config.mode).toBe(mode);
    // No extension is advertised: every one is answered by the shadow, and the provider has none.
    expect(config.capabilities).toEqual(['qa']);
    // What the gateway would answer if the app asked: the shadow's statement, closing at its own Deposit.
    const { JWT } = await post<{ JWT: string }>(gateway, '/user/login', {
      username: 'demo',
      password: 'Demo@1234',
    });
    const month = new Date().toISOString().slice(0, 7);
    const shadow = await post<{ Success: { Closing: number } }>(
      gateway,
      '/wallet/view_statement',
      { wallet: 'Deposit', month },
      JWT,
    );
    expect(shadow.Success.Closing).toBe(SHADOW_DEPOSIT);
    await clearJournal(gateway);

    const wallets = await openWallets(gateway);
    expect(wallets.Deposit!.Available).not.toBe(SHADOW_DEPOSIT);
    expect(await page.getByLabel('Month', { exact: true }).inputValue()).toBe(month);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      const statement = await shownStatement();
      expect(await page.getByTestId('wallet-available-Deposit').innerText()).toContain(
        formatMoney(wallets.Deposit!.Available),
      );
      // No statement that contradicts the wallet: the shadow's would close at its own Deposit.
      expect(statement.closing, `at ${width} px`).toContain(statementMoney(wallets.Deposit!.Available));
      await expectNoShadowFigure();
      // The documented fallback: built on the device from the provider's history and balance, and saying so.
      expect(statement.onDevice, `at ${width} px`).toBe(1);
    }

    // Everything the page asked went to the provider, over the mode's transport: the shadow was never asked.
    const calls = await journal(gateway);
    expect(calls.length).toBeGreaterThan(0);
    expect(
      calls.filter((row) => row.source !== 'provider').map((row) => `${row.procedure} ${row.source}`),
    ).toEqual([]);
    expect(calls.map((row) => row.procedure)).not.toContain('wallet.view_statement');
    expect(new Set(calls.map((row) => row.transport))).toEqual(new Set([mode === 'mock' ? 'trpc' : 'rest']));
  });

  it('with statements declared and answered by the provider: the served statement, closing at the wallet’s balance', async () => {
    const gateway = gateways[mode].declared;
    const config = await configOf(gateway);
    expect(config.mode).toBe(mode);
    expect(config.capabilities).toEqual(['statements', 'qa']);
    await clearJournal(gateway);

    const wallets = await openWallets(gateway);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      const statement = await shownStatement();
      expect(await page.getByTestId('wallet-available-Deposit').innerText()).toContain(
        formatMoney(wallets.Deposit!.Available),
      );
      expect(statement.onDevice, `at ${width} px`).toBe(0);
      expect(statement.closing, `at ${width} px`).toContain(statementMoney(wallets.Deposit!.Available));
      await expectNoShadowFigure();
    }
    const calls = await journal(gateway);
    expect(
      calls.filter((row) => row.procedure === 'wallet.view_statement').map((row) => row.source),
    ).toContain('provider');
    expect(calls.filter((row) => row.source !== 'provider')).toEqual([]);
  });
});
