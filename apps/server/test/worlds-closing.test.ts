/**
 * A server closing while a QA world is being created: the creation is refused (503 with its
 * message), the world it was building is closed and never listed, and `close()` returns only once
 * that is done; a creation asked for after the close starts nothing. A real registry whose world
 * apps are stubs that finish when the test lets them.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Services } from '../src/core/services.ts';
import {
  createWorlds,
  WORLD_MESSAGES,
  type WorldApp,
  type WorldBuilder,
} from '../src/modules/worlds/registry.ts';

function stubBuilder() {
  const builds: { finish: (app: WorldApp) => void }[] = [];
  const closed: string[] = [];
  const builder: WorldBuilder = {
    build: () =>
      new Promise<WorldApp>((resolve) => {
        builds.push({ finish: resolve });
      }),
    template: async () => Buffer.alloc(0),
    state: async () => Buffer.alloc(0),
    log: { warn: () => undefined, info: () => undefined },
  };
  const app = (id: string): WorldApp => ({
    services: {} as Services,
    settings: {} as WorldApp['settings'],
    route: () => undefined,
    caughtUp: Promise.resolve(),
    close: async () => void closed.push(id),
  });
  return { builder, builds, closed, app };
}

describe('a world created while the server closes', () => {
  it('is refused, closed and never listed; close() waits for it; later creations start nothing', async () => {
    const { builder, builds, closed, app } = stubBuilder();
    const worlds = createWorlds(builder, { databasePath: ':memory:' });
    const creation = worlds.create({ from: 'empty', client: 'qa' });
    const outcome = creation.then(
      () => 'created',
      (error: Error & { status?: number }) => error,
    );
    await vi.waitFor(() => expect(builds).toHaveLength(1));

    let closeReturned = false;
    const closing = worlds.close().then(() => (closeReturned = true));
    // Still building: close() is waiting for it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closeReturned).toBe(false);

    builds[0]!.finish(app('the built world'));
    await closing;
    const refused = await outcome;
    expect(refused).toMatchObject({ status: 503, message: WORLD_MESSAGES.closing });
    expect(closed).toEqual(['the built world']);
    expect(worlds.list()).toEqual([]);

    await expect(worlds.create({ from: 'empty', client: 'qa' })).rejects.toMatchObject({
      status: 503,
      message: WORLD_MESSAGES.closing,
    });
    expect(builds).toHaveLength(1);
  });

  it('a close that begins while the template is made opens no app for the creation', async () => {
    const { builder, builds, closed } = stubBuilder();
    let templateMade!: (image: Buffer) => void;
    builder.template = () => new Promise<Buffer>((resolve) => (templateMade = resolve));
    const worlds = createWorlds(builder, { databasePath: ':memory:' });
    const creation = worlds.create({ from: 'demo', client: 'qa' });
    const outcome = creation.then(
      () => 'created',
      (error: Error & { status?: number }) => error,
    );
    await vi.waitFor(() => expect(templateMade).toBeTypeOf('function'));
    const closing = worlds.close();
    templateMade(Buffer.from('image'));
    await closing;
    expect(await outcome).toMatchObject({ status: 503, message: WORLD_MESSAGES.closing });
    expect(builds).toHaveLength(0);
    expect(closed).toEqual([]);
  });

  it('a world listed before the close is closed by it, as before', async () => {
    const { builder, builds, closed, app } = stubBuilder();
    const worlds = createWorlds(builder, { databasePath: ':memory:' });
    const creation = worlds.create({ from: 'empty', client: 'qa' });
    await vi.waitFor(() => expect(builds).toHaveLength(1));
    builds[0]!.finish(app('a listed world'));
    const { id } = await creation;
    expect(worlds.list().map((world) => world.id)).toEqual([id]);
    await worlds.close();
    expect(closed).toEqual(['a listed world']);
  });
});
