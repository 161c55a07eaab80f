/**
 * Statements to file, in the browser, in a QA world whose clock is months ahead of the device's
 * (set to February 2027 while the device still reads November 2026), in a member's time zone
 * other than the server's (New York). The months offered are the server's; the current month is
 * "as of" the moment it was made; the PDF, read back with PDF.js, carries a letterhead (the app's
 * name, member, wallet, period), the totals by reason and every line item of the ledger (its date
 * in the member's zone with the zone named, reason, reference, amount and running balance), one
 * currency (USDT, no dollar sign), and the same reference when downloaded again. A page of it is
 * rendered by PDF.js in Chromium and kept as a PNG to look at, beside the statement screen at 1280
 * and 375 px, light and dark (in the temporary folder: statement-*.png).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newTestContext } from './browser.ts';
import { api, endWorld, newWorld, signInWithToken } from './support.ts';

const server = inject('e2eServers').find((s) => s.mode === 'mock')!;
const TIME_ZONE = 'America/New_York';
/** The world's clock: the 10th of the month three after this device's, 14:00 UTC (February 2027 from November 2026). */
const device = new Date();
const WORLD_NOW = new Date(Date.UTC(device.getUTCFullYear(), device.getUTCMonth() + 3, 10, 14)).toISOString();
/** The months from the world's back, YYYY-MM, newest first. */
const worldMonths = Array.from({ length: 24 }, (_, i) =>
  new Date(Date.UTC(device.getUTCFullYear(), device.getUTCMonth() + 3 - i, 1)).toISOString().slice(0, 7),
);
const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

interface Line {
  DateTime: string;
  Reason: string;
  Reference: string;
  Amount: number;
  Balance: number;
}
interface Statement {
  Wallet: string;
  Month: string;
  From: string;
  To: string;
  Opening: number;
  Credits: { Reason: string; Count: number; Amount: number }[];
  Total_Credits: number;
  Debits: { Reason: string; Count: number; Amount: number }[];
  Total_Debits: number;
  Closing: number;
  As_Of: string;
  Made_At: string;
  Reference: string;
  Lines: Line[];
  Line_Count: number;
}

const figure = (n: number) =>
  (n === 0 ? 0 : n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });
/** The app's 'MMM dd, yyyy HH:mm' in the member's zone with the zone named, worked out here on its own. */
function zoned(iso: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: TIME_ZONE,
      year: 'numeric',
      month: 'short',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.month} ${parts.day}, ${parts.year} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}
/** The PDF's text as PDF.js reads it, a line per row of print (items at one height, left to right). */
async function pdfText(path: string): Promise<{ pages: number; lines: string[] }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(await readFile(path)),
    isEvalSupported: false,
    standardFontDataUrl: `${join(pdfjsRoot(), 'standard_fonts')}/`,
  }).promise;
  const lines: string[] = [];
  for (let number = 1; number <= doc.numPages; number++) {
    const page = await doc.getPage(number);
    const rows = new Map<number, { x: number; text: string }[]>();
    for (const item of (await page.getTextContent()).items) {
      if (!('str' in item) || !item.str.trim()) continue;
      const y = Math.round(item.transform[5] as number);
      rows.set(y, [...(rows.get(y) ?? []), { x: item.transform[4] as number, text: item.str.trim() }]);
    }
    for (const [, row] of [...rows].sort(([a], [b]) => b - a))
      lines.push(
        row
          .sort((a, b) => a.x - b.x)
          .map((cell) => cell.text)
          .join(' '),
      );
  }
  await doc.destroy();
  return { pages: doc.numPages, lines };
}

const pdfjsRoot = () => dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/**
 * The page that draws page 1 of a PDF with PDF.js (its browser build, served by the test under a
 * made-up origin so that its worker is same-origin): sets `window.drawn` to the share of inked pixels.
 */
const VIEWER = `<!doctype html><body style="margin:0"><script type="module">
import * as pdfjs from '/build/pdf.min.mjs';
pdfjs.GlobalWorkerOptions.workerSrc = '/build/pdf.worker.min.mjs';
const base64 = await (await fetch('/statement.b64')).text();
const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const doc = await pdfjs.getDocument({ data, standardFontDataUrl: '/standard_fonts/' }).promise;
const page = await doc.getPage(1);
const viewport = page.getViewport({ scale: 1.5 });
const canvas = document.createElement('canvas');
canvas.width = viewport.width;
canvas.height = viewport.height;
canvas.style.display = 'block';
document.body.append(canvas);
const context = canvas.getContext('2d');
context.fillStyle = '#fff';
context.fillRect(0, 0, canvas.width, canvas.height);
await page.render({ canvas, canvasContext: context, viewport }).promise;
const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
let dark = 0;
for (let i = 0; i < pixels.length; i += 4) if (pixels[i] < 128) dark++;
window.drawn = dark / (pixels.length / 4);
</script></body>`;

/** Page 1 of the PDF drawn by PDF.js in Chromium; the PNG is kept at `out`. Answers the share of inked pixels. */
async function renderFirstPage(context: BrowserContext, path: string, out: string): Promise<number> {
  const root = pdfjsRoot();
  const viewer = await context.newPage();
  try {
    await viewer.route('http://pdf.test/**', async (route) => {
      const file = new URL(route.request().url()).pathname;
      if (file === '/') return route.fulfill({ contentType: 'text/html', body: VIEWER });
      if (file === '/statement.b64')
        return route.fulfill({ contentType: 'text/plain', body: (await readFile(path)).toString('base64') });
      if (!/^\/(build|standard_fonts)\/[\w.-]+$/.test(file)) return route.fulfill({ status: 404 });
      return route.fulfill({
        contentType: file.endsWith('.mjs') ? 'text/javascript' : 'application/octet-stream',
        body: await readFile(join(root, file)),
      });
    });
    await viewer.goto('http://pdf.test/');
    const inked = (await (
      await viewer.waitForFunction(() => (window as unknown as { drawn?: number }).drawn, undefined, {
        timeout: 30_000,
      })
    ).jsonValue()) as number;
    await viewer.locator('canvas').screenshot({ path: out });
    return inked;
  } finally {
    await viewer.close();
  }
}

describe('statements to file in a world whose clock is months ahead', () => {
  let browser!: Browser;
  let context!: BrowserContext;
  let page!: Page;
  let now!: number;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());
  beforeEach(async () => {
    context = await newTestContext(browser, {
      viewport: { width: 1280, height: 900 },
      timezoneId: TIME_ZONE,
      acceptDownloads: true,
    });
    await newWorld(server, context);
    // Months after this device's clock (which the app would otherwise count its months from).
    const moved = await api<{ now: string }>(server, '/__qa/clock?wait=true', { set: WORLD_NOW });
    now = Date.parse(moved.now);
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
    await endWorld(server);
  });

  async function download(statement: ReturnType<Page['getByTestId']>) {
    const [pdf] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      statement.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    return { name: pdf.suggestedFilename(), path: (await pdf.path())! };
  }

  it('offers the server’s months, is as of the moment made, and files a PDF equal to the ledger', async () => {
    const token = await signInWithToken(page, server, 'demo', 'Demo@1234');
    await page.goto(`${server.url}/dashboard/wallets`);
    await page.getByLabel('Wallet', { exact: true }).selectOption('ROI');
    const statement = page.getByTestId('statement');
    await statement.waitFor({ timeout: 30_000 });
    const worldMonth = new Date(now).toISOString().slice(0, 7);
    expect(worldMonth).toBe(worldMonths[0]);
    const lastMonth = worldMonths[1]!;

    // The months run back from the server's clock, not the device's (still November 2026).
    const monthSelect = page.getByLabel('Month', { exact: true });
    await expect.poll(() => monthSelect.inputValue()).toBe(worldMonth);
    const offered = await monthSelect.locator('option').allInnerTexts();
    expect(offered).toEqual(worldMonths.map(monthLabel));
    expect(offered).not.toContain(
      monthLabel(
        new Date(Date.UTC(device.getUTCFullYear(), device.getUTCMonth() + 4, 1)).toISOString().slice(0, 7),
      ),
    );
    expect(offered).toHaveLength(24);

    const ledger = (
      await api<{ Success: Statement }>(
        server,
        '/wallet/view_statement',
        { wallet: 'ROI', month: worldMonth },
        token,
      )
    ).Success;
    expect(ledger.Lines.length).toBeGreaterThan(0);
    expect(Date.parse(ledger.As_Of)).toBeLessThanOrEqual(
      Date.parse((await api<{ now: string }>(server, '/__qa/clock')).now),
    );
    // On screen: as of a moment no later than the world's now, the ledger's reference, its figures.
    // (The world's clock runs on from where it was set: the page's statement was made a moment before this one.)
    const asOfText = await page.getByTestId('statement-as-of').innerText();
    expect(asOfText).toMatch(/ \(this month so far\)$/);
    const asOf = asOfText.replace(' (this month so far)', '');
    expect([zoned(ledger.As_Of), zoned(new Date(Date.parse(ledger.As_Of) - 60_000).toISOString())]).toContain(
      asOf,
    );
    expect(asOf.startsWith(zoned(WORLD_NOW).slice(0, 12))).toBe(true);
    expect(await page.getByTestId('statement-reference').innerText()).toBe(ledger.Reference);
    const summary = await statement.getByRole('table', { name: /ROI wallet statement/ }).innerText();
    expect(summary).toContain(`${figure(ledger.Opening)} USDT`);
    expect(summary).toContain(`${figure(ledger.Closing)} USDT`);
    expect(summary).not.toContain('$');
    const items = statement.getByRole('table', { name: 'Line items' });
    await expect.poll(() => items.locator('tbody tr').count()).toBe(ledger.Lines.length);

    const first = await download(statement);
    expect(first.name).toBe(`statement-roi-${worldMonth}.pdf`);
    const { pages, lines } = await pdfText(first.path);
    const text = lines.join('\n');
    // The letterhead: the app's name, the member, the wallet, the period and its as-of.
    expect(lines[0]).toBe('Member Dashboard Wallet statement');
    expect(text).toMatch(/^Member (.+ \()?demo\)?$/m);
    expect(text).toContain('Wallet ROI wallet');
    expect(text).toContain(`Period ${monthLabel(worldMonth)} (a calendar month in UTC)`);
    expect(text).toContain(`From ${zoned(ledger.From)}`);
    expect(text).toContain(`As of ${asOf} (the month is not over: the figures stop here)`);
    expect(text).toContain(`Times in ${TIME_ZONE}`);
    expect(text).toContain(`Reference ${ledger.Reference}`);
    // One currency, and no machine timestamps.
    expect(text).not.toContain('$');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(text).not.toContain(ledger.To.slice(0, 10));
    // The summary: opening, totals by reason, closing, each equal to the ledger's.
    expect(text).toContain(`Opening balance Balance at ${zoned(ledger.From)} ${figure(ledger.Opening)} USDT`);
    for (const c of ledger.Credits)
      expect(text).toContain(`Credit ${c.Reason} ${c.Count} ${figure(c.Amount)} USDT`);
    for (const d of ledger.Debits)
      expect(text).toContain(`Debit ${d.Reason} ${d.Count} ${figure(-d.Amount)} USDT`);
    expect(text).toContain(`Total credits ${figure(ledger.Total_Credits)} USDT`);
    expect(text).toContain(`Total debits ${figure(-ledger.Total_Debits)} USDT`);
    expect(text).toContain(`Closing balance Balance as of ${asOf} ${figure(ledger.Closing)} USDT`);
    // Every line item of the ledger, in order, with its running balance.
    const printed = lines.filter((line) => /^[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} E[SD]T /.test(line));
    expect(printed).toEqual(
      ledger.Lines.map(
        (l) => `${zoned(l.DateTime)} ${l.Reason} ${l.Reference} ${figure(l.Amount)} ${figure(l.Balance)}`,
      ),
    );
    expect(text).toContain(`Balance as of now ${figure(ledger.Closing)}`);
    expect(text).toContain(`Page ${pages} of ${pages}`);

    // Downloaded again: the same statement, the same reference.
    const again = await pdfText((await download(statement)).path);
    expect(again.lines.find((l) => l.startsWith('Reference '))).toBe(`Reference ${ledger.Reference}`);

    // A page of it, drawn as a reader draws it, to look at.
    const inked = await renderFirstPage(context, first.path, join(tmpdir(), 'statement-pdf-page1.png'));
    expect(inked).toBeGreaterThan(0.005);
    expect(inked).toBeLessThan(0.5);

    // A month that has ended: closed at its end, the month before the world's.
    await monthSelect.selectOption(lastMonth);
    await expect
      .poll(() => page.getByTestId('statement-as-of').innerText())
      .toBe(zoned(`${worldMonth}-01T00:00:00.000Z`));
    const january = (
      await api<{ Success: Statement }>(
        server,
        '/wallet/view_statement',
        { wallet: 'ROI', month: lastMonth },
        token,
      )
    ).Success;
    const closed = (await pdfText((await download(statement)).path)).lines.join('\n');
    expect(closed).toContain(`Closed at ${zoned(january.To)} (the start of the next month, excluded)`);
    expect(closed).toContain(
      `Closing balance Balance at ${zoned(january.To)} ${figure(january.Closing)} USDT`,
    );
    expect(closed).toContain(`Reference ${january.Reference}`);
    expect(january.Reference).not.toBe(ledger.Reference);
  });

  it('shows the statement screen at 1280 and 375 px, light and dark, nothing wider than the screen', async () => {
    await signInWithToken(page, server, 'demo', 'Demo@1234');
    for (const theme of ['light', 'dark'])
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
        await page.evaluate((value) => localStorage.setItem('theme', value), theme);
        await page.goto(`${server.url}/dashboard/wallets`);
        await page.getByLabel('Wallet', { exact: true }).selectOption('ROI');
        const statement = page.getByTestId('statement');
        await statement.waitFor({ timeout: 30_000 });
        await statement.getByRole('table', { name: 'Line items' }).waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );
        await page.getByRole('region', { name: 'Statements' }).scrollIntoViewIfNeeded();
        await page.getByRole('region', { name: 'Statements' }).screenshot({
          path: join(tmpdir(), `statement-${width}-${theme}.png`),
        });
      }
  });
});
