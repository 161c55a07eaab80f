/**
 * A scenario's template is seeded once and kept while no daily run falls due after its seeding;
 * once one does (here the 11:00 UK binary run), the next creation seeds it again, so a world made
 * from it owes nothing: on a long-running QA server every creation would otherwise pay every run
 * since the server started. The file is replaced whole (no `.next` file left). A real registry
 * whose template builds and world apps are stubs; its clock is the test's.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Services } from '../src/core/services.ts';
import { createWorlds, type WorldApp, type Worlds } from '../src/modules/worlds/registry.ts';

describe('a scenario template across a daily run', () => {
  let worlds: Worlds | undefined;
  afterEach(async () => worlds?.close());

  it('is kept until a run falls due after its seeding, then seeded again before the next world', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-templates-'));
    let now = Date.parse('2026-11-30T09:00:00Z'); // 09:00 in London (GMT): the day's binary run is at 11:00
    const seeded: string[] = [];
    const copied: string[] = [];
    worlds = createWorlds(
      {
        build: async (world: { databasePath: string }): Promise<WorldApp> => {
          copied.push(readFileSync(world.databasePath, 'utf8'));
          return {
            services: {} as Services,
            settings: {} as WorldApp['settings'],
            route: () => undefined,
            caughtUp: Promise.resolve(),
            close: async () => undefined,
          };
        },
        template: async (scenario: string, file: string | null) => {
          seeded.push(scenario);
          writeFileSync(file!, `${scenario} seed ${seeded.length}`);
        },
        state: async () => undefined,
        log: { warn: () => undefined, info: () => undefined },
      },
      { databasePath: join(dir, 'app.sqlite'), now: () => now },
    );
    const templates = join(dir, 'app.sqlite.worlds', 'templates');

    await worlds.create({ from: 'demo', client: 'a' });
    now = Date.parse('2026-11-30T10:59:00Z');
    await worlds.create({ from: 'demo', client: 'a' });
    expect(seeded).toEqual(['demo']);
    expect(copied).toEqual(['demo seed 1', 'demo seed 1']);

    now = Date.parse('2026-11-30T11:01:00Z');
    await worlds.create({ from: 'demo', client: 'a' });
    await worlds.create({ from: 'demo', client: 'a' });
    expect(seeded).toEqual(['demo', 'demo']);
    expect(copied.slice(2)).toEqual(['demo seed 2', 'demo seed 2']);
    expect(readdirSync(templates)).toEqual(['demo.sqlite']);
  });

  it('creations asked for together while it is seeded again share the one new seeding', async () => {
    let now = Date.parse('2026-12-01T10:00:00Z');
    let seedings = 0;
    worlds = createWorlds(
      {
        build: async (): Promise<WorldApp> => ({
          services: {} as Services,
          settings: {} as WorldApp['settings'],
          route: () => undefined,
          caughtUp: Promise.resolve(),
          close: async () => undefined,
        }),
        template: async () => {
          seedings++;
          await new Promise((resolve) => setTimeout(resolve, 20));
          return Buffer.from('image');
        },
        state: async () => undefined,
        log: { warn: () => undefined, info: () => undefined },
      },
      { databasePath: ':memory:', now: () => now },
    );
    await worlds.create({ from: 'demo', client: 'b' });
    now = Date.parse('2026-12-02T00:10:00Z'); // past the next day's 00:05 ROI run
    await Promise.all([1, 2, 3].map(() => worlds!.create({ from: 'demo', client: 'b' })));
    expect(seedings).toBe(2);
  });
});
