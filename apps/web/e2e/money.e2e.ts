/**
 * Money end to end, in both client modes: deposit → QA pay → balance → package → Transactions →
 * swap with MAX → transaction password via OTP → P2P → wallet address via OTP → withdrawal with
 * the fee dialog → QA approval → History shows every step. Then the data table's behaviours.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { formatMoney } from '@md/shared';
import {
  api,
  expectToast,
  latestOtp,
  mailCount,
  registerMember,
  signIn,
  signInWithToken,
  freshPagePerTest,
  uniqueName,
} from './support.ts';
import { openRoute } from './screens.ts';

const servers = inject('e2eServers');
type Wallets = Record<string, { Available: number }>;

describe.each(servers)('money in $mode mode', (server) => {
  let page!: Page;
  const token = () => page.evaluate(() => localStorage.getItem('jwt') ?? '');
  const wallets = async () =>
    (await api<{ Success: Wallets }>(server, '/wallet/view_all_wallets_details', {}, await token())).Success;
  const available = (wallet: string) => page.getByTestId(`wallet-available-${wallet}`).innerText();

  freshPagePerTest(server, { width: 1280, height: 900 }, (fresh) => (page = fresh));

  it('takes a member from deposit to an approved withdrawal, and History shows each step', async () => {
    await signInWithToken(page, server, 'demo', 'Demo@1234');
    const start = await wallets();

    // Deposit, then QA marks it paid.
    await openRoute(page, '/dashboard/deposit', server.url);
    await page.getByLabel('Amount (USDT)').fill('120');
    await page.getByRole('button', { name: 'Deposit', exact: true }).click();
    await page.getByAltText('Deposit QR code').waitFor();
    expect(
      await page.getByAltText('Deposit QR code').evaluate((img) => (img as HTMLImageElement).width),
    ).toBe(150);
    expect(await page.getByTestId('deposit-address').innerText()).toMatch(/0x[0-9a-fA-F]{40}/);
    const depositId = (await page.getByTestId('deposit-transid').innerText()).trim();
    await api(server, `/__qa/deposits/${depositId}/pay`, {});

    await openRoute(page, '/dashboard/wallets', server.url);
    await expect.poll(() => available('Deposit')).toContain(formatMoney(start.Deposit!.Available + 120));

    // Buy the Starter package.
    await openRoute(page, '/dashboard/package', server.url);
    await page.getByTestId('package-card-Starter').click();
    await page.getByRole('button', { name: 'Select Starter' }).click();
    await page.getByRole('button', { name: 'Confirm Purchase' }).click();
    await expectToast(page, 'Starter');
    await openRoute(page, '/dashboard/transactions', server.url);
    const firstRow = page.getByTestId('data-table').locator('tbody tr').first();
    await expect.poll(() => firstRow.innerText()).toContain('Starter');
    expect(await firstRow.innerText()).toContain('ACTIVE');

    // Swap the whole Direct wallet to Withdrawal with MAX.
    const direct = (await wallets()).Direct!.Available;
    expect(direct).toBeGreaterThan(0);
    await openRoute(page, '/dashboard/wallets', server.url);
    await page.getByRole('tab', { name: 'Wallet Swap' }).click();
    await page.getByLabel('From wallet').selectOption('Direct');
    await page.getByLabel('To wallet').selectOption('Withdrawal');
    await page.getByRole('button', { name: 'MAX' }).click();
    expect(Number(await page.getByLabel('Amount', { exact: true }).inputValue())).toBe(direct);
    await page.getByRole('button', { name: 'Swap', exact: true }).click();
    // A swap into Withdrawal is one-way: it is confirmed first.
    await page
      .getByRole('dialog', { name: 'Swap into Withdrawal' })
      .getByRole('button', { name: /^Swap \$/ })
      .click();
    await expect.poll(() => available('Direct')).toContain('$0.00');

    // A new transaction password through the emailed OTP.
    const mailsBefore = await mailCount(server, 'demo');
    await openRoute(page, '/dashboard/settings', server.url);
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByLabel('Transaction Password', { exact: true }).fill('Pay#4321');
    await page.getByRole('button', { name: /^(Reset|Set) Transaction Password$/ }).click();
    await page.getByLabel('OTP', { exact: true }).fill(await latestOtp(server, 'demo', mailsBefore));
    await page.getByRole('button', { name: 'Verify OTP' }).click();
    await expect
      .poll(
        async () =>
          (
            await api<{ Success: { Transaction_Password: boolean }[] }>(
              server,
              '/user/view_profile',
              {},
              await token(),
            )
          ).Success[0]!.Transaction_Password,
      )
      .toBe(true);

    // P2P to a member of the downline.
    await openRoute(page, '/dashboard/p2pTransfer', server.url);
    await page.getByLabel('Recipient username').fill('Gonzalo_001');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectToast(page, 'Recipient verified successfully!');
    await page.getByLabel('Amount', { exact: true }).fill('5');
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await page.getByLabel('Transaction Password', { exact: true }).fill('Pay#4321');
    await page.getByRole('button', { name: 'Confirm Transfer' }).click();
    await expectToast(page, 'Transfer successful!');

    // A new withdrawal address through the emailed OTP.
    const address = '0x52908400098527886E0F7030069857D2E4169EE7';
    const mailsBeforeAddress = await mailCount(server, 'demo');
    await openRoute(page, '/dashboard/settings', server.url);
    await page.getByRole('tab', { name: 'Wallet Address' }).click();
    await page.getByLabel('Wallet Address', { exact: true }).fill(address);
    await page.getByRole('button', { name: 'Save Address' }).click();
    await page
      .getByRole('dialog')
      .getByLabel('OTP', { exact: true })
      .fill(await latestOtp(server, 'demo', mailsBeforeAddress));
    await page.getByRole('dialog').getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(
        async () =>
          (
            await api<{ Success: { Wallet_Details: { Wallet_Address: string } }[] }>(
              server,
              '/user/view_profile',
              {},
              await token(),
            )
          ).Success[0]!.Wallet_Details.Wallet_Address,
      )
      .toBe(address);

    // Withdraw 25: the dialog shows the 5 % fee and 23.75 to receive.
    await openRoute(page, '/dashboard/wallets', server.url);
    await page.getByRole('tab', { name: 'Withdrawal Request' }).click();
    await expect.poll(() => page.getByText('0x5290...9EE7').isVisible()).toBe(true);
    await page.getByLabel('Withdrawal amount').fill('25');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText()).toContain('23.75');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByLabel('Transaction Password', { exact: true }).fill('Pay#4321');
    await page.getByRole('button', { name: 'Submit Withdrawal' }).click();
    await expect
      .poll(async () => (await wallets()).Withdrawal!.Available)
      .toBeCloseTo(start.Withdrawal!.Available + direct - 25, 6);

    const pending = await api<{ id: number; TransID: string; amount: number; username?: string }[]>(
      server,
      '/__qa/withdrawals?status=PENDING',
    );
    const mine = pending.find((w) => w.amount === 25);
    expect(mine).toBeDefined();
    await api(server, `/__qa/withdrawals/${mine!.TransID}/approve`, {});

    // History shows each step.
    await openRoute(page, '/dashboard/history', server.url);
    await page.getByLabel('Rows per page:').selectOption('50');
    const history = page.getByTestId('data-table');
    await expect.poll(() => history.innerText()).toContain(depositId);
    const text = await history.innerText();
    for (const step of [
      'Deposit',
      'Package Purchase',
      'Wallet Swap',
      'P2P Transfer',
      'Withdrawal Request',
      'Withdrawal Paid',
    ])
      expect(text).toContain(step);
    expect(text).toContain(mine!.TransID);

    const check = await api<{ balanced: boolean; negativeWallets: unknown[]; mismatchedWallets: unknown[] }>(
      server,
      '/__qa/ledger/check',
    );
    expect(check).toMatchObject({ balanced: true, negativeWallets: [], mismatchedWallets: [] });
  });

  it('pages, searches, filters by date, chooses columns and sorts the History table', async () => {
    await signInWithToken(page, server, 'demo', 'Demo@1234');
    await openRoute(page, '/dashboard/history', server.url);
    const table = page.getByTestId('data-table');
    const rows = table.locator('tbody tr');
    const indicator = page.getByTestId('page-indicator');
    await expect.poll(() => rows.count()).toBe(10);
    // The page count comes from its own call: wait until the indicator shows what the server says.
    const totalPages = (
      await api<{ Success: number }>(
        server,
        '/earning/total_pagination_earning_history',
        { pageNo: 1, pageSize: 10 },
        await token(),
      )
    ).Success;
    expect(totalPages).toBeGreaterThanOrEqual(3);
    await expect.poll(() => indicator.innerText()).toBe(`1 / ${totalPages}`);

    // Page jump: a valid page applies on Enter; an invalid one reverts on blur.
    await page.getByLabel('Go to page').fill('2');
    await page.getByLabel('Go to page').press('Enter');
    await expect.poll(() => indicator.innerText()).toBe(`2 / ${totalPages}`);
    await page.getByLabel('Go to page').fill(String(totalPages + 5));
    await page.getByLabel('Go to page').blur();
    await expect.poll(() => indicator.innerText()).toBe(`2 / ${totalPages}`);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => indicator.innerText()).toBe(`3 / ${totalPages}`);

    // Rows per page resets to page 1.
    await page.getByLabel('Rows per page:').selectOption('25');
    await expect.poll(() => indicator.innerText()).toMatch(/^1 \/ /);
    await expect.poll(() => rows.count()).toBeGreaterThan(10);

    // Sort by Amount on the current page: ascending, then descending.
    const amounts = async () =>
      (await table.locator('tbody tr td:nth-child(3)').allInnerTexts()).map((t) =>
        Number(t.replace(/[^0-9.]/g, '')),
      );
    await page.getByRole('button', { name: 'Amount', exact: true }).click();
    const ascending = await amounts();
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await page.getByRole('button', { name: 'Amount', exact: true }).click();
    const descending = await amounts();
    expect(descending).toEqual([...descending].sort((a, b) => b - a));

    // Search narrows to one transaction.
    const someId = (await table.locator('tbody tr td:nth-child(2)').first().innerText()).trim();
    await page.getByPlaceholder('Search transactions...').fill(someId);
    await expect
      .poll(async () =>
        (await table.locator('tbody tr td:nth-child(2)').allInnerTexts()).every((t) => t.includes(someId)),
      )
      .toBe(true);
    await page.getByPlaceholder('Search transactions...').fill('');

    // A date range in the future holds nothing.
    await page.getByLabel('Start date').fill('2099-01-01');
    await expect.poll(() => page.getByText('No data available').isVisible()).toBe(true);
    await page.getByLabel('Start date').fill('');
    await expect.poll(() => rows.count()).toBeGreaterThan(1);

    // The column chooser hides a column.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'By' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => table.locator('thead th').allInnerTexts()).not.toContain('By');
  });

  it('moves the table controls into a Filters panel at 375 px, and Clear Filters resets them', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signInWithToken(page, server, 'demo', 'Demo@1234');
    await openRoute(page, '/dashboard/history', server.url);
    await expect.poll(() => page.getByTestId('data-card').count()).toBe(10);
    expect(await page.getByTestId('data-table').count()).toBe(0);
    expect(await page.getByPlaceholder('Search transactions...').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Filters' });
    await panel.getByPlaceholder('Search transactions...').fill('no-such-transaction');
    await expect.poll(() => page.getByText('No data available').isVisible()).toBe(true);
    await panel.getByRole('button', { name: 'Clear Filters' }).click();
    await expect.poll(() => page.getByTestId('data-card').count()).toBe(10);
    expect(await panel.getByPlaceholder('Search transactions...').inputValue()).toBe('');
  });

  it('exports the History table as CSV: every page of the rows matching its search, the chosen columns', async () => {
    // The Blob download path (the File System Access picker is a native dialog a test cannot answer; the component tests cover it).
    await page.addInitScript(() => delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker);
    await signInWithToken(page, server, 'demo', 'Demo@1234');
    await openRoute(page, '/dashboard/history', server.url);
    const table = page.getByTestId('data-table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(10);

    /** The rows the API answers for these criteria, every page at 100 (what the export must match). */
    const apiRows = async (criteria: Record<string, unknown>) => {
      const rows: { TransID: string; Wallet: string; Type: string }[] = [];
      const pages = (
        await api<{ Success: number }>(
          server,
          '/earning/total_pagination_earning_history',
          { ...criteria, pageSize: 100 },
          await token(),
        )
      ).Success;
      for (let pageNo = 1; pageNo <= pages; pageNo++)
        rows.push(
          ...(
            await api<{ Success: { TransID: string; Wallet: string; Type: string }[] }>(
              server,
              '/earning/view_all_earning_history',
              { ...criteria, pageNo, pageSize: 100 },
              await token(),
            )
          ).Success,
        );
      return rows;
    };
    const exportCsv = async () => {
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Export Earning history' });
      await dialog.getByText('Wallet', { exact: true }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      const csv = readFileSync((await download.path())!, 'utf8');
      await expect
        .poll(() => dialog.getByRole('status').innerText())
        .toMatch(/^Exported [\d,]+ rows? to earning-history-\d{4}-\d{2}-\d{2}\.csv\.$/);
      await dialog.getByRole('button', { name: 'Done', exact: true }).click();
      return { csv, name: download.suggestedFilename() };
    };

    // All of it: more rows than one page of 100.
    const all = await apiRows({});
    expect(all.length).toBeGreaterThan(100);
    const whole = await exportCsv();
    expect(whole.name).toMatch(/^earning-history-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(whole.csv.startsWith('\uFEFFDate,Transaction ID,Amount,Type,By,Transfer,Status\r\n')).toBe(true);
    const records = whole.csv.slice(1).split('\r\n').filter(Boolean).slice(1);
    expect(records).toHaveLength(all.length);
    expect(records.map((line) => line.split(',')[1]).sort()).toEqual(all.map((row) => row.TransID).sort());
    expect(records[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z,[^,]+,-?\d+(\.\d+)?,/);

    // Searched: only the matching rows, from every page. The search text is a wallet or a type that
    // matches some rows but not all (the server searches ids, reasons, members and wallets).
    let rarest = '';
    let matching: typeof all = [];
    for (const candidate of new Set(all.flatMap((row) => [row.Wallet, row.Type]).filter(Boolean))) {
      matching = await apiRows({ search: [candidate] });
      if (matching.length > 0 && matching.length < all.length) {
        rarest = candidate;
        break;
      }
    }
    expect(rarest).not.toBe('');
    await page.getByPlaceholder('Search transactions...').fill(rarest);
    await expect
      .poll(async () => (await table.locator('tbody tr td:nth-child(2)').first().innerText()).trim())
      .toBe(matching[0]!.TransID);
    const searched = await exportCsv();
    expect(searched.csv.slice(1).split('\r\n').filter(Boolean)).toHaveLength(1 + matching.length);
  });

  it('keeps Export one tap away at 375 px, beside Filter', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signInWithToken(page, server, 'demo', 'Demo@1234');
    await openRoute(page, '/dashboard/transactions', server.url);
    const exportButton = page.getByRole('button', { name: 'Export', exact: true });
    await exportButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /^Export / });
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    await page.keyboard.press('Escape');
    await expect.poll(() => exportButton.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('counts new notifications on the header bell, and opening it clears the count', async () => {
    const member = await registerMember(server, uniqueName('bell'));
    await signInWithToken(page, server, member.username, member.password);
    await openRoute(page, '/dashboard/wallets', server.url);
    const bell = page.getByTestId('notification-bell');
    const label = () => bell.getAttribute('aria-label');
    const own = (
      await api<{ Success: unknown[] }>(
        server,
        '/notification/view_notification',
        { page_no: 1, page_size: 20 },
        member.token,
      )
    ).Success.length;
    expect(own).toBeGreaterThan(0);
    await expect.poll(label).toBe(`Notifications, ${own} unread`);
    await bell.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('bell-latest').waitFor();
    await expect.poll(label).toBe('Notifications');
    await page.keyboard.press('Escape');
    await expect.poll(() => bell.evaluate((el) => el === document.activeElement)).toBe(true);

    // A paid deposit writes a notification: the bell counts it (after a reload, as a new visit would).
    const deposit = await api<{ Success: { TransID: string } }>(
      server,
      '/deposit/make_payment',
      { amount_usdt: 15, currency: 'USDT.BEP20' },
      member.token,
    );
    await api(server, `/__qa/deposits/${deposit.Success.TransID}/pay`, {});
    await page.reload();
    await expect.poll(label).toBe('Notifications, 1 unread');
    await bell.click();
    await expect.poll(() => page.getByTestId('bell-latest').innerText()).toContain('Your deposit of $15');
    await expect.poll(label).toBe('Notifications');
    // The marker stays on the device: a reload counts nothing new.
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await label()).toBe('Notifications');
  });

  it('shows the §5 messages of the money screens', async () => {
    await signIn(page, server, 'demo', 'Demo@1234');
    const shows = (text: string) =>
      expect.poll(() => page.getByText(text, { exact: true }).first().isVisible()).toBe(true);

    // Deposit amount.
    await openRoute(page, '/dashboard/deposit', server.url);
    const deposit = page.getByRole('button', { name: 'Deposit', exact: true });
    await deposit.click();
    await shows('Enter Amount');
    await page.getByLabel('Amount (USDT)').fill('abc');
    await deposit.click();
    await shows('Please enter a valid amount');
    await page.getByLabel('Amount (USDT)').fill('9.5');
    await deposit.click();
    await shows('Amount cannot be less than 10!');

    // Swap above the source balance.
    await openRoute(page, '/dashboard/wallets', server.url);
    await page.getByRole('tab', { name: 'Wallet Swap' }).click();
    await page.getByLabel('From wallet').selectOption('P2P');
    await page.getByLabel('To wallet').selectOption('Deposit');
    await page.getByLabel('Amount', { exact: true }).fill('999999');
    await page.getByRole('button', { name: 'Swap', exact: true }).click();
    await shows('Insufficient balance');

    // Withdrawal under the minimum (the spec's wording, trailing space included).
    await page.getByRole('tab', { name: 'Withdrawal Request' }).click();
    await page.getByLabel('Withdrawal amount').fill('10');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await expectToast(page, 'Amount should be greater then $20');

    // P2P: unknown recipient, too much, and an empty password prompt.
    await openRoute(page, '/dashboard/p2pTransfer', server.url);
    expect(await page.getByLabel('Amount', { exact: true }).isDisabled()).toBe(true);
    await page.getByLabel('Recipient username').fill('nosuchmember');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectToast(page, 'Recipient not found');
    await page.getByLabel('Recipient username').fill('gonzalo_001');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectToast(page, 'Recipient verified successfully!');
    await page.getByLabel('Amount', { exact: true }).fill('99999999');
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await shows('Insufficient balance');
    await page.getByLabel('Amount', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm Transfer' }).click();
    await expectToast(page, 'Transfer cancelled');

    // Transaction password and wallet address rules.
    await openRoute(page, '/dashboard/settings', server.url);
    await page.getByRole('tab', { name: 'Security' }).click();
    const setPassword = page.getByRole('button', { name: /^(Reset|Set) Transaction Password$/ });
    await setPassword.click();
    await shows('Enter Transaction Password');
    await page.getByLabel('Transaction Password', { exact: true }).fill('abcdefg');
    await setPassword.click();
    await shows(
      'Password must be at least 6 characters long, include at least one number and one special character.',
    );
    await page.getByRole('tab', { name: 'Wallet Address' }).click();
    await page.getByRole('button', { name: 'Save Address' }).click();
    await shows('Enter Wallet Address');
    await page.getByLabel('Wallet Address', { exact: true }).fill('0x1234');
    await page.getByRole('button', { name: 'Save Address' }).click();
    await shows('Invaid Wallet Address');
  });
});
