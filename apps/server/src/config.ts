/**
 * What `npm start` (main.ts) takes from the environment, decided in one pure function so the
 * rules can be tested without starting a server: where to listen, and whether QA control may be
 * reached from there (issue 11: /__qa can reset the database, pay deposits and read every OTP, so
 * it stays on this machine unless a QA token guards it).
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { BuildOptions } from './app.ts';
import type { LogLevel } from 'fastify';
import type { ServerConfig } from './core/services.ts';
import { isScenario, SCENARIOS } from './seed/index.ts';
import { parseMailFrom } from './core/mailer.ts';

/** Loopback only unless HOST says otherwise: QA control must not face the network by default. */
export const DEFAULT_HOST = '127.0.0.1';
/** Shorter tokens could be guessed over the network; 16 random bytes as hex is 32 characters. */
export const QA_TOKEN_MIN_LENGTH = 16;

export const CONFIG_MESSAGES = {
  tokenRequired: (host: string) =>
    `HOST=${host} puts QA control (/__qa: reset, clock, payments, every OTP) on the network, so it needs a token. ` +
    'Set QA_TOKEN (e.g. QA_TOKEN=$(openssl rand -hex 16)) and send it as X-QA-Token, or set QA_CONTROL=off, ' +
    `or bind to loopback (leave HOST unset for ${DEFAULT_HOST}).`,
  tokenTooShort: `QA_TOKEN must be at least ${QA_TOKEN_MIN_LENGTH} characters (e.g. QA_TOKEN=$(openssl rand -hex 16)).`,
  logLevel: (level: string) => `LOG_LEVEL=${level} is not a level: use one of ${LOG_LEVELS.join(', ')}.`,
  seed: (seed: string) => `SEED=${seed} is not a scenario: use one of ${['none', ...SCENARIOS.map((s) => s.name)].join(', ')}.`,
  mailFromRequired:
    'SMTP_URL is set in production, so MAIL_FROM must say who mail is from: an address on a domain the SMTP server may send for, ' +
    'e.g. MAIL_FROM="Member Dashboard <no-reply@example.com>".',
  mailFrom: (value: string) => `MAIL_FROM=${value} is not one address: use e.g. MAIL_FROM="Member Dashboard <no-reply@example.com>".`,

} as const;

export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A start-up refusal: main.ts prints the message and exits non-zero. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Whether `host` only accepts connections from this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  if (isIPv4(h)) return h.startsWith('127.');
  if (!isIPv6(h)) return false;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h)?.[1];
  return mapped !== undefined && mapped.startsWith('127.');
}

export interface StartConfig {
  host: string;
  port: number;
  databasePath: string;
  /** What main.ts hands to buildApp (the JWT secret aside: it may be read from disk). */
  build: Omit<BuildOptions, 'databasePath' | 'jwtSecret'> & { config: Partial<ServerConfig> };
}

const set = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value);

/** The environment as start-up options; throws ConfigError when it would expose QA control. */
export function startConfig(env: NodeJS.ProcessEnv): StartConfig {
  const port = Number(env.PORT ?? 3000);
  const host = set(env.HOST)?.trim() ?? DEFAULT_HOST;
  const qaControl = env.QA_CONTROL ? env.QA_CONTROL !== 'off' : env.NODE_ENV !== 'production';
  const qaToken = set(env.QA_TOKEN);
  if (qaControl && qaToken !== undefined && qaToken.length < QA_TOKEN_MIN_LENGTH) throw new ConfigError(CONFIG_MESSAGES.tokenTooShort);
  if (qaControl && qaToken === undefined && !isLoopback(host)) throw new ConfigError(CONFIG_MESSAGES.tokenRequired(host));
  const autopay = env.DEMO_AUTOPAY_SECONDS ? Number(env.DEMO_AUTOPAY_SECONDS) : undefined;
  const requestTimeoutMs = Number(env.REQUEST_TIMEOUT_MS);
  // info by default (start, stop, faults, every 5xx); LOG=1 (before LOG_LEVEL) meant every request.
  const level = (set(env.LOG_LEVEL)?.trim().toLowerCase() ?? (env.LOG === '0' ? 'silent' : env.LOG === '1' ? 'debug' : 'info')) as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new ConfigError(CONFIG_MESSAGES.logLevel(level));
  // Only a database file that does not exist yet is seeded (app.ts); production starts one empty.
  const seed = set(env.SEED)?.trim() ?? (env.NODE_ENV === 'production' ? 'empty' : 'demo');
  if (seed !== 'none' && !isScenario(seed)) throw new ConfigError(CONFIG_MESSAGES.seed(seed));
  // Development mails from DEFAULT_MAIL_FROM; real mail in production must name a real sender.
  const mailFrom = set(env.MAIL_FROM)?.trim();
  if (mailFrom === undefined && set(env.SMTP_URL) && env.NODE_ENV === 'production') throw new ConfigError(CONFIG_MESSAGES.mailFromRequired);
  if (mailFrom !== undefined && !parseMailFrom(mailFrom)) throw new ConfigError(CONFIG_MESSAGES.mailFrom(mailFrom));
  return {
    host,
    port,
    databasePath: env.DATABASE_PATH ?? 'data/app.sqlite',
    build: {
      smtpUrl: set(env.SMTP_URL),
      ...(mailFrom !== undefined ? { mailFrom } : {}),
      logger: { level },
      seed,
      // A deployment that points provider mode at a real provider sets these (absolute URLs).
      providerUrls: { apiBaseUrl: env.API_BASE_URL, depositBaseUrl: env.DEPOSIT_BASE_URL, walletCheckUrl: env.WALLET_CHECK_URL },
      ...(qaControl && qaToken !== undefined ? { qaToken } : {}),
      config: {
        qaControl,
        publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
        ...(autopay && autopay > 0 ? { demoAutopaySeconds: autopay } : {}),
        ...(requestTimeoutMs > 0 ? { requestTimeoutMs } : {}),
      },
    },
  };
}
