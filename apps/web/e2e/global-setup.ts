/**
 * Browser suite set-up: build the web app once, then start ONE server (a file database on the
 * demo seed) for every file, run in parallel. Each test works in a QA world of its own
 * (support.ts: made before the test, deleted after), so no test sees another's rows, clock or
 * fault rules. `e2eServers` names the server twice, once per client mode: a test of the
 * "provider" entry gets a world whose /config.json tells the web app to use REST at the provider's
 * paths, one of the "mock" entry a world that uses tRPC, so every `describe.each(servers)` test
 * still runs in both modes.
 *
 * Provider mode here is the stand-in answering REST itself: the gateway in front of a real
 * provider (forwarding, recordings, drift) is covered by the server project's tests
 * (apps/server/test: gateway, recordings, drift).
 */
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createQaClient } from '@md/qa-client';
import { buildApp } from '../../server/src/app.ts';
import { testBrowserPath } from './browser.ts';

export interface E2eServer {
  /** The client mode of the worlds this entry's tests run in. */
  mode: 'mock' | 'provider';
  url: string;
  /**
   * The world the running test is in: set before each test (support.ts, worldPerTest) and cleared
   * after; every call support.ts makes to the server names it (X-QA-World).
   */
  world?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2eServers: E2eServer[];
  }
}

const root = resolve(import.meta.dirname, '../../..');
const serverDir = resolve(root, 'apps/server');

export default async function setup(project: TestProject) {
  testBrowserPath(); // fail early, with the install hint, when there is no Chromium
  // Vite builds with the NODE_ENV it inherits, and vitest sets 'test': without this the suite
  // would test React's development build instead of what ships.
  execSync('npm run build -w @md/web', {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  // The server's worker threads (daily runs, world builds) start from their bundle, built here,
  // instead of tsx compiling their sources again in every thread (core/worker-module.ts).
  execFileSync(process.execPath, ['build.mjs', '--workers'], { cwd: serverDir, stdio: 'inherit' });
  process.env.SERVER_WORKERS = 'bundle';
  const dir = mkdtempSync(join(tmpdir(), 'md-e2e-'));
  // A file database: worlds live beside it as file copies of the demo template.
  const app = await buildApp({
    databasePath: join(dir, 'e2e.sqlite'),
    clientMode: 'mock',
    webDist: resolve(root, 'apps/web/dist'),
    jwtSecret: 'e2e-secret',
    config: { rateLimits: false },
    // Every test's world comes from this one address: the whole cap is the suite's.
    worlds: { perClient: 100 },
  });
  const url = await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  // The first demo world seeds the template: made here once, so no test's set-up pays for it.
  await createQaClient({ baseUrl: url }).withWorld({ from: 'demo' }, async () => {});

  project.provide('e2eServers', [
    { mode: 'mock', url },
    { mode: 'provider', url },
  ]);
  return async () => {
    await app.fastify.close();
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  };
}
