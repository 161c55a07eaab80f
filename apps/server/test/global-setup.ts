/**
 * Server suite set-up, once per run: the server bundle that `npm start` runs (build.mjs), which the
 * process-level tests start (a bundle starts in a fraction of tsx's time and is what ships), and
 * the folder of seeded templates that test apps start from (templates.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { manualClock } from '../src/core/clock.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** apps/server/dist/main.js, built for this run. */
    serverBundle: string;
    /** Where seeded databases are kept for this run, one file per scenario, clock and plan. */
    templateDir: string;
    /** The OpenAPI examples recorded on the test apps' clock (manualClock's start), which test apps document. */
    examplesFile: string;
  }
}

const serverDir = resolve(import.meta.dirname, '..');

export default function setup(project: TestProject) {
  execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'inherit' });
  // Test apps run from the sources start their worker threads from this bundle (core/worker-module.ts):
  // tsx would compile each thread's sources again, ~2 s a thread. Test workers inherit the variable.
  process.env.SERVER_WORKERS = 'bundle';
  const templateDir = mkdtempSync(join(tmpdir(), 'md-templates-'));
  project.provide('serverBundle', join(serverDir, 'dist/main.js'));
  project.provide('templateDir', templateDir);
  // Recorded again on the tests' stopped clock: the examples then name the ids of the tests' demo worlds.
  const examplesFile = join(templateDir, 'openapi-examples.json');
  execFileSync(
    process.execPath,
    ['dist/openapi-examples.js', examplesFile, `--at=${new Date(manualClock().now()).toISOString()}`],
    { cwd: serverDir, stdio: 'inherit' },
  );
  project.provide('examplesFile', examplesFile);
  return () => rmSync(templateDir, { recursive: true, force: true });
}
