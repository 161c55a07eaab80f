import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { chakraThemeAlias } from './apps/web/chakra-theme-alias.ts';
import { webProject } from './apps/web/vitest.config.ts';

/** One run for the whole suite: shared rules, server over HTTP, web components, browser end to end. */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          root: 'packages/shared',
          include: ['test/**/*.test.ts'],
          environment: 'node',
        },
      },
      { test: { name: 'db', root: 'packages/db', include: ['test/**/*.test.ts'], environment: 'node' } },
      {
        // Over real HTTP to one stand-in server (test/global-setup.ts); the fixtures' test drives Chromium.
        test: {
          name: 'qa-client',
          root: 'packages/qa-client',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      // Server tests start from seeded templates and the server bundle made once per run
      // (test/global-setup.ts): time limits that hold on a loaded machine, never timing assertions.
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          // Every test builds its own app (helpers.ts, templates.ts): the files of a worker share the
          // imported modules instead of importing the server again for each file.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      webProject(),
      webProject({ mocking: true }),
      {
        // screens.ts (a11y, layout) reads the web app's route table: its imports use the web app's '@' alias.
        resolve: {
          alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)), ...chakraThemeAlias },
        },
        test: {
          name: 'e2e',
          root: 'apps/web',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 90_000,
          // Pages load over real HTTP while two Chromiums share the 2 cores: poll patiently.
          expect: { poll: { timeout: 10_000, interval: 100 } },
          hookTimeout: 120_000,
          // A browser test that fails runs once more, in a new world (beforeEach runs again): a
          // page starved of the 2 cores for 10 s now and then is the machine, a regression fails
          // twice. Every second attempt is named in npm test's summary (scripts/test.mjs).
          retry: 1,
          // Files run in parallel against one server, each test in a QA world of its own
          // (e2e/support.ts). Each file drives its own Chromium: one file per two cores, at least two.
          maxWorkers: Math.max(2, Math.floor(availableParallelism() / 2)),
          globalSetup: ['e2e/global-setup.ts'],
        },
      },
    ],
  },
});
