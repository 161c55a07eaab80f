/**
 * freshPagePerTest keeps one page for the tests of its block (browser.ts, reusablePage): each test
 * must still find it as a new browser context would give it. The tests run in order, each checking
 * what the one before it left (against the block's first page, so a retry checks the same).
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freshPagePerTest } from './support.ts';

const server = inject('e2eServers').find((s) => s.mode === 'mock')!;

describe('a page kept between tests', () => {
  let page!: Page;
  const pages: Page[] = [];
  let requestsSeen = 0;
  freshPagePerTest(server, { width: 375, height: 812 }, (fresh) => {
    page = fresh;
    pages.push(fresh);
  });
  const stored = () =>
    page.evaluate(async () => ({
      local: localStorage.length,
      session: sessionStorage.length,
      cookie: document.cookie,
      databases: (await indexedDB.databases()).map((db) => db.name),
      caches: await caches.keys(),
      online: navigator.onLine,
    }));

  it('leaves stored data, a cookie, a listener, a route and the offline state behind', async () => {
    await page.goto(`${server.url}/config.json`);
    await page.evaluate(async () => {
      localStorage.setItem('left', 'behind');
      sessionStorage.setItem('left', 'behind');
      document.cookie = 'left=behind; path=/';
      await new Promise((done) => (indexedDB.open('left-behind').onsuccess = done));
      await caches.open('left-behind');
    });
    page.on('request', () => (requestsSeen += 1));
    await page.route('**/config.json', (route) => route.fulfill({ json: { routed: true } }));
    await page.context().setOffline(true);
    expect(await stored()).toMatchObject({ local: 1, session: 1, online: false });
  });

  it('is the same page, with none of it', async () => {
    expect(page).toBe(pages[0]);
    expect(page.url()).toBe('about:blank');
    requestsSeen = 0;
    const answer = await page.goto(`${server.url}/config.json`);
    expect(await answer!.json()).not.toHaveProperty('routed');
    expect(requestsSeen).toBe(0);
    const cookies = (await page.context().cookies()).map((c) => c.name);
    expect(cookies).not.toContain('left');
    expect(await stored()).toEqual({
      local: 0,
      session: 0,
      cookie: expect.not.stringContaining('left') as unknown as string,
      databases: [],
      caches: [],
      online: true,
    });
  });

  it('after a call that outlives the test (a viewport) ...', async () => {
    expect(page).toBe(pages[0]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('... the next test has a page of a new context, at the block viewport', async () => {
    expect(page.context()).not.toBe(pages[0]!.context());
    expect(page.viewportSize()).toEqual({ width: 375, height: 812 });
  });
});
