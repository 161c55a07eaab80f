/** Start the whole stack on one port: `npm start`. */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MissingDatabaseError } from '@md/db';
import { buildApp, type App } from './app.ts';
import { ConfigError, startConfig, type StartConfig } from './config.ts';
import { runSignal } from './core/health.ts';
import { FAULT_DESCRIPTIONS, storageFaultOf } from './core/storage.ts';
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
  try {
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    mkdirSync(dirname(file), { recursive: true });
    const secret = randomBytes(32).toString('hex');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  } catch (error) {
    // A read-only mount (or a directory this user cannot write): say which setting replaces the file, and stop.
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    console.error(
      `Cannot keep the session key: ${file} cannot be written (${code}). Set JWT_SECRET to a random secret of 32 bytes or more (e.g. openssl rand -hex 32), or make ${dirname(file)} writable.`,
    );
    process.exit(1);
  }
}

// Whether the daily runs fail, for /readyz (core/health.ts).
const runs = runSignal();
let app: App;
try {
  app = await buildApp({
    ...settings.build,
    databasePath,
    jwtSecret: jwtSecret(),
    runsFailing: runs.failing,
  });
} catch (error) {
  // A database that is gone (its traces remain) or cannot be opened or written: say so, and stop.
  const fault = storageFaultOf(error);
  if (!(error instanceof MissingDatabaseError) && !fault) throw error;
  console.error(
    fault
      ? `Cannot open the database ${databasePath}: ${FAULT_DESCRIPTIONS[fault.kind]} (${fault.code}: ${(error as Error).message}).`
      : (error as Error).message,
  );
  process.exit(1);
}
const { fastify, services, created, seeded } = app;
await fastify.listen({ port, host });
// The port really bound (PORT=0 picks a free one: the durability test reads it from this log).
const { port: listening, address: boundAddress } = fastify.server.address() as AddressInfo;
// The daily runs on real time (ROI 00:05, binary and ranks 11:00 London); QA clock moves run them too.
// Without the stand-in there is nothing to run: the real provider pays.
const { standin, qaToken, corsOrigins = [] } = settings.build;
const stopJobs = standin
  ? startJobTimer(services, (error: unknown) => {
      runs.failed(error);
      fastify.log.error(
        { err: error, storage: storageFaultOf(error) },
        'Daily run failed (it resumes on the next tick)',
      );
    }).stop
  : () => {};
const ms = Math.round(performance.now() - started);
const database = created
  ? seeded
    ? `new database, seeded "${seeded}"`
    : 'new database, empty'
  : 'existing database';
fastify.log.info(
  { port: listening, address: boundAddress, database: databasePath, created, seeded, startMs: ms },
  `Listening on ${boundAddress}:${listening} (${database})`,
);
// The demo members are named only where they exist (a database seeded with the demo scenario).
const scenario = services.sqlite
  .prepare<[], { value: string }>("select value from meta where key = 'scenario'")
  .get()?.value;
const { providerUrls = {} } = settings.build;
console.log(
  [
    `Member dashboard on http://localhost:${listening}  (${standin ? `${database}: ${databasePath}` : 'web app only'}; ready in ${ms} ms)`,
    ...(standin && scenario === 'demo' ? ['  Demo member:      demo / Demo@1234'] : []),
    ...(standin && scenario === 'demo' && settings.build.config.qaControl
      ? ['  TOTP member:      demo2fa / Demo@1234  (code: GET /__qa/totp/demo2fa)']
      : []),
    ...(settings.build.config.qaControl
      ? [`  QA mailbox:       http://localhost:${listening}/__qa/mailbox?to=demo   (see docs/qa-control.md)`]
      : []),
    standin
      ? `  Stand-in API:     on${corsOrigins.length ? ` (CORS for ${corsOrigins.join(', ')})` : ''}`
      : `  Provider:         ${providerUrls.apiBaseUrl} (deposits ${providerUrls.depositBaseUrl}; STANDIN=off)`,
    `  Listening on:     ${boundAddress}${qaToken ? '  (QA control asks for X-QA-Token: QA_TOKEN)' : ''}`,
  ].join('\n'),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    fastify.log.info({ signal }, `${signal}: shutting down`);
    stopJobs();
    // close() waits for answers still being sent: a client that stops reading would hold the
    // process forever. Every commit is already on disk, so after a grace period it just exits.
    setTimeout(() => {
      fastify.log.warn('Answers still open after 5 s: exiting without them');
      process.exit(0);
    }, 5_000).unref();
    void fastify.close().then(() => {
      fastify.log.info('Stopped');
      process.exit(0);
    });
  });
}
