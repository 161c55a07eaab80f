/**
 * Why each payout, where each withdrawal is, and monthly statements, in the browser, in both client
 * modes at 1280 and 375 px. Mock: the payout_details, withdrawal_timeline and statements extensions.
 * Provider: the page is told the provider offers none of them, so the fallbacks run (a Level Bonus
 * row explains itself, other payouts say the provider has no detail, the timeline comes from the
 * status word, the statement is built on the device and says so, and still equals the ledger's).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, freshPagePerTest, signInWithToken } from './support.ts';

const servers = inject('e2eServers');
const EXTENSIONS = ['payout_details', 'withdrawal_timeline', 'statements'];
const cases = servers.flatMap((server) => [1280, 375].map((width) => ({ server, width, mode: server.mode })));

type Statement = { Opening: number; Closing: number; Total_Credits: number; Total_Debits: number };
/** A statement's amount: one currency, after the figure ("1,065.75 USDT"). */
const money = (n: number) =>
  `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })} USDT`;

describe.each(cases)(
  'payout details, withdrawal timeline and statements in $mode mode at $width px',
  ({ server, width }) => {
    let page!: Page;
    freshPagePerTest(server, { width, height: width < 768 ? 812 : 900 }, (fresh) => (page = fresh));
    const extensions = server.mode === 'mock';

    async function openAs() {
      if (!extensions) {
        await page.route('**/config.json', async (route) => {
          const response = await route.fetch();
          const config = (await response.json()) as { capabilities: string[] };
          await route.fulfill({
            response,
            json: {
              ...config,
              capabilities: config.capabilities.filter((name) => !EXTENSIONS.includes(name)),
            },
          });
        });
      }
      await signInWithToken(page, server, 'demo', 'Demo@1234');
    }

    async function searchHistory(text: string) {
      await page.goto(`${server.url}/dashboard/history`);
      // On a phone the search is behind Filter.
      if (width < 768) await page.getByRole('button', { name: 'Filter' }).click();
      // The searched page replaces the first one (a dialog opened from a row that leaves closes with it): wait for its answer.
      const searched = page.waitForResponse(
        (response) =>
          decodeURIComponent(response.url() + (response.request().postData() ?? '')).includes(text) &&
          response.url().includes('earning'),
      );
      await page.getByPlaceholder('Search transactions...').fill(text);
      await searched;
    }
    /** demo's withdrawals as QA lists them (TransIDs depend on when the scenario was seeded). */
    const demoWithdrawal = async (status: 'APPROVED' | 'PENDING') =>
      (await api<{ TransID: string; username: string }[]>(server, `/__qa/withdrawals?status=${status}`)).find(
        (w) => w.username === 'demo',
      )!.TransID;

    it('explains a binary payout from History and a level income from Bonus, one tap from the row', async () => {
      await openAs();
      // The Type as the table shows it finds the rows.
      await searchHistory('Binary Income');
      const why = page.getByRole('button', { name: /^Why this payout: BV/ }).first();
      await why.waitFor({ timeout: 30_000 });
      const transId = (await why.getAttribute('aria-label'))!.replace('Why this payout: ', '');
      await why.click();
      const dialog = page.getByRole('dialog', { name: `Payout ${transId}` });
      await dialog.waitFor();
      if (extensions) {
        const legs = dialog.getByRole('table', { name: 'Your left and right team volume that day' });
        await legs.waitFor();
        for (const label of [
          'Carried over from the day before',
          'New volume from team purchases',
          'Total that day',
          'Carried over to the next day',
          'Removed (not carried over)',
          'Paired and paid on',
        ])
          await legs.getByText(label, { exact: true }).waitFor();
        const token = await page.evaluate(() => localStorage.getItem('jwt') ?? '');
        const served = await api<{ Success: { Received: number; Binary: { Matched: number } } }>(
          server,
          '/earning/view_payout_details',
          { trans_id: transId },
          token,
        );
        const text = await dialog.innerText();
        expect(text).toContain(
          `$${served.Success.Binary.Matched.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} of volume on your left team`,
        );
        // Days as the app writes them, never the ISO form.
        expect(text).toMatch(/Binary income for \w{3} \d{2}, \d{4}:/);
        expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
        expect(text).toMatch(/Left to earn before this/);
      } else {
        await dialog.getByTestId('payout-details-unavailable').waitFor();
        expect(await dialog.innerText()).toContain('The provider does not offer payout details');
      }
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await dialog.waitFor({ state: 'hidden' });

      await page.goto(`${server.url}/dashboard/bonus`);
      await page.getByRole('tab', { name: 'Level Bonus' }).click();
      const level = page.getByRole('button', { name: /^Why this payout: LI/ }).first();
      await level.waitFor({ timeout: 30_000 });
      await level.click();
      const details = page.getByTestId('payout-details');
      await details.waitFor();
      // Either way the downline member and the level are there; the extension adds the cap room.
      expect(await details.innerText()).toMatch(
        extensions
          ? /(Direct|Level \d) income: .*% of the \$[\d,.]+ package \w+ bought/
          : /From the Level Bonus row/,
      );
    });

    it('shows where a withdrawal is: the approved one paid with its BscScan link, the pending one waiting', async () => {
      await openAs();
      const approved = await demoWithdrawal('APPROVED');
      const pending = await demoWithdrawal('PENDING');
      await searchHistory(approved);
      const track = page.getByRole('button', { name: `Track withdrawal ${approved}` }).first();
      await track.waitFor({ timeout: 30_000 });
      await track.click();
      const timeline = page.getByTestId('withdrawal-timeline');
      await timeline.waitFor();
      if (extensions) {
        await timeline.getByText('Paid', { exact: true }).waitFor();
        const link = timeline.getByRole('link', { name: /on BscScan/ });
        expect(await link.getAttribute('href')).toMatch(/^https:\/\/bscscan\.com\/tx\/0x[0-9a-f]{64}$/);
        expect(await link.getAttribute('rel')).toContain('noopener');
      } else {
        await timeline.getByTestId('timeline-from-status').waitFor();
        await timeline.getByText('Approved and paid', { exact: true }).waitFor();
        expect(await timeline.getByRole('link').count()).toBe(0);
      }
      await page.keyboard.press('Escape');
      await timeline.waitFor({ state: 'hidden' });

      await searchHistory(pending);
      await page
        .getByRole('button', { name: `Track withdrawal ${pending}` })
        .first()
        .click();
      await page.getByTestId('withdrawal-timeline').getByText('Waiting for approval').waitFor();
    });

    it('gives a wallet’s monthly statement that equals the ledger’s, as CSV and as PDF (jsPDF loaded only then)', async () => {
      const jspdf: string[] = [];
      page.on('request', (request) => {
        if (/jspdf/i.test(request.url())) jspdf.push(request.url());
      });
      await openAs();
      await page.goto(`${server.url}/dashboard/wallets`);
      const statement = page.getByTestId('statement');
      await page.getByLabel('Wallet', { exact: true }).selectOption('ROI');
      await statement.waitFor({ timeout: 30_000 });
      // The months count back from the server's clock: the first statement says which month is current.
      const monthSelect = page.getByLabel('Month', { exact: true });
      await expect.poll(() => monthSelect.inputValue()).toMatch(/^\d{4}-\d{2}$/);
      const month = await monthSelect.inputValue();
      const token = await page.evaluate(() => localStorage.getItem('jwt') ?? '');
      const ledger = (
        await api<{ Success: Statement }>(server, '/wallet/view_statement', { wallet: 'ROI', month }, token)
      ).Success;
      const shown = await statement.getByRole('table', { name: /wallet statement/ }).innerText();
      // Built from the ledger (mock) or on the device from the history and the balance (provider): the same figures.
      expect(shown).toContain(money(ledger.Opening));
      expect(shown).toContain(money(ledger.Closing));
      expect(shown).toContain(money(ledger.Total_Credits));
      expect(await page.getByTestId('statement-on-device').count()).toBe(extensions ? 0 : 1);

      const [csv] = await Promise.all([
        page.waitForEvent('download'),
        statement.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      expect(csv.suggestedFilename()).toBe(`statement-roi-${month}.csv`);
      const text = await readFile((await csv.path())!, 'utf8');
      expect(text).toMatch(/Closing balance,"Balance (at|as of) /);
      expect(text).toContain(`,${ledger.Closing}\r\n`);

      expect(jspdf).toEqual([]);
      const [pdf] = await Promise.all([
        page.waitForEvent('download', { timeout: 60_000 }),
        statement.getByRole('button', { name: 'Download PDF' }).click(),
      ]);
      expect(pdf.suggestedFilename()).toBe(`statement-roi-${month}.pdf`);
      expect((await readFile((await pdf.path())!)).subarray(0, 5).toString()).toBe('%PDF-');
      expect(jspdf.length).toBeGreaterThan(0);
    });
  },
);
