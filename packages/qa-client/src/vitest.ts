/**
 * A vitest test with a QA world per test: `world` is made before the test (named after it) and
 * deleted after, pass or fail. `worldSource` is what it is made from; a describe block may
 * change it with `test.override({ worldSource: { state } })`.
 */
import { test } from 'vitest';
import { createQaClient, type CreatedWorld, type QaClient, type QaClientOptions } from './client.ts';
import type { WorldOptions, WorldSource } from './types.ts';

/** The longest name a world takes. */
const WORLD_NAME_MAX = 64;

export interface WorldTestOptions extends WorldOptions {
  /** What each test's world is made from: the demo scenario when absent. */
  source?: WorldSource;
}

export interface WorldTestContext {
  qa: QaClient;
  worldSource: WorldSource;
  world: CreatedWorld;
}

export function worldTest(
  client: QaClientOptions,
  { source = { from: 'demo' }, ...options }: WorldTestOptions = {},
) {
  return test.extend<WorldTestContext>({
    qa: createQaClient(client),
    worldSource: source,
    world: ({ qa, worldSource, task }, use) =>
      qa.withWorld(worldSource, use, {
        name: task.name.slice(0, WORLD_NAME_MAX).trim() || undefined,
        ...options,
      }),
  });
}
