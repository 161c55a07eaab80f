import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { chakraThemeAlias } from './apps/web/chakra-theme-alias.ts';
import { webProject } from './apps/web/vitest.config.ts';

/**
 * The browser files that take longest, longest first (each 55–165 s alone; most others 5–45 s). Without
 * a timing of its own (a clean clone), vitest starts the largest files first, and the sweeps driven by
 * the screen table (`layout`, `a11y`) are small files: they started last and ran alone at the end.
 */
const SLOWEST_BROWSER_FILES = ['faults', 'layout', 'a11y', 'pwa', 'figures', 'money', 'qa-panel'];
const slowRank = (spec: TestSpecification) => {
  const rank = SLOWEST_BROWSER_FILES.findIndex((name) => spec.moduleId.endsWith(`/${name}.e2e.ts`));
  return rank < 0 ? SLOWEST_BROWSER_FILES.length : rank;
};
/**
 * Vitest's order (projects one after another; within one, its last timings, else the larger file
 * first), with the slowest browser files first within their project.
 */
class SlowestBrowserFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    const projectRank = (spec: TestSpecification) => projects.indexOf(spec.project.name);
    return sorted.sort((a, b) => projectRank(a) - projectRank(b) || slowRank(a) - slowRank(b));
  }
}

/** One run for the whole suite: shared rules, server over HTTP, web components, browser end to end. */
export default defineConfig({
  test: {
    sequence: { sequencer: SlowestBrowserFilesFirst },
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
          // (e2e/support.ts), each file with its own Chromium. A file leaves its cores idle while its
          // pages wait (polls, answers): three files per two cores, at least three (on 2 cores 373 s
          // with the CPU idle 20 %, against 505 s and ~44 % with two; four spent 19 % more CPU).
          maxWorkers: Number(
            process.env.E2E_WORKERS ?? Math.max(3, Math.round(availableParallelism() * 1.5)),
          ),
          globalSetup: ['e2e/global-setup.ts'],
        },
      },
    ],
  },
});
