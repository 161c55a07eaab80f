/** The production build of apps/web that the client benchmarks measure. */
import { execSync } from 'node:child_process';
import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const webDist = resolve(repoRoot, 'apps/web/dist');

/**
 * NODE_ENV is pinned: Vite builds with the NODE_ENV it inherits, and under any other value
 * (vitest sets 'test') React's development build is bundled, about 1.4 times the size and slower.
 * `outDir` elsewhere than apps/web/dist keeps a benchmark's build apart from the browser tests' builds.
 */
export const buildWeb = (outDir = webDist) =>
  execSync(`npm run build -w @md/web -- --outDir ${JSON.stringify(outDir)}`, {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
