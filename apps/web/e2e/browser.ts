/** The system Chromium, driven by playwright-core: never a downloaded browser. */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

export function browserPath(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    Boolean,
  ) as string[];
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new Error(
      'No Chromium found for the browser tests. Install one (Debian: apt-get update && apt-get install -y chromium) or set CHROME_PATH.',
    );
  return found;
}

/**
 * `scrollbars`: shown, taking room as on a desktop (and in Lighthouse's Chromium); playwright hides
 * them by default, as a phone overlays them.
 */
export const launchBrowser = ({ scrollbars = false } = {}): Promise<Browser> =>
  chromium.launch({
    executablePath: browserPath(),
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
 */
export function traceContext(context: BrowserContext) {
  const start = Date.now();
  const lines: string[] = [];
  const note = (line: string) => {
    lines.push(`${String(Date.now() - start).padStart(6)} ms  ${line}`);
    if (lines.length > 400) lines.shift();
  };
  const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
  context.on('serviceworker', (worker) => note(`service worker ${short(worker.url())}`));
  context.on('page', (page) => {
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
  });
  return { print: (why: string) => console.log(`Browser trace (${why}):\n${lines.join('\n')}`) };
}
