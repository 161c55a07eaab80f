/** Start the whole stack on one port: `npm start`. */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, startConfig, type StartConfig } from './config.ts';
import { startJobTimer } from './modules/engine/jobs.ts';

const started = performance.now();
let settings: StartConfig;
try {
  settings = startConfig(process.env);
} catch (error) {
  // A setting that would expose QA control: say how to fix it and stop, before opening anything.
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const { port, host, databasePath } = settings;

/** JWT_SECRET, or one generated on first start and kept beside the database. */
function jwtSecret(): string {
  if (process.env.JWT_SECRET) return process.env.JWT_SECRET;
  if (databasePath === ':memory:') return randomBytes(32).toString('hex');
  const file = resolve(dirname(resolve(databasePath)), 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const { fastify, services, created } = await buildApp({ ...settings.build, databasePath, jwtSecret: jwtSecret() });
await fastify.listen({ port, host });
// The port really bound (PORT=0 picks a free one: the durability test reads it from this log).
const { port: listening, address: boundAddress } = fastify.server.address() as AddressInfo;
// The daily runs on real time (ROI 00:05, binary and ranks 11:00 London); QA clock moves run them too.
const stopJobs = startJobTimer(services, (error) => console.error('Daily run failed (it resumes on the next tick):', error));
const ms = Math.round(performance.now() - started);
console.log(
  [
    `Member dashboard on http://localhost:${listening}  (${created ? 'new database, seeded "demo"' : 'existing database'}: ${databasePath}; ready in ${ms} ms)`,
    '  Demo member:      demo / Demo@1234',
    '  TOTP member:      demo2fa / Demo@1234  (code: GET /__qa/totp/demo2fa)',
    `  QA mailbox:       http://localhost:${listening}/__qa/mailbox?to=demo   (see README: QA control API)`,
    `  Listening on:     ${boundAddress}${settings.build.qaToken ? '  (QA control asks for X-QA-Token: QA_TOKEN)' : ''}`,
  ].join('\n'),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopJobs();
    // close() waits for answers still being sent: a client that stops reading would hold the
    // process forever. Every commit is already on disk, so after a grace period it just exits.
    setTimeout(() => process.exit(0), 5_000).unref();
    void fastify.close().then(() => process.exit(0));
  });
}
