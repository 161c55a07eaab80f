/** The system Chromium, driven by playwright-core: never a downloaded browser. */
import { existsSync } from 'node:fs';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type Worker,
} from 'playwright-core';

/** The system Chromium, the whole browser: Lighthouse and Chrome's own install verdict want it. */
export function browserPath(): string {
  return firstFound(
    [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'],
    'No Chromium found. Install one (Debian: apt-get update && apt-get install -y chromium) or set CHROME_PATH.',
  );
}

/**
 * The browser the tests drive: Debian's Chromium headless shell (the same engine and build as
 * /usr/bin/chromium, without the browser's UI layer), which spent about a fifth less CPU per test
 * than the whole browser in headless mode; the whole browser when the shell is not installed.
 */
export function testBrowserPath(): string {
  return firstFound(
    [
      process.env.TEST_BROWSER_PATH,
      '/usr/bin/chromium-headless-shell',
      process.env.CHROME_PATH,
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
    ],
    'No Chromium found for the browser tests. Install one (Debian: apt-get update && apt-get install -y chromium-headless-shell chromium) or set TEST_BROWSER_PATH.',
  );
}

function firstFound(candidates: (string | undefined)[], missing: string): string {
  const found = candidates.find((path) => path && existsSync(path));
  if (!found) throw new Error(missing);
  return found;
}

/**
 * `scrollbars`: shown, taking room as on a desktop (and in Lighthouse's Chromium); playwright hides
 * them by default, as a phone overlays them.
 */
export const launchBrowser = ({ scrollbars = false } = {}): Promise<Browser> =>
  chromium.launch({
    executablePath: testBrowserPath(),
    headless: true,
    ...(scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
      // V8 stops at Sparkplug, its baseline compiler: a test's pages live seconds, and optimising
      // them with TurboFan cost the renderer ~30 % more CPU than it saved (the same JavaScript
      // semantics at every tier; Lighthouse's runs keep the default).
      '--js-flags=--max-opt=1',
      // One renderer process for the browser's pages, kept from page to page: a kept page's next
      // app start finds the app's scripts compiled in that process (V8's in-memory cache) and no
      // process to start, 0.7-1.1 s of renderer CPU instead of 1.6-2.0 s. Site isolation, which
      // would give each site and about:blank a process of its own, guards against hostile sites;
      // the tests visit only their own server.
      '--renderer-process-limit=1',
      '--disable-site-isolation-trials',
    ],
  });

/**
 * A browser context for a test. Service workers are blocked unless a test asks for them (the PWA
 * and deployment tests): the app starts its worker 10 s after load, and its install downloads and
 * caches the whole build, so in a test that ran past it, it competed with the test's own chunks and
 * calls, and in a context kept for many tests it took over their later pages.
 */
export const newTestContext = (browser: Browser, options: BrowserContextOptions = {}) =>
  browser.newContext({ serviceWorkers: 'block', ...options });

/**
 * What a context's pages did, kept while a test runs and printed if it fails: every request (when
 * it started, how it ended, in ms from the start), console errors and warnings, page errors and
 * service workers. A flake that misses a toast shows whether a chunk, a call or the page stalled.
 * Pages opened in the context are followed; `follow` adds one opened before (a page kept from an
 * earlier test, whose listeners went with that test: reusablePage).
 */
export function traceContext(context: BrowserContext) {
  const start = Date.now();
  const lines: string[] = [];
  let recording = true;
  const note = (line: string) => {
    if (!recording) return;
    lines.push(`${String(Date.now() - start).padStart(6)} ms  ${line}`);
    if (lines.length > 400) lines.shift();
  };
  const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
  const onWorker = (worker: Worker) => note(`service worker ${short(worker.url())}`);
  const follow = (page: Page) => {
    page.on('request', (r) => note(`→ ${r.method()} ${short(r.url())}`));
    page.on('requestfinished', async (r) => {
      const response = await r.response().catch(() => null);
      note(`← ${response?.status() ?? '?'} ${r.method()} ${short(r.url())}`);
    });
    page.on('requestfailed', (r) => note(`✗ ${r.method()} ${short(r.url())}: ${r.failure()?.errorText}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') note(`console.${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (error) => note(`page error: ${error.message}`));
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) note(`navigated to ${short(frame.url())}`);
    });
  };
  context.on('serviceworker', onWorker);
  context.on('page', follow);
  return {
    follow,
    print: (why: string) => console.log(`Browser trace (${why}):\n${lines.join('\n')}`),
    /** The test is over: its context may serve the next one, traced anew. */
    stop: () => {
      recording = false;
      context.off('serviceworker', onWorker);
      context.off('page', follow);
    },
  };
}

/** Page events a test may listen to (browser.ts's trace among them). */
const TEST_EVENTS = [
  'console',
  'dialog',
  'domcontentloaded',
  'download',
  'filechooser',
  'frameattached',
  'framedetached',
  'framenavigated',
  'load',
  'pageerror',
  'popup',
  'request',
  'requestfailed',
  'requestfinished',
  'response',
  'websocket',
  'worker',
] as const;

/** Page and context calls whose effect outlives a test, with no call that undoes it. */
const STICKY_PAGE_CALLS = [
  'addInitScript',
  'addLocatorHandler',
  'routeWebSocket',
  'setDefaultNavigationTimeout',
  'setDefaultTimeout',
  'exposeBinding',
  'exposeFunction',
  'setViewportSize',
  'emulateMedia',
  'setExtraHTTPHeaders',
] as const;
const STICKY_CONTEXT_CALLS = [
  'addInitScript',
  'routeWebSocket',
  'setDefaultNavigationTimeout',
  'setDefaultTimeout',
  'exposeBinding',
  'exposeFunction',
  'setExtraHTTPHeaders',
  'setGeolocation',
  'setHTTPCredentials',
] as const;
const STICKY_CLOCK_CALLS = [
  'install',
  'fastForward',
  'pauseAt',
  'resume',
  'runFor',
  'setFixedTime',
  'setSystemTime',
] as const;

/**
 * A page that later tests may reuse, as a fresh one would be, instead of a new context each: a new
 * renderer costs about 0.8 s of CPU here before it loads anything (and a test's first navigation
 * more), several times the cost of emptying the page. The page is kept while its tests only did
 * what `reset` undoes; one whose test called something that stays (an init script, an exposed
 * function, a viewport, the clock, ...) is not (`sticky()` then answers true).
 */
export function reusablePage(context: BrowserContext, page: Page) {
  let sticky = false;
  const mark = <T extends object>(target: T, names: readonly string[]) => {
    for (const name of names) {
      const own = target as Record<string, unknown>;
      const original = own[name] as (...args: unknown[]) => unknown;
      own[name] = (...args: unknown[]) => {
        sticky = true;
        return original.apply(target, args);
      };
    }
  };
  mark(page, STICKY_PAGE_CALLS);
  mark(context, STICKY_CONTEXT_CALLS);
  mark(page.clock, STICKY_CLOCK_CALLS);
  // A crashed renderer is not reused.
  page.once('crash', () => (sticky = true));
  // The origins whose stored data `reset` clears.
  const visited = new Set<string>();
  const noteOrigin = (frame: { url: () => string }) => {
    const { origin } = new URL(frame.url());
    if (origin !== 'null') visited.add(origin);
  };
  const watch = (p: Page) => p.on('framenavigated', noteOrigin);
  context.on('page', watch);
  watch(page);
  return {
    page,
    sticky: () => sticky || page.isClosed(),
    /**
     * Empties the page for the next test: its listeners and routes go (the test's), it leaves for
     * about:blank (the renderer stays), other pages close, and the context has no cookie, no
     * permission, no stored data of any origin it visited (local and session storage, IndexedDB,
     * caches) and is online. The browser's memory cache of the app's hashed assets stays.
     */
    async reset() {
      // The test's listeners, not Playwright's own (it ends pending calls on 'close' and 'crash').
      for (const type of TEST_EVENTS) page.removeAllListeners(type);
      watch(page);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await context.unrouteAll({ behavior: 'ignoreErrors' });
      // Session storage is the tab's: emptied while the page is still on its origin.
      if (/^https?:/.test(page.url()))
        await page.evaluate(() => sessionStorage.clear()).catch(() => undefined);
      await page.goto('about:blank');
      await page.mouse.move(0, 0);
      for (const other of context.pages()) if (other !== page) await other.close();
      await context.clearCookies();
      await context.clearPermissions();
      await context.setOffline(false);
      const cdp = await context.newCDPSession(page);
      for (const origin of visited)
        await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
      await cdp.detach();
      visited.clear();
    },
  };
}
