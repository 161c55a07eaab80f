/**
 * Browser pages in QA worlds, for playwright-core (the browser suite drives the system Chromium
 * with it): a context entered in a world by its cookie, or a fresh page entered by the world's link.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { CreatedWorld, QaClient, QaWorld } from './client.ts';
import type { WorldOptions, WorldSource } from './types.ts';

/** The cookie a world's enter link sets: a browser's calls name their world by it. */
export const WORLD_COOKIE = 'qa_world';

/**
 * Every page of `context` is in `world` from now on, as after its enter link, without loading a
 * page: the cookie the link would set. Pages already open keep the world they hold until they load again.
 */
export const enterWorld = (context: BrowserContext, world: QaWorld) =>
  context.addCookies([
    {
      name: WORLD_COOKIE,
      value: world.id,
      url: new URL(world.enter).origin,
      httpOnly: true,
      sameSite: 'Strict',
    },
  ]);

export interface WorldPage {
  page: Page;
  context: BrowserContext;
  world: CreatedWorld;
  /** Closes the context and deletes the world. */
  close(): Promise<void>;
}

export interface WorldPageOptions {
  /** The demo scenario when absent. */
  source?: WorldSource;
  world?: WorldOptions;
  context?: BrowserContextOptions;
}

/**
 * A page in a fresh world, in a browser context of its own, entered through the world's link as a
 * tester would (the server sets the cookie and opens the app). `close` ends the context and the world.
 */
export async function pageInWorld(
  browser: Browser,
  qa: QaClient,
  { source = { from: 'demo' }, world: worldOptions, context: contextOptions }: WorldPageOptions = {},
): Promise<WorldPage> {
  const world = await qa.createWorld(source, worldOptions);
  let context: BrowserContext | undefined;
  try {
    context = await browser.newContext(contextOptions);
    const page = await context.newPage();
    await page.goto(world.enter);
    const opened = context;
    return {
      page,
      context,
      world,
      async close() {
        await opened.close();
        await world.delete();
      },
    };
  } catch (error) {
    await context?.close();
    await world.delete();
    throw error;
  }
}
