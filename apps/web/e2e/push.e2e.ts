/**
 * Web Push in the app's service worker, in the system Chromium against the production build: a
 * push message delivered to the registered worker over the DevTools protocol
 * (ServiceWorker.deliverPushMessage, the way a push service's message reaches it) is shown with its
 * title, body, the app's icon, its tag and the screen it opens; one whose screen is off the app
 * leads to the dashboard.
 *
 * Headless Chromium denies the notification permission whatever a test grants (Playwright issue
 * 23954), so the worker's `registration.showNotification` is recorded in the worker itself instead
 * of drawn; everything before it (the push event, public/push-sw.js imported by the Workbox worker,
 * the payload read) is the browser's own. A click cannot be driven headless either:
 * src/app/push-worker.test.ts covers where it leads.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page, Worker } from 'playwright-core';
import { workerControls } from './service-worker.ts';
import { freshPagePerTest } from './support.ts';

// The worker is the same in both client modes: one is enough.
const servers = inject('e2eServers').filter((server) => server.mode === 'mock');

interface Shown {
  title: string;
  options: { body: string; icon: string; badge: string; tag?: string; data: { url: string } };
}
interface WorkerScope {
  registration: { showNotification: (title: string, options: unknown) => Promise<void> };
  shown?: Shown[];
}

/** Records the worker's notifications instead of drawing them (see above). */
const recordNotifications = (worker: Worker) =>
  worker.evaluate(() => {
    const scope = globalThis as unknown as WorkerScope;
    const shown: Shown[] = [];
    scope.shown = shown;
    scope.registration.showNotification = (title, options) => {
      shown.push({ title, options } as Shown);
      return Promise.resolve();
    };
  });
const shownBy = (worker: Worker) => worker.evaluate(() => (globalThis as unknown as WorkerScope).shown ?? []);

describe.each(servers)('push notifications, $mode mode', (server) => {
  let page!: Page;
  freshPagePerTest(server, { width: 375, height: 812 }, (fresh) => (page = fresh), {
    serviceWorkers: 'allow',
  });

  it('a push delivered to the worker is shown with its title, body, icon, tag and screen', async () => {
    await page.clock.install(); // workerControls moves it on
    const cdp = await page.context().newCDPSession(page);
    const registrations = new Map<string, string>();
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
      for (const r of updated as { registrationId: string; scopeURL: string; isDeleted: boolean }[])
        if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
    });
    await cdp.send('ServiceWorker.enable');
    await page.goto(`${server.url}/`);
    await page.getByLabel('Username').waitFor();
    await workerControls(page);
    await expect.poll(() => registrations.get(`${server.url}/`)).toBeDefined();
    const worker = page
      .context()
      .serviceWorkers()
      .find((w) => w.url() === `${server.url}/sw.js`)!;
    expect(worker).toBeDefined();
    await recordNotifications(worker);

    const deliver = (data: object) =>
      cdp.send('ServiceWorker.deliverPushMessage', {
        origin: server.url,
        registrationId: registrations.get(`${server.url}/`)!,
        data: JSON.stringify(data),
      });
    const push = {
      title: 'Withdrawal approved',
      body: 'Your withdrawal of $20.00 was approved: $19.00 sent to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed.',
      url: '/dashboard/history',
      tag: 'WD20261104M3',
    };
    await deliver(push);
    await expect.poll(() => shownBy(worker)).toHaveLength(1);
    expect((await shownBy(worker))[0]).toEqual<Shown>({
      title: push.title,
      options: {
        body: push.body,
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        tag: push.tag,
        data: { url: '/dashboard/history' },
      },
    });
    // The icon is the app's.
    const icon = await page.request.get(`${server.url}/icons/icon-192.png`);
    expect(icon.headers()['content-type']).toBe('image/png');

    // A push whose screen is off the app leads to the dashboard.
    await deliver({ title: 'Odd', body: 'x', url: 'https://evil.example/', tag: 'T2' });
    await expect.poll(() => shownBy(worker)).toHaveLength(2);
    expect((await shownBy(worker))[1]!.options.data).toEqual({ url: '/dashboard' });
  });
});
