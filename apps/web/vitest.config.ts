import { configDefaults, defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chakraThemeAlias } from './chakra-theme-alias.ts';

const TEST_FILE = /\.test\.tsx?$/;

/**
 * Test files that replace a module (vi.mock, vi.doMock), found by reading them: they run isolated,
 * in the project 'web-mocked', since a module cache shared between files could keep the real
 * module or leak the stand-in to others.
 */
const MOCKING_FILES = ['src', 'test'].flatMap((folder) => {
  const dir = join(import.meta.dirname, folder);
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return []; // no such folder
  }
  return names
    .filter((name) => TEST_FILE.test(name))
    .filter((name) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(dir, name), 'utf8')))
    .map((name) => `${folder}/${name}`);
});

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
