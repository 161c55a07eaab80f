/**
 * What members read, in both client modes at 1280 and 375 px: a read that fails shows Unavailable
 * with a Retry and nothing else (no empty state, no pager, no spinner that never ends), and Retry
 * brings the page back once the read works again.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MSG } from '@md/shared';
import { getAddress } from 'viem';
import { addFault, api, clearFaults, expectToast, freshPagePerTest, signInWithToken } from './support.ts';
import { openRoute } from './screens.ts';

const servers = inject('e2eServers');
const PASSWORD = 'Demo@1234';
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
] as const;
const FAILED = { status: 502, empty: true } as const;
const WALLET = { Available: 500, Total: 500, This_Month: 0, Last_Month: 0, User: 'demo' };
/** Balances that let every money form open, whatever demo's wallets hold. */
const FUNDED = {
  path: '/wallet/view_all_wallets_details',
  body: {
    Success: Object.fromEntries(
      ['Deposit', 'Direct', 'Binary', 'Level', 'P2P', 'Withdrawal', 'ROI', 'Rank'].map((name) => [
        name,
        WALLET,
      ]),
    ),
  },
};

describe.each(servers)('figures and failed reads in $mode mode', (server) => {
  describe.each(VIEWPORTS)('at $width px', (viewport) => {
    let page!: Page;
    freshPagePerTest(server, viewport, (fresh) => (page = fresh));
    const retry = (what: string) => page.getByRole('button', { name: `Retry: ${what}` });
    const text = () => page.locator('main').innerText();

    it('a failed read shows Unavailable with a Retry and nothing else, and Retry brings it back', async () => {
      await signInWithToken(page, server, 'demo', PASSWORD);
      const cases: {
        path: string;
        faults: string[];
        what: string;
        absent: string[];
        back: (page: Page) => Promise<unknown>;
      }[] = [
        {
          path: '/dashboard/binarychart',
          faults: ['/binary/view_binary_downline'],
          what: 'Binary tree',
          absent: [MSG.noOrgData],
          back: (p) => p.getByRole('tree', { name: 'Binary tree' }).waitFor(),
        },
        {
          path: '/dashboard/levelchart',
          faults: ['/level/view_downline', '/level/view_downline_page'],
          what: 'Level tree',
          absent: [MSG.noOrgData, 'Share'],
          back: (p) => p.getByRole('tree', { name: 'Level tree' }).waitFor(),
        },
        {
          path: '/dashboard/package',
          faults: ['/table/view_subscription'],
          what: 'Packages',
          absent: [MSG.noData],
          back: (p) => p.getByTestId('package-card-Starter').waitFor(),
        },
        {
          path: '/dashboard/transactions',
          faults: ['/subscription/subscription_transaction'],
          what: 'Package transactions',
          absent: [MSG.noData, 'Rows per page'],
          back: (p) => p.getByRole('navigation', { name: 'Pagination' }).waitFor(),
        },
        {
          path: '/dashboard/notification',
          faults: ['/notification/view_notification'],
          what: 'Notifications',
          absent: [MSG.noNotifications, 'Previous'],
          back: (p) => p.getByRole('list', { name: 'Notifications' }).waitFor(),
        },
        {
          path: '/dashboard/settings',
          faults: ['/user/view_profile'],
          what: 'Profile',
          absent: ['Loading profile'],
          back: (p) => p.getByRole('tab', { name: 'Profile' }).waitFor(),
        },
      ];
      for (const { path, faults, what, absent, back } of cases) {
        for (const fault of faults) await addFault(server, { path: fault, ...FAILED });
        await page.goto(`${server.url}${path}`);
        await retry(what).waitFor();
        const shown = await text();
        for (const word of absent) expect(shown, `${path}: ${word}`).not.toContain(word);
        expect(await page.getByRole('navigation', { name: 'Pagination' }).count(), path).toBe(0);
        await clearFaults(server);
        await retry(what).click();
        await back(page);
        expect(await retry(what).count(), path).toBe(0);
      }
    });

    it("an absent or unreadable figure shows '-', never $0.00: the home's Binary Left, a wallet's Total and the Total Earnings it is part of", async () => {
      await signInWithToken(page, server, 'demo', PASSWORD);
      // In provider mode through the gateway: the provider's answer lacks Binary_Left and sends Current_Level as junk.
      await addFault(server, {
        path: '/user_analytics/view_user_analytics',
        body: { Success: { Binary_Right: 250, Current_Level: 'n/a', Active_Subscriptions: 1 } },
      });
      const wallet = { Available: 120, Total: 300, This_Month: 0, Last_Month: 0, User: 'demo' };
      const { Total: _absent, ...withoutTotal } = wallet;
      const wallets = Object.fromEntries(
        ['Deposit', 'Direct', 'Binary', 'Level', 'P2P', 'Withdrawal', 'ROI', 'Rank'].map((name) => [
          name,
          name === 'Binary' ? withoutTotal : wallet,
        ]),
      );
      await addFault(server, {
        path: '/wallet/view_all_wallets_details',
        body: { Success: { ...wallets, Deposit: { ...wallet, Available: 'unknown' } } },
      });
      await openRoute(page, '/dashboard', server.url);
      const card = (label: string) =>
        page
          .locator('dl', { has: page.getByText(label, { exact: true }) })
          .locator('dd')
          .first();
      await expect.poll(() => card('Binary Right').innerText()).toBe('$250.00');
      expect(await card('Binary Left').innerText()).toBe('-');
      expect(await card('Current Level').innerText()).toBe('-');
      await openRoute(page, '/dashboard/wallets', server.url);
      await expect.poll(() => page.getByTestId('wallet-total-Direct').innerText()).toBe('$300.00');
      expect(await page.getByTestId('wallet-total-Binary').innerText()).toBe('-');
      expect(await page.getByTestId('wallet-card-Total-Earnings').innerText()).not.toContain('$');
      expect(await page.locator('main').innerText()).not.toContain('$0.00');
      // The header's Deposit balance on the package page.
      await openRoute(page, '/dashboard/package', server.url);
      await expect
        .poll(() => page.getByTestId('package-balance').innerText())
        .toMatch(/Available Bal :\s*-$/);
    });

    it('Withdraw in the menu leads on to the Wallets page at its Withdrawal Request tab', async () => {
      await signInWithToken(page, server, 'demo', PASSWORD);
      await openRoute(page, '/dashboard/withdraw', server.url);
      await page.getByRole('heading', { level: 1, name: 'Withdraw' }).waitFor();
      expect(await page.getByText('Withdrawals are made from the Wallets tab.').isVisible()).toBe(true);
      await page.getByRole('link', { name: 'Go to Withdrawal Request' }).click();
      await page.waitForURL(`${server.url}/dashboard/wallets?tab=withdrawal`);
      await expect
        .poll(() => page.getByRole('tab', { name: 'Withdrawal Request' }).getAttribute('aria-selected'))
        .toBe('true');
      await page.getByLabel('Withdrawal amount', { exact: true }).waitFor();
    });

    it('a swap into the Withdrawal wallet is confirmed first, like Quick transfer; Cancel sends nothing', async () => {
      await signInWithToken(page, server, 'demo', PASSWORD);
      await addFault(server, FUNDED);
      await addFault(server, { path: '/wallet/view_from_wallets', body: { Success: { Direct: true } } });
      await addFault(server, {
        path: '/wallet/view_to_wallets',
        body: { Success: { Withdrawal: true, Deposit: true } },
      });
      // The swap itself answers from a rule: no money moves in this test.
      await addFault(server, {
        path: '/wallet/transfer_wallet',
        body: { Success: 'Swapped into Withdrawal' },
      });
      await openRoute(page, '/dashboard/wallets', server.url);
      await expect
        .poll(() => page.getByLabel('From wallet').locator('option', { hasText: 'Direct' }).count())
        .toBe(1);
      await page.getByLabel('From wallet').selectOption('Direct');
      await page.getByLabel('To wallet').selectOption('Withdrawal');
      await page.getByLabel('Amount', { exact: true }).fill('12.5');
      await page.getByRole('button', { name: 'Swap', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Swap into Withdrawal' });
      await dialog.waitFor();
      const shown = await dialog.innerText();
      expect(shown).toContain('Direct Wallet');
      expect(shown).toContain('$12.50');
      expect(shown).toContain('This cannot be undone.');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await page.getByLabel('Amount', { exact: true }).inputValue()).toBe('12.5');
      await page.getByRole('button', { name: 'Swap', exact: true }).click();
      await dialog.getByRole('button', { name: 'Swap $12.50' }).click();
      await expectToast(page, 'Swapped into Withdrawal');
    });

    it('the withdrawal confirmation restates the whole destination address, checksummed', async () => {
      const token = await signInWithToken(page, server, 'demo', PASSWORD);
      const profile = await api<{ Success: { Wallet_Details: { Wallet_Address: string } }[] }>(
        server,
        '/user/view_profile',
        {},
        token,
      );
      const address = profile.Success[0]!.Wallet_Details.Wallet_Address;
      expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      await addFault(server, FUNDED);
      await openRoute(page, '/dashboard/wallets?tab=withdrawal', server.url);
      await page.getByLabel('Withdrawal amount', { exact: true }).fill('25');
      await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm Withdrawal' });
      await dialog.waitFor();
      expect(await dialog.getByTestId('withdrawal-destination').innerText()).toBe(getAddress(address));
      // Whole, in view: nothing of it is cut off at this width.
      const box = (await dialog.getByTestId('withdrawal-destination').boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      const prompt = page.getByRole('dialog', { name: 'Confirm withdrawal' });
      await prompt.waitFor();
      expect(await prompt.getByTestId('withdrawal-destination').innerText()).toBe(getAddress(address));
    });

    it('after choosing a package its Select button is on screen without scrolling', async () => {
      await signInWithToken(page, server, 'demo', PASSWORD);
      await openRoute(page, '/dashboard/package', server.url);
      const cards = page.locator('[data-testid^="package-card-"]');
      await cards.first().waitFor();
      // The last card: the one furthest down the grid.
      const last = cards.last();
      const name = (await last.getAttribute('data-testid'))!.replace('package-card-', '');
      await last.click();
      const select = page.getByRole('button', { name: `Select ${name}` });
      await select.waitFor();
      const box = (await select.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      // And the first card, chosen at the top of the page.
      await page.evaluate(() => window.scrollTo(0, 0));
      const first = cards.first();
      const firstName = (await first.getAttribute('data-testid'))!.replace('package-card-', '');
      await first.click();
      const firstBox = (await page.getByRole('button', { name: `Select ${firstName}` }).boundingBox())!;
      expect(firstBox.y + firstBox.height).toBeLessThanOrEqual(viewport.height);
    });

    it('an unreadable answer is a failed read too: notifications and a table whose Success is no list', async () => {
      await signInWithToken(page, server, 'demo', PASSWORD);
      await addFault(server, { path: '/notification/view_notification', body: { Success: 'surprise' } });
      await openRoute(page, '/dashboard/notification', server.url);
      await retry('Notifications').waitFor();
      expect(await text()).not.toContain(MSG.noNotifications);
      await addFault(server, {
        path: '/binary/view_binary_transaction',
        body: { Success: { not: 'a list' } },
      });
      await openRoute(page, '/dashboard/volume', server.url);
      await retry('Binary volume').waitFor();
      expect(await page.getByRole('navigation', { name: 'Pagination' }).count()).toBe(0);
    });
  });
});
