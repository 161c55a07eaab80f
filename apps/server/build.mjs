#!/usr/bin/env node
/**
 * `npm start` runs dist/main.js, one ESM bundle of the server, instead of loading TypeScript
 * through tsx (which was most of the start-up). Bundling the npm packages too lets esbuild drop
 * what we never import (viem, date-fns and zod load many modules through their barrels).
 * External: packages that read files beside themselves at run time (better-sqlite3's native
 * addon; Swagger UI's assets and @fastify/swagger's package.json).
 * dist/main.js sits as deep under the repository as the sources that resolve paths from
 * import.meta.url (apps/server/src/app.ts, packages/db/src/database.ts), so the web dist and the
 * drizzle migrations folder resolve to the same places. `npm run dev` and the tests stay on tsx
 * (the tests' worker threads excepted: `--workers` below).
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
// `--workers`: only the worker threads' entries, for a server run from its sources (the tests:
// core/worker-module.ts, SERVER_WORKERS=bundle).
const workersOnly = process.argv.includes('--workers');

// Worker threads start their entries from beside main.js (core/worker-module.ts).
const workers = {
  // The daily runs (modules/engine/runner.ts).
  'engine-worker': `${here}src/modules/engine/worker.ts`,
  // A world's template seeding and declared-state builds (modules/worlds/world-thread.ts).
  'world-worker': `${here}src/world-worker.ts`,
};

await build({
  entryPoints: workersOnly
    ? workers
    : {
        main: `${here}src/main.ts`,
        ...workers,
        // Records the OpenAPI document's examples on a demo world (below).
        'openapi-examples': `${here}src/openapi-examples.ts`,
      },
  outdir: `${here}dist`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Smaller to parse; identifiers keep their names (plugin names and stack traces stay readable).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  logLevel: 'warning',
  // CommonJS packages inside an ESM bundle still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  external: ['better-sqlite3', '@fastify/swagger', '@fastify/swagger-ui'],
});

// The document's examples, recorded by playing the example session on a fresh demo world: what
// the server about to start shows, ids included (modules/docs/example-session.ts).
if (!workersOnly) execFileSync(process.execPath, [`${here}dist/openapi-examples.js`], { stdio: 'inherit' });
