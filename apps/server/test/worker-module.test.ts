/**
 * Where worker threads start from (core/worker-module.ts): the tests run them from the bundle their
 * set-up built (SERVER_WORKERS=bundle), so the path `npm run dev` takes, tsx inside the thread, is
 * exercised here once, on a small declared state.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorldState } from '@md/shared';
import { workerEntry } from '../src/core/worker-module.ts';
import { runWorldThread } from '../src/modules/worlds/world-thread.ts';

const SOURCE = new URL('../src/world-worker.ts', import.meta.url);
const nearBronze = JSON.parse(
  readFileSync(new URL('../../../world-states/near-bronze.json', import.meta.url), 'utf8'),
) as WorldState;

describe('worker threads', () => {
  const set = process.env.SERVER_WORKERS;
  afterEach(() => {
    if (set === undefined) delete process.env.SERVER_WORKERS;
    else process.env.SERVER_WORKERS = set;
  });

  it("start from the run's bundle in the tests, a file beside dist/main.js", () => {
    expect(set).toBe('bundle');
    const entry = workerEntry(SOURCE, 'world-worker.js');
    expect(fileURLToPath(entry.url)).toBe(fileURLToPath(new URL('../dist/world-worker.js', import.meta.url)));
    expect(entry.argv).toEqual([]);
    expect(existsSync(entry.url)).toBe(true);
  });

  it('start from the sources through tsx otherwise, and such a thread builds a declared state', async () => {
    delete process.env.SERVER_WORKERS;
    const entry = workerEntry(SOURCE, 'world-worker.js');
    expect(entry.url.pathname.endsWith('/core/worker-tsx.mjs')).toBe(true);
    expect(entry.argv).toEqual([SOURCE.href]);
    const built = await runWorldThread({ kind: 'state', state: nearBronze, file: null });
    expect(built.summary?.members).toBeGreaterThan(1);
    // An SQLite database's image: the header's magic string.
    expect(built.image?.subarray(0, 15).toString()).toBe('SQLite format 3');
  });
});
