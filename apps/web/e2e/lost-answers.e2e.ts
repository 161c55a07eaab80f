/**
 * Money moves whose answer is lost (lib/money-move.ts), in both client modes on a phone: the call
 * reaches the server and is answered, but the browser never gets the answer (the route fetched,
 * then aborted). The app sends it again with the same Idempotency-Key, the server answers from its
 * store, and the member is told the move went through, within 15 s; the ledger shows one move.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { amountToMicros, type ProcedureName, contract } from '@md/shared';
import { api, expectToast, freshPagePerTest, signInWithToken, testGate } from './support.ts';

/** The toast shown while a lost answer is being checked (lib/money-move.ts MONEY_MOVE_MESSAGES.checking). */
const CHECKING = "We couldn't confirm your";

const servers = inject('e2eServers');
type Wallets = Record<string, { Available: number }>;

/**
 * The first call of `procedure` reaches the server and is answered there, and the browser gets a
 * reset connection instead; later calls go through. Answers how many calls were seen.
 *
 * The resend waits at `resend` (support.ts, testGate) until the test has seen that the page is checking.
 */
async function loseFirstAnswer(page: Page, procedure: ProcedureName, resend: ReturnType<typeof testGate>) {
  const path = contract[procedure].path;
  let calls = 0;
  await page.route(
    (url) => url.pathname === path || url.pathname === `/trpc/${procedure}`,
    async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      calls += 1;
      if (calls === 2) await resend.passed();
      if (calls > 1) return route.continue();
      await route.fetch();
      await route.abort('connectionreset');
    },
  );
  return () => calls;
}

interface Move {
  name: string;
  procedure: ProcedureName;
  page: string;
  act: (page: Page) => Promise<void>;
  /** The toast that tells the truth. */
  told: string;
  /** Each wallet's change, in USDT, after exactly one move. */
  moves: Record<string, number>;
}

const MOVES: Move[] = [
  {
    name: 'a purchase',
    procedure: 'subscription.buy_subscription_packages',
    page: '/dashboard/package',
    act: async (page) => {
      await page.getByTestId('package-card-Starter').click();
      await page.getByRole('button', { name: 'Select Starter' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm Purchase' }).click();
    },
    told: 'Your purchase went through. Deposit Wallet: $',
    moves: { Deposit: -100 },
  },
  {
    name: 'a swap',
    procedure: 'wallet.transfer_wallet',
    page: '/dashboard/wallets',
    act: async (page) => {
      await page.getByRole('tab', { name: 'Wallet Swap' }).click();
      await page.getByLabel('From wallet').selectOption('Direct');
      await page.getByLabel('To wallet').selectOption('Deposit');
      await page.getByLabel('Amount', { exact: true }).fill('1');
      await page.getByRole('button', { name: 'Swap', exact: true }).click();
    },
    told: 'Your swap went through. Direct Wallet: $',
    moves: { Direct: -1, Deposit: 1 },
  },
  {
    name: 'a P2P transfer',
    procedure: 'transfer_to_user',
    page: '/dashboard/p2pTransfer',
    act: async (page) => {
      await page.getByLabel('Recipient username').fill('gonzalo_001');
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect.poll(() => page.getByLabel('Amount', { exact: true }).isEnabled()).toBe(true);
      await page.getByLabel('Amount', { exact: true }).fill('5');
      await page.getByRole('button', { name: 'Transfer', exact: true }).click();
      await page.getByLabel('Transaction Password', { exact: true }).fill('Txn@123');
      await page.getByRole('button', { name: 'Confirm Transfer' }).click();
    },
    told: 'Your transfer went through. Deposit Wallet: $',
    moves: { Deposit: -5 },
  },
  {
    name: 'a withdrawal request',
    procedure: 'withdraw.withdraw_request',
    page: '/dashboard/wallets',
    act: async (page) => {
      await page.getByRole('tab', { name: 'Withdrawal Request' }).click();
      await page.getByLabel('Withdrawal amount').fill('25');
      await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await page.getByLabel('Transaction Password', { exact: true }).fill('Txn@123');
      await page.getByRole('button', { name: 'Submit Withdrawal' }).click();
    },
    told: 'Your withdrawal request went through. Withdrawal Wallet: $',
    moves: { Withdrawal: -25 },
  },
];

describe.each(servers)('a lost answer in $mode mode, on a phone', (server) => {
  let page!: Page;
  freshPagePerTest(server, { width: 375, height: 812 }, (fresh) => (page = fresh));

  it.each(MOVES.map((move) => [move.name, move] as const))(
    '%s: the member is told it went through, and it moved once',
    async (_, move) => {
      const token = await signInWithToken(page, server, 'demo', 'Demo@1234');
      const wallets = async () =>
        (await api<{ Success: Wallets }>(server, '/wallet/view_all_wallets_details', {}, token)).Success;
      const before = await wallets();
      const resend = testGate();
      const calls = await loseFirstAnswer(page, move.procedure, resend);
      await page.goto(`${server.url}${move.page}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();

      await move.act(page);
      await expectToast(page, CHECKING, 15_000);
      resend.open();
      await expectToast(page, move.told, 15_000);
      expect(calls()).toBeGreaterThanOrEqual(2);

      const after = await wallets();
      for (const [wallet, change] of Object.entries(move.moves))
        expect(
          amountToMicros(after[wallet]!.Available) - amountToMicros(before[wallet]!.Available),
          wallet,
        ).toBe(amountToMicros(change));
      const check = await api<{
        balanced: boolean;
        negativeWallets: unknown[];
        mismatchedWallets: unknown[];
      }>(server, '/__qa/ledger/check');
      expect(check).toMatchObject({ balanced: true, negativeWallets: [], mismatchedWallets: [] });
    },
  );
});
