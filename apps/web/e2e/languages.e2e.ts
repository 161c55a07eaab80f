/**
 * The app in each language in a real browser, at a phone's 375 px: sign-in in the language the
 * browser asks for or the member picks (remembered after a reload), then home, wallets and a
 * wallet swap in Spanish, Portuguese and Arabic (right to left), every text the catalog's and
 * every figure the language's, the page never scrolling sideways. Then the pseudo-locale walk:
 * every screen at 375 and 1280 px in en-XA, where a catalog text reads "[Ŵàļļéţš ···]", so a
 * plain English word on screen was never in a catalog, and a label whose box cuts it is clipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { IntlMessageFormat } from 'intl-messageformat';
import { createFormatters, DEFAULT_PLAN } from '@md/shared';
import { intlLocaleOf, LOCALES, type AnyLocale } from '../src/lib/i18n/locales.ts';
import { DASHBOARD_ROUTES, layoutProblems, openRoute, PUBLIC_ROUTES, settle } from './screens.ts';
import { api, freshPagePerTest, signInWithToken } from './support.ts';

const server = inject('e2eServers').find((s) => s.mode === 'mock')!;
const PASSWORD = 'Demo@1234';
const PHONE = { width: 375, height: 812 };

const LOCALE_DIR = new URL('../src/locales/', import.meta.url);
/** A language's catalogs as the app merges them: `<namespace>.<key>`, English beneath. */
function catalogOf(locale: string): Record<string, string> {
  const own = (tag: string) =>
    Object.fromEntries(
      readdirSync(new URL(`${tag}/`, LOCALE_DIR))
        .filter((name) => name.endsWith('.json'))
        .flatMap((name) =>
          Object.entries(
            JSON.parse(readFileSync(new URL(`${tag}/${name}`, LOCALE_DIR), 'utf8')) as Record<string, string>,
          ).map(([key, message]) => [`${name.slice(0, -5)}.${key}`, message]),
        ),
    );
  return locale === 'en' ? own('en') : { ...own('en'), ...own(locale) };
}
/** What the app shows for a message in `locale`. */
const say = (locale: AnyLocale, id: string, values?: Record<string, string | number>) => {
  const message = catalogOf(locale)[id];
  if (message === undefined) throw new Error(`No message ${id}`);
  return String(new IntlMessageFormat(message, intlLocaleOf(locale)).format(values));
};
const money = (locale: AnyLocale, amount: number) =>
  createFormatters(intlLocaleOf(locale), 'UTC').money(amount);

const pageLanguage = (page: Page) =>
  page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));

describe('each language at 375 px', () => {
  let page!: Page;
  freshPagePerTest(server, PHONE, (fresh) => (page = fresh));

  it.each(LOCALES.map((locale) => [locale]))(
    '%s: sign-in from the menu (remembered), home, wallets and a wallet swap in the language',
    async (locale) => {
      // Sign-in in English first: the menu switches it, and a reload keeps the choice.
      await page.goto(`${server.url}/`);
      await page.getByTestId('language-select').selectOption(locale);
      await expect
        .poll(() => pageLanguage(page))
        .toEqual({ lang: locale, dir: locale === 'ar' ? 'rtl' : 'ltr' });
      await page.reload();
      await expect.poll(() => page.getByTestId('language-select').inputValue()).toBe(locale);
      await page.getByRole('button', { name: say(locale, 'auth.signIn.submit') }).waitFor();
      expect(await layoutProblems(page, 'sign-in: ')).toEqual([]);

      await page.getByLabel(say(locale, 'auth.username'), { exact: true }).fill('demo');
      await page.getByLabel(say(locale, 'auth.password'), { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: say(locale, 'auth.signIn.submit') }).click();
      await page.waitForURL(`${server.url}/dashboard`);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).innerText())
        .toBe(say(locale, 'nav.dashboard.heading', { username: 'demo' }));
      await settle(page);
      expect(await layoutProblems(page, 'home: ')).toEqual([]);

      // Wallets: the heading, and the Deposit balance the server holds, written the language's way.
      const token = await page.evaluate(() => localStorage.getItem('jwt'));
      const wallets = await api<{ Success: Record<string, { Available: number }> }>(
        server,
        '/wallet/view_all_wallets_details',
        {},
        token!,
      );
      await page.goto(`${server.url}/dashboard/wallets`);
      await settle(page);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(
        say(locale, 'nav.wallets.heading'),
      );
      const deposit = wallets.Success.Deposit!.Available;
      await expect.poll(() => page.locator('main').innerText()).toContain(money(locale, deposit));
      expect(await layoutProblems(page, 'wallets: ')).toEqual([]);
      expect(await pageLanguage(page)).toEqual({ lang: locale, dir: locale === 'ar' ? 'rtl' : 'ltr' });

      // A money flow in the language: the whole Direct wallet swapped into Deposit with MAX.
      const direct = wallets.Success.Direct!.Available;
      expect(direct).toBeGreaterThan(0);
      await page.getByRole('tab', { name: say(locale, 'wallets.tabs.swap') }).click();
      await page.getByLabel(say(locale, 'wallets.swap.from')).selectOption('Direct');
      await page.getByLabel(say(locale, 'wallets.swap.to')).selectOption('Deposit');
      await page.getByRole('button', { name: say(locale, 'wallets.swap.max') }).click();
      await page.getByRole('button', { name: say(locale, 'wallets.swap.submit'), exact: true }).click();
      await expect.poll(() => page.getByTestId('wallet-available-Direct').innerText()).toBe(money(locale, 0));
      await expect
        .poll(() => page.getByTestId('wallet-available-Deposit').innerText())
        .toBe(money(locale, Math.round((deposit + direct) * 1e6) / 1e6));
      expect(await layoutProblems(page, 'after the swap: ')).toEqual([]);
    },
  );

  it('starts in the browser’s language when the member has chosen none', async () => {
    await page.goto(`${server.url}/`);
    // The language a browser asks for in Brazil, as navigator.languages says it.
    await page.evaluate(() => Object.defineProperty(navigator, 'languages', { value: ['pt-BR', 'en'] }));
    await page.addInitScript(() => Object.defineProperty(navigator, 'languages', { value: ['pt-BR', 'en'] }));
    await page.reload();
    await page.getByRole('button', { name: say('pt-BR', 'auth.signIn.submit') }).waitFor();
    expect(await pageLanguage(page)).toEqual({ lang: 'pt-BR', dir: 'ltr' });
  });
});

describe('the catalogs in two parts', () => {
  let page!: Page;
  freshPagePerTest(server, { width: 1280, height: 900 }, (fresh) => (page = fresh));

  it('sign-in in English fetches no catalog; the form in use starts the rest, and the dashboard reads every namespace', async () => {
    const catalogs: string[] = [];
    const missing: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/catalog-/.test(request.url())) catalogs.push(new URL(request.url()).pathname);
    });
    page.on('console', (message) => {
      if (/MISSING_TRANSLATION|Missing message/i.test(message.text())) missing.push(message.text());
    });
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: say('en', 'auth.signIn.submit') }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(catalogs).toEqual([]);
    await page.getByLabel('Username').fill('demo');
    await expect.poll(() => catalogs.length).toBe(1);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: say('en', 'auth.signIn.submit') }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await settle(page);
    // Words of namespaces past sign-in's: the navigation and the home.
    await page
      .getByRole('heading', { level: 1, name: say('en', 'nav.dashboard.heading', { username: 'demo' }) })
      .waitFor();
    await expect.poll(() => page.locator('body').innerText()).toContain(say('en', 'home.run.title'));
    expect(catalogs).toHaveLength(1);
    expect(missing).toEqual([]);
  });
});

describe('Arabic at 1280 px', () => {
  let page!: Page;
  freshPagePerTest(server, { width: 1280, height: 900 }, (fresh) => (page = fresh));

  it('right to left on a desktop: the sidebar on the right, nothing crossing the edges', async () => {
    await signInWithToken(page, server, 'demo', PASSWORD);
    await page.evaluate(() => localStorage.setItem('language', 'ar'));
    for (const route of ['/dashboard', '/dashboard/wallets', '/dashboard/history', '/dashboard/settings']) {
      await openRoute(page, route);
      await settle(page);
      expect(await pageLanguage(page)).toEqual({ lang: 'ar', dir: 'rtl' });
      expect(await layoutProblems(page, `${route}: `)).toEqual([]);
      // The sidebar stands at the start side, the right in Arabic.
      const sidebar = await page.getByRole('navigation').first().boundingBox();
      expect(sidebar!.x + sidebar!.width, route).toBeGreaterThan(1280 - 2);
    }
  });
});

/**
 * What a pseudo-locale page shows outside the catalogs: a text or a label with a plain English word
 * and none of the pseudo-locale's accents (a catalog message keeps its values plain inside its
 * accents: "[Ŵéļçöɱé, demo ···]" is translated). Names and data are not words to translate: product
 * and plan names, units, month names from Intl, identifiers (with digits, '_', '@' or '.'), the
 * member's own username, and what the provider wrote, shown as sent (marked data-provider-text); the
 * QA world badge and panel button are the testers' (English). Then a catalog text its box cuts off.
 */
function untranslated(page: Page, label: string, kept: readonly string[]): Promise<string[]> {
  return page.evaluate(
    ([prefix, keptWords]) => {
      const KEPT = new Set(keptWords);
      const PSEUDO = /[àƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀßÇÐÉƑĜĤÎĴĶĻḾÑÖÞǪŘŠŢÛṼŴẊÝŽ]/;
      const plainWords = (text: string) =>
        text
          .split(/\s+/)
          .map((token) => token.replace(/^[(["'“‘]+|[)\]"'”’.,:;!?…]+$/g, ''))
          .filter((token) => /^[A-Za-z]{3,}$/.test(token) && !KEPT.has(token));
      const untranslatedText = (text: string) => !PSEUDO.test(text) && plainWords(text).length > 0;
      const skipped = (el: Element) =>
        el.closest(
          '[translate="no"], [data-provider-text], script, style, noscript, [data-scope="toast"], [data-testid="qa-world-badge"], [data-testid="qa-panel-toggle"], [role="dialog"][aria-label="QA panel"]',
        ) !== null;
      const problems = new Set<string>();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        const text = (node.textContent ?? '').trim();
        if (!el || !text || skipped(el) || el.getClientRects().length === 0) continue;
        if (getComputedStyle(el).visibility === 'hidden') continue;
        if (untranslatedText(text)) problems.add(`${prefix}"${text.slice(0, 60)}"`);
      }
      for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
        if (skipped(el)) continue;
        for (const name of ['aria-label', 'title', 'placeholder']) {
          const value = el.getAttribute(name);
          if (value && untranslatedText(value)) problems.add(`${prefix}${name}="${value.slice(0, 60)}"`);
        }
      }
      // A catalog text whose box is narrower than the text and does not wrap or scroll: cut off.
      // (Visually hidden text, a 1 px box read by screen readers, is not cut for anyone.)
      for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
        if (skipped(el) || el.children.length > 0 || !PSEUDO.test(el.textContent ?? '')) continue;
        if (el.clientWidth <= 1 || el.getClientRects().length === 0) continue;
        const style = getComputedStyle(el);
        if (style.overflowX === 'visible' && style.textOverflow !== 'ellipsis') continue;
        if (el.scrollWidth > el.clientWidth + 1)
          problems.add(
            `${prefix}clipped (${el.clientWidth} of ${el.scrollWidth} px): "${el.textContent?.slice(0, 60)}"`,
          );
      }
      return [...problems];
    },
    [label, kept] as const,
  );
}

/** Names the app writes the same in every language: plan and rank names, units, Intl's month names. */
const KEPT_WORDS = [
  ...['USDT', 'BEP20', 'P2P', 'TOTP', 'OTP', 'ROI', 'USD', 'GMT', 'UTC', 'BSC', 'ID', 'PDF', 'CSV'],
  ...DEFAULT_PLAN.packages.map((plan) => plan.name),
  ...DEFAULT_PLAN.ranks.map((rank) => rank.name),
  ...Array.from({ length: 12 }, (_, month) => [
    new Date(Date.UTC(2026, month, 1)).toLocaleString('en', { month: 'short', timeZone: 'UTC' }),
    new Date(Date.UTC(2026, month, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' }),
  ]).flat(),
  // The member signed in (a username is a name).
  'demo',
];

describe.each([375, 1280])('the pseudo-locale at %i px', (width) => {
  let page!: Page;
  freshPagePerTest(server, { width, height: width < 768 ? 812 : 900 }, (fresh) => (page = fresh));

  it('every screen and tab: nothing outside the catalogs, nothing clipped', async () => {
    const problems: string[] = [];
    const look = async (route: string) => {
      await openRoute(page, route);
      await settle(page);
      problems.push(...(await untranslated(page, `${route}: `, KEPT_WORDS)));
      const tabs = page.locator('main').getByRole('tab');
      for (let i = 1; i < (await tabs.count()); i++) {
        await tabs.nth(i).click();
        await expect.poll(() => tabs.nth(i).getAttribute('aria-selected')).toBe('true');
        await settle(page);
        problems.push(...(await untranslated(page, `${route} [tab ${i}]: `, KEPT_WORDS)));
      }
    };
    await page.goto(`${server.url}/config.json`);
    await page.evaluate(() => localStorage.setItem('language', 'en-XA'));
    for (const route of PUBLIC_ROUTES) await look(route);
    await signInWithToken(page, server, 'demo', PASSWORD);
    for (const route of DASHBOARD_ROUTES) await look(route);
    expect(problems).toEqual([]);
  });
});
