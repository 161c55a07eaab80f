import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from '../../../apps/web/e2e/browser.ts';
import { createQaClient, type WorldState } from '../src/index.ts';
import { enterWorld, pageInWorld, WORLD_COOKIE } from '../src/playwright.ts';
import { worldTest } from '../src/vitest.ts';

const baseUrl = inject('qaServerUrl');
const qa = createQaClient({ baseUrl });
const test = worldTest({ baseUrl });
const liveWorlds = async () => (await qa.api.GET('/__qa/worlds')).data!.worlds.map((world) => world.id);

describe('the vitest fixture', () => {
  // The tests of a file run in order: each finds the world of the one before it deleted.
  const seen: string[] = [];

  test('gives each test a world of the demo scenario, named after the test (cut to the 64 characters a name takes)', async ({
    world,
    task,
  }) => {
    seen.push(world.id);
    expect(world.info).toMatchObject({ from: 'demo', name: task.name.slice(0, 64) });
    expect(await liveWorlds()).toContain(world.id);
  });

  test('deletes it after the test, and gives the next test another', async ({ world }) => {
    seen.push(world.id);
    expect(seen[0]).not.toBe(world.id);
    expect(await liveWorlds()).not.toContain(seen[0]);
  });

  describe('with another source', () => {
    const state = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../../world-states/two-factor.json'), 'utf8'),
    ) as WorldState;
    test.override({ worldSource: { state } });

    test('makes the world from it', async ({ world }) => {
      expect(world.info.from).toBe('empty');
      expect(await world.totp('secured')).toMatch(/^\d{6}$/);
    });
  });
});

describe('the playwright helpers', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('pageInWorld enters a fresh world by its link; close ends the context and the world', async () => {
    const { page, context, world, close } = await pageInWorld(browser, qa);
    expect(new URL(page.url()).searchParams.get('qa_world')).toBe(world.id);
    expect(await context.cookies(baseUrl)).toEqual([
      expect.objectContaining({ name: WORLD_COOKIE, value: world.id, httpOnly: true, sameSite: 'Strict' }),
    ]);
    const current = await page.evaluate(async () => (await fetch('/__qa/worlds/current')).json());
    expect(current).toMatchObject({ world: { id: world.id } });
    await close();
    expect(await liveWorlds()).not.toContain(world.id);
    expect(page.isClosed()).toBe(true);
  });

  it("enterWorld sets the cookie the world's link sets, without loading a page", async () => {
    await qa.withWorld({ from: 'demo' }, async (world) => {
      const context = await browser.newContext();
      try {
        await enterWorld(context, world);
        expect(context.pages()).toEqual([]);
        const current = await context.request.get(`${baseUrl}/__qa/worlds/current`);
        expect(await current.json()).toMatchObject({ world: { id: world.id } });
        const door = await fetch(world.enter, { redirect: 'manual' });
        expect(door.headers.get('set-cookie')).toMatch(new RegExp(`^${WORLD_COOKIE}=${world.id};`));
      } finally {
        await context.close();
      }
    });
  });
});
