/**
 * One stand-in server on loopback for this package's tests, which drive it over real HTTP as a
 * test suite would. In memory: its worlds are in-memory copies of the demo template, made here once.
 */
import type { TestProject } from 'vitest/node';
import { buildApp } from '../../../apps/server/src/app.ts';
import { createQaClient } from '../src/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server's origin, e.g. http://127.0.0.1:41234. */
    qaServerUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const app = await buildApp({
    databasePath: ':memory:',
    seed: 'empty',
    jwtSecret: 'qa-client-secret',
    webDist: '',
    config: { rateLimits: false },
  });
  const url = await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  // The first demo world seeds the demo template: paid here, not by the first test.
  await createQaClient({ baseUrl: url }).withWorld({ from: 'demo' }, async () => {});
  project.provide('qaServerUrl', url);
  return () => app.fastify.close();
}
