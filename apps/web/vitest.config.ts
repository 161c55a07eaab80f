import { configDefaults, defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { chakraThemeAlias } from './chakra-theme-alias.ts';

/**
 * Files that replace a module with vi.mock: they run isolated, in the project 'web-mocked', since a
 * module cache shared between files could keep the real module or leak the stand-in to others.
 */
const MOCKING_FILES = ['src/components/chart/series-chart.test.tsx'];

/** The web app's component tests in jsdom: 'web', or (`mocking`) 'web-mocked'. */
export const webProject = ({ mocking = false } = {}) =>
  defineProject({
    plugins: [react()],
    resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)), ...chakraThemeAlias } },
    test: {
      name: mocking ? 'web-mocked' : 'web',
      root: import.meta.dirname,
      environment: 'jsdom',
      include: mocking ? MOCKING_FILES : ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
      exclude: mocking ? configDefaults.exclude : [...configDefaults.exclude, ...MOCKING_FILES],
      setupFiles: ['src/testing/setup.ts'],
      testTimeout: 15_000,
      // The files of a worker share its module cache and jsdom (setup.ts resets the DOM, storage and
      // the toaster after every test): Chakra, React and the app are imported once per worker, not
      // once per file, which takes the project from ~8.5 to ~3.7 minutes of CPU.
      isolate: mocking,
    },
  });

export default webProject();
