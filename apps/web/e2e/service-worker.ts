/** The app's service worker in browser tests (pwa.e2e.ts, push.e2e.ts): DOM code, kept out of browser.ts, which qa-client's tests import. */
import type { Page } from 'playwright-core';
import { WORKER_START_DELAY_MS } from '../src/app/page-settled.ts';

/**
 * Resolves once a service worker controls the page (the first install claims it at once). The app
 * starts its worker 10 s after the page's load (page-settled.ts): the page's clock, installed before
 * the test's first navigation and running in real time, is moved on by that much instead of waited
 * out; missed, the timer fires in real time all the same.
 */
export async function workerControls(page: Page) {
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.clock.fastForward(WORKER_START_DELAY_MS);
  await page.waitForFunction(
    () =>
      navigator.serviceWorker.controller !== null && navigator.serviceWorker.controller.state === 'activated',
    undefined,
    { timeout: 30_000 },
  );
}
