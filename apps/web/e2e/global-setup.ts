/**
 * Browser suite set-up: build the web app once, then start two servers on fresh demo
 * databases: one whose /config.json says mode "mock" (tRPC) and one that says "provider"
 * (REST at the provider paths). Every browser test runs against both. The provider-mode server
 * is a gateway (PROVIDER_URL): a second instance plays the provider behind it, and
 * holds the database the QA calls drive (`qaUrl`, support.ts's api()).
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildApp, type App } from '../../server/src/app.ts';
import { browserPath } from './browser.ts';

export interface E2eServer {
  mode: 'mock' | 'provider';
  url: string;
  /**
   * Where the QA calls that drive the database go (mailbox, clock, TOTP, deposits, withdrawals,
   * ledger): the instance playing the provider behind the gateway. Absent: `url`.
   */
  qaUrl?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2eServers: E2eServer[];
  }
}

const root = resolve(import.meta.dirname, '../../..');

export default async function setup(project: TestProject) {
  browserPath(); // fail early, with the install hint, when there is no Chromium
  // Vite builds with the NODE_ENV it inherits, and vitest sets 'test': without this the suite
  // would test React's development build instead of what ships.
  execSync('npm run build -w @md/web', {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const dir = mkdtempSync(join(tmpdir(), 'md-e2e-'));
  const apps: App[] = [];
  const servers: E2eServer[] = [];
  const listen = async (app: App) => {
    apps.push(app);
    return app.fastify.listen({ port: 0, host: '127.0.0.1' });
  };
  for (const mode of ['mock', 'provider'] as const) {
    // Provider mode: the gateway forwards every contract call to an instance playing the provider (its own secret and database).
    const upstream =
      mode === 'provider'
        ? await listen(
            await buildApp({
              databasePath: join(dir, 'upstream.sqlite'),
              clientMode: mode,
              jwtSecret: 'e2e-upstream-secret',
              config: { rateLimits: false },
            }),
          )
        : undefined;
    const app = await buildApp({
      databasePath: join(dir, `${mode}.sqlite`),
      clientMode: mode,
      webDist: resolve(root, 'apps/web/dist'),
      jwtSecret: `e2e-${mode}-secret`,
      config: { rateLimits: false },
      ...(upstream ? { seed: 'empty', provider: { url: upstream } } : {}),
    });
    servers.push({ mode, url: await listen(app), ...(upstream ? { qaUrl: upstream } : {}) });
  }
  project.provide('e2eServers', servers);
  return async () => {
    await Promise.all(apps.map((app) => app.fastify.close()));
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  };
}
