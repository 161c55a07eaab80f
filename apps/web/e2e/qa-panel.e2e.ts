/**
 * The QA panel end to end. It exists only in mock mode (the provider-mode server has /__qa too,
 * and the panel must not show there). Each test starts in a world of its own, a copy of the demo.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  api,
  expectToast,
  fetchIn,
  freshPagePerTest,
  latestOtp,
  registerMember,
  signIn,
  signInWithToken,
  uniqueName,
} from './support.ts';

const servers = inject('e2eServers');
const mock = servers.find((s) => s.mode === 'mock')!;
const provider = servers.find((s) => s.mode === 'provider')!;

/** "$5,450.00" → 5450 */
const money = (text: string) => Number(text.replace(/[^0-9.-]/g, ''));

function panelSteps(getPage: () => Page) {
  const panel = () => getPage().getByRole('dialog', { name: 'QA panel' });
  return {
    panel,
    async open(tab: string) {
      const page = getPage();
      await page.getByRole('button', { name: 'QA panel' }).click();
      await panel().waitFor();
      await panel().getByRole('tab', { name: tab }).click();
      await expect
        .poll(() => panel().getByRole('tab', { name: tab }).getAttribute('aria-selected'))
        .toBe('true');
    },
    async close() {
      await panel().getByRole('button', { name: 'Close the QA panel' }).click();
      await panel().waitFor({ state: 'detached' });
    },
  };
}

describe('QA panel in mock mode, on a phone', () => {
  let page!: Page;
  freshPagePerTest(mock, { width: 375, height: 812 }, (fresh) => (page = fresh));
  const qa = panelSteps(() => page);

  it('reads a password-reset OTP in the Mailbox before signing in, and the reset works with it', async () => {
    const member = await registerMember(mock, uniqueName('qaotp'));
    await page.goto(`${mock.url}/forgot-password`);
    await page.getByLabel('Username').fill(member.username);
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await page.getByLabel('OTP', { exact: true }).waitFor();

    await qa.open('Mailbox');
    await qa.panel().getByLabel('Address or username').fill(member.username);
    const newest = qa.panel().getByTestId('qa-mail').first();
    // The reset mail is newer than the registration one: wait until it heads the list.
    await expect.poll(() => newest.innerText()).toMatch(/reset/i);
    const otp = (await newest.getByTestId('qa-mail-otp').innerText()).trim();
    expect(otp).toMatch(/^\d{6}$/);
    expect(otp).toBe(await latestOtp(mock, member.username));
    expect(await newest.getByRole('button', { name: `Copy OTP ${otp}` }).isVisible()).toBe(true);
    await qa.close();

    await page.getByLabel('OTP', { exact: true }).fill(otp);
    await page.getByLabel('New Password', { exact: true }).fill('Reset#5678');
    await page.getByLabel('Confirm Password', { exact: true }).fill('Reset#5678');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect
      .poll(() =>
        fetchIn(mock, '/user/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: member.username, password: 'Reset#5678' }),
        }).then((r) => r.status),
      )
      .toBe(200);
  });
});

describe('QA panel in mock mode', () => {
  let page!: Page;
  freshPagePerTest(mock, { width: 1280, height: 900 }, (fresh) => (page = fresh));
  const qa = panelSteps(() => page);
  const available = async (wallet: string) =>
    money(await page.getByTestId(`wallet-available-${wallet}`).innerText());
  const walletShown = (wallet: string) =>
    expect.poll(() => page.getByTestId(`wallet-available-${wallet}`).isVisible()).toBe(true);
  /** The member's figure from the API: the card shows $0.00 until its query answers. */
  const walletApi = async (wallet: string) => {
    const token = await page.evaluate(() => localStorage.getItem('jwt') ?? '');
    return (
      await api<{ Success: Record<string, { Available: number }> }>(
        mock,
        '/wallet/view_all_wallets_details',
        {},
        token,
      )
    ).Success[wallet]!.Available;
  };
  /** The card shows `amount`, truncated to cents. */
  const shows = (wallet: string, amount: number) =>
    expect.poll(async () => Math.abs((await available(wallet)) - amount)).toBeLessThan(0.01);
  /** Rows of the Withdrawals tab whose member is demo (the username is its own element). */
  const demoWithdrawals = () =>
    qa
      .panel()
      .locator('[data-testid^="qa-withdrawal-"]')
      .filter({ has: page.getByText('demo', { exact: true }) });

  it('advances the clock a day at a time until the ROI run, and the ROI wallet grows', async () => {
    await signInWithToken(page, mock, 'demo', 'Demo@1234');
    await page.goto(`${mock.url}/dashboard/wallets`);
    await walletShown('ROI');
    const before = await walletApi('ROI');
    await shows('ROI', before);

    await qa.open('Clock');
    const result = qa.panel().getByTestId('qa-clock-result');
    let answer = '';
    // ROI runs at 00:05 UK on weekdays: from a Friday it takes three days to reach Monday's.
    for (let day = 0; day < 4 && !/\broi \d{4}-\d{2}-\d{2}/.test(answer); day++) {
      const previous = answer;
      await qa.panel().getByRole('button', { name: '+1 day' }).click();
      await expect
        .poll(async () => ((await result.count()) ? await result.innerText() : ''))
        .not.toBe(previous);
      answer = await result.innerText();
      expect(answer).toMatch(/^\+1 day: now /);
    }
    expect(answer).toMatch(/\broi \d{4}-\d{2}-\d{2}/);
    await qa.close();

    // A day on the clock outlives the 24 h session: sign in again to read the wallet.
    await page.evaluate(() => localStorage.clear());
    await signInWithToken(page, mock, 'demo', 'Demo@1234');
    await page.goto(`${mock.url}/dashboard/wallets`);
    await walletShown('ROI');
    await expect.poll(() => available('ROI')).toBeGreaterThan(before + 0.01);
  });

  it('pays a deposit window opened on the Deposit page, and the Deposit wallet grows without a reload', async () => {
    await signInWithToken(page, mock, 'demo', 'Demo@1234');
    await page.goto(`${mock.url}/dashboard/deposit`);
    await page.getByLabel('Amount (USDT)').fill('35');
    await page.getByRole('button', { name: 'Deposit', exact: true }).click();
    await page.getByTestId('deposit-transid').waitFor();
    const transId = (await page.getByTestId('deposit-transid').innerText()).trim();

    // The wallets page stays open behind the panel: paying refreshes it.
    await page.getByRole('link', { name: 'Wallets' }).first().click();
    await walletShown('Deposit');
    const before = await walletApi('Deposit');
    await shows('Deposit', before);
    await qa.open('Deposits');
    const row = qa.panel().getByTestId(`qa-deposit-${transId}`);
    await row.waitFor();
    expect(await row.innerText()).toContain('$35.00');
    await row.getByRole('button', { name: `Pay ${transId}` }).click();
    await expectToast(page, transId);
    await row.waitFor({ state: 'detached' });
    await qa.close();
    await shows('Deposit', before + 35);
  });

  it("approves demo's pending withdrawal: it leaves the list and History shows it paid", async () => {
    await signIn(page, mock, 'demo', 'Demo@1234');
    await qa.open('Withdrawals');
    const demoRow = demoWithdrawals().first();
    await demoRow.waitFor();
    const transId = (await demoRow.getAttribute('data-testid'))!.replace('qa-withdrawal-', '');
    await qa.close();

    // Before: History knows the request, not a payment.
    await page.goto(`${mock.url}/dashboard/history`);
    const rows = page.getByTestId('data-table').locator('tbody tr');
    await page.getByLabel('Search', { exact: true }).fill(transId);
    // Only this withdrawal's rows, once the (debounced) search applies.
    const types = async () => {
      const texts = await rows.allInnerTexts();
      return texts.length > 0 && texts.every((t) => t.includes(transId))
        ? texts.map((t) => (t.match(/Withdrawal \w+/) ?? [''])[0]).sort()
        : [];
    };
    await expect.poll(types).toContain('Withdrawal Request');
    expect(await types()).not.toContain('Withdrawal Paid');

    await qa.open('Withdrawals');
    await qa
      .panel()
      .getByRole('button', { name: `Approve ${transId}` })
      .click();
    await expectToast(page, `Withdrawal ${transId} approved`);
    await qa.panel().getByTestId(`qa-withdrawal-${transId}`).waitFor({ state: 'detached' });
    await qa.close();
    // The table behind the panel was refreshed by the approval.
    await expect.poll(types).toContain('Withdrawal Paid');
    const pending = await api<{ TransID: string }[]>(mock, '/__qa/withdrawals?status=PENDING');
    expect(pending.map((w) => w.TransID)).not.toContain(transId);
  });

  it('turns a quick fault on and off; the journal shows the call it failed', async () => {
    await signIn(page, mock, 'demo', 'Demo@1234');
    await qa.open('Faults');
    const toggle = qa.panel().getByLabel('500 on /user/view_profile');
    const toggleLabel = qa.panel().getByText('500 on /user/view_profile', { exact: true });
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    await toggleLabel.click();
    await expect
      .poll(async () =>
        (await api<{ path: string; status?: number }[]>(mock, '/__qa/faults')).filter(
          (r) => r.path === '/user/view_profile' && r.status === 500,
        ),
      )
      .toHaveLength(1);
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await qa.close();

    // The settings page reads the profile: that call now fails, and the journal says so.
    await page.goto(`${mock.url}/dashboard/settings`);
    await qa.open('Journal');
    await qa.panel().getByLabel('Member').fill('demo');
    const failed = qa
      .panel()
      .getByTestId('qa-journal-entry')
      .filter({ hasText: '/user/view_profile' })
      .filter({ hasText: '500' })
      .first();
    await failed.waitFor();
    expect(await failed.innerText()).toContain('fault');

    await qa.panel().getByRole('tab', { name: 'Faults' }).click();
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    await toggleLabel.click();
    await expect.poll(async () => (await api<unknown[]>(mock, '/__qa/faults')).length).toBe(0);
  });

  it('resets to demo after a confirmation: the pending withdrawal is back and the ledger balances', async () => {
    const pendingOfDemo = async () =>
      (await api<{ TransID: string; username?: string }[]>(mock, '/__qa/withdrawals?status=PENDING')).filter(
        (w) => w.username === 'demo',
      );
    // The world starts as the demo: approve its pending withdrawals, so only the reset brings them back.
    for (const { TransID } of await pendingOfDemo())
      await api(mock, `/__qa/withdrawals/${TransID}/approve`, {});
    expect(await pendingOfDemo()).toEqual([]);
    await page.goto(`${mock.url}/`);
    await qa.open('Data');
    await qa.panel().getByRole('button', { name: 'Reset to demo' }).click();
    const confirm = page.getByRole('dialog', { name: "Reset to 'demo'?" });
    await confirm.getByRole('button', { name: 'Reset', exact: true }).click();
    // A reset re-runs the demo's 91 simulated days: seconds of CPU, more while the other projects share the cores.
    await expectToast(page, "Reset to 'demo'", 45_000);
    await confirm.waitFor({ state: 'detached' });
    expect((await pendingOfDemo()).length).toBeGreaterThan(0);

    await qa.panel().getByRole('tab', { name: 'Withdrawals' }).click();
    await demoWithdrawals().first().waitFor();
    await qa.panel().getByRole('tab', { name: 'Data' }).click();
    await qa.panel().getByRole('button', { name: 'Check ledger' }).click();
    await expect.poll(() => qa.panel().getByTestId('qa-ledger-result').innerText()).toContain('Ledger OK');
    await qa.close();
    await signIn(page, mock, 'demo', 'Demo@1234');
  });
});

describe('QA panel in provider mode', () => {
  let page!: Page;
  freshPagePerTest(provider, { width: 1280, height: 900 }, (fresh) => (page = fresh));

  it('is not there, though this server offers QA control too', async () => {
    const config = (await (await fetchIn(provider, '/config.json')).json()) as {
      mode: string;
      capabilities: string[];
    };
    expect(config).toMatchObject({ mode: 'provider' });
    expect(config.capabilities).toContain('qa');

    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(`${provider.url}/`);
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: 'QA panel' }).count()).toBe(0);
    // Not even its code is fetched.
    expect(scripts.some((url) => /qa-panel/.test(url))).toBe(false);

    await signIn(page, provider, 'demo', 'Demo@1234');
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: 'QA panel' }).count()).toBe(0);
  });
});
