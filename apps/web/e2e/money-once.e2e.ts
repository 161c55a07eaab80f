/**
 * Money actions send once however they are clicked, in both client modes: two
 * clicks in the same frame on Deposit, Confirm Purchase and Quick transfer's confirmation each send
 * one call (counted on the wire, where the server's own purchase check cannot hide a second one),
 * and the deposit panel says 'Paid — credited' and drops the QR and the address once QA pays it.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { REWARD_WALLETS, amountToMicros, formatMoney, microsToAmount } from '@md/shared';
import { api, expectToast, freshPagePerTest, signInWithToken } from './support.ts';

const servers = inject('e2eServers');
type Wallets = Record<string, { Available: number }>;

/** Two clicks before the page can render again: a disabled state would land too late. */
const clickTwiceInOneFrame = (button: Locator) =>
  button.evaluate((element) => {
    (element as HTMLElement).click();
    (element as HTMLElement).click();
  });

/** Calls of a contract procedure sent so far (tRPC may batch several into one request: count names). */
function countCalls(page: Page, procedure: string, restPath: string) {
  let calls = 0;
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    const { pathname } = new URL(request.url());
    if (pathname === restPath) calls += 1;
    else if (pathname.startsWith('/trpc/'))
      calls += decodeURIComponent(pathname.slice('/trpc/'.length))
        .split(',')
        .filter((name) => name === procedure).length;
  });
  return () => calls;
}

describe.each(servers)('money sent once in $mode mode', (server) => {
  let page!: Page;
  const token = () => page.evaluate(() => localStorage.getItem('jwt') ?? '');
  const wallets = async () =>
    (await api<{ Success: Wallets }>(server, '/wallet/view_all_wallets_details', {}, await token())).Success;

  freshPagePerTest(server, { width: 1280, height: 900 }, (fresh) => (page = fresh));

  it('a double click opens one deposit window; paying it shows Paid — credited and hides the QR and the address', async () => {
    await signInWithToken(page, server, 'demo', 'Demo@1234');
    const payments = countCalls(page, 'deposit.make_payment', '/deposit/make_payment');
    await page.goto(`${server.url}/dashboard/deposit`);
    await page.getByLabel('Amount (USDT)').fill('150');
    await clickTwiceInOneFrame(page.getByRole('button', { name: 'Deposit', exact: true }));
    await page.getByAltText('Deposit QR code').waitFor();
    const transId = (await page.getByTestId('deposit-transid').innerText()).trim();
    expect(payments()).toBe(1);

    const before = (await wallets()).Deposit!.Available;
    await api(server, `/__qa/deposits/${transId}/pay`, {});
    const outcome = page.getByTestId('deposit-outcome');
    await expect
      .poll(() => outcome.isVisible().then((shown) => (shown ? outcome.innerText() : '')))
      .toContain('Paid — credited');
    expect(await page.getByAltText('Deposit QR code').count()).toBe(0);
    expect(await page.getByTestId('deposit-address').count()).toBe(0);
    expect((await wallets()).Deposit!.Available).toBeCloseTo(before + 150, 6);
    // The history row follows without waiting for its cache.
    const row = page.getByTestId('data-table').locator('tbody tr', { hasText: transId });
    await expect.poll(() => row.innerText()).toContain('PAID');
  });

  it('a double click on Confirm Purchase buys once', async () => {
    await signInWithToken(page, server, 'demo', 'Demo@1234');
    const purchases = countCalls(
      page,
      'subscription.buy_subscription_packages',
      '/subscription/buy_subscription_packages',
    );
    const before = (await wallets()).Deposit!.Available;
    expect(before).toBeGreaterThanOrEqual(100);
    await page.goto(`${server.url}/dashboard/package`);
    await page.getByTestId('package-card-Starter').click();
    await page.getByRole('button', { name: 'Select Starter' }).click();
    await clickTwiceInOneFrame(page.getByRole('dialog').getByRole('button', { name: 'Confirm Purchase' }));
    await expectToast(page, 'Starter');
    expect(purchases()).toBe(1);
    expect(amountToMicros((await wallets()).Deposit!.Available)).toBe(
      amountToMicros(before) - amountToMicros(100),
    );
    const check = await api<{ balanced: boolean; negativeWallets: unknown[]; mismatchedWallets: unknown[] }>(
      server,
      '/__qa/ledger/check',
    );
    expect(check).toMatchObject({ balanced: true, negativeWallets: [], mismatchedWallets: [] });
  });

  it('Quick transfer shows what will move, and a double click on its confirmation moves each wallet once', async () => {
    await signInWithToken(page, server, 'demo', 'Demo@1234');
    const start = await wallets();
    const legs = REWARD_WALLETS.filter((name) => (start[name]?.Available ?? 0) > 0);
    expect(legs.length).toBeGreaterThan(0);
    const total = microsToAmount(legs.reduce((sum, name) => sum + amountToMicros(start[name]!.Available), 0));
    const transfers = countCalls(page, 'wallet.transfer_wallet', '/wallet/transfer_wallet');

    await page.goto(`${server.url}/dashboard/wallets`);
    await page.getByTestId('wallet-available-Deposit').waitFor();
    await page.getByRole('button', { name: 'Quick transfer' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByTestId('quick-transfer-total').innerText()).toBe(formatMoney(total));
    for (const name of legs) expect(await dialog.innerText()).toContain(`${name} Wallet`);
    expect(transfers()).toBe(0);

    await clickTwiceInOneFrame(dialog.getByRole('button', { name: `Move ${formatMoney(total)}` }));
    await expectToast(page, 'to Withdrawal');
    expect(transfers()).toBe(legs.length);
    const after = await wallets();
    expect(amountToMicros(after.Withdrawal!.Available)).toBe(
      amountToMicros(start.Withdrawal!.Available) + amountToMicros(total),
    );
    for (const name of legs) expect(after[name]!.Available).toBe(0);
  });
});
