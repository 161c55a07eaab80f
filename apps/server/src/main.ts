/** Start the whole stack on one port: `npm start`. */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildApp } from './app.ts';
import { startJobTimer } from './modules/engine/runs.ts';

const started = performance.now();
const port = Number(process.env.PORT ?? 3000);
const databasePath = process.env.DATABASE_PATH ?? 'data/app.sqlite';

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

const autopay = process.env.DEMO_AUTOPAY_SECONDS ? Number(process.env.DEMO_AUTOPAY_SECONDS) : undefined;
const { fastify, services, created } = await buildApp({
  databasePath,
  jwtSecret: jwtSecret(),
  smtpUrl: process.env.SMTP_URL,
  logger: process.env.LOG === '1',
  // A deployment that points provider mode at a real provider sets these (absolute URLs).
  providerUrls: { apiBaseUrl: process.env.API_BASE_URL, depositBaseUrl: process.env.DEPOSIT_BASE_URL, walletCheckUrl: process.env.WALLET_CHECK_URL },
  config: {
    qaControl: process.env.QA_CONTROL ? process.env.QA_CONTROL !== 'off' : process.env.NODE_ENV !== 'production',
    publicUrl: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
    ...(autopay && autopay > 0 ? { demoAutopaySeconds: autopay } : {}),
    ...(Number(process.env.REQUEST_TIMEOUT_MS) > 0 ? { requestTimeoutMs: Number(process.env.REQUEST_TIMEOUT_MS) } : {}),
  },
});
await fastify.listen({ port, host: process.env.HOST ?? '0.0.0.0' });
// The port really bound (PORT=0 picks a free one: the durability test reads it from this log).
const listening = (fastify.server.address() as AddressInfo).port;
// The daily runs on real time (ROI 00:05, binary and ranks 11:00 London); QA clock moves run them too.
const stopJobs = startJobTimer(services, (error) => console.error('Daily run failed (it resumes on the next tick):', error));
const ms = Math.round(performance.now() - started);
console.log(
  [
    `Member dashboard on http://localhost:${listening}  (${created ? 'new database, seeded "demo"' : 'existing database'}: ${databasePath}; ready in ${ms} ms)`,
    '  Demo member:      demo / Demo@1234',
    '  TOTP member:      demo2fa / Demo@1234  (code: GET /__qa/totp/demo2fa)',
    `  QA mailbox:       http://localhost:${listening}/__qa/mailbox?to=demo   (see README: QA control API)`,
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
