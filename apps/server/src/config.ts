/**
 * What `npm start` (main.ts) takes from the environment, decided in one pure function so the
 * rules can be tested without starting a server: where to listen, and whether QA control may be
 * reached from there (/__qa can reset the database, pay deposits and read every OTP, so
 * it stays on this machine unless a QA token guards it); and the process's roles: the
 * web app and /config.json always, the stand-in API (STANDIN), QA control, seeding, the demo hint,
 * the wallet-check stand-in, source maps and the origins CORS lets in. Development defaults to
 * everything on; production to the web app alone unless asked (docs/deployment.md).
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { BuildOptions } from './app.ts';
import type { LogLevel } from 'fastify';
import type { ServerConfig } from './core/services.ts';
import { isScenario, SCENARIOS } from './seed/index.ts';
import { parseMailFrom } from './core/mailer.ts';
import { FLEET_NODE } from './modules/worlds/registry.ts';
import { STANDIN_CAPABILITIES } from './modules/gateway/capabilities.ts';

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
  seed: (seed: string) =>
    `SEED=${seed} is not a scenario: use one of ${['none', ...SCENARIOS.map((s) => s.name)].join(', ')}.`,
  mailFromRequired:
    'SMTP_URL is set in production, so MAIL_FROM must say who mail is from: an address on a domain the SMTP server may send for, ' +
    'e.g. MAIL_FROM="Member Dashboard <no-reply@example.com>".',
  mailFrom: (value: string) =>
    `MAIL_FROM=${value} is not one address: use e.g. MAIL_FROM="Member Dashboard <no-reply@example.com>".`,
  onOff: (name: string, value: string) => `${name}=${value} is neither on nor off.`,
  qaWithoutStandin:
    "QA_CONTROL=on needs the stand-in API (STANDIN=on): QA control drives the stand-in's database.",
  providerUrls: (missing: string[]) =>
    `STANDIN=off: this process serves the web app only, so /config.json must send it to the real provider. Set ${missing.join(', ')} (absolute http(s) URLs).`,
  walletCheck:
    'NODE_ENV=production does not serve the wallet-check stand-in (it approves any address): set WALLET_CHECK_URL to the real check, or WALLET_CHECK_STANDIN=on.',
  providerUrl: (name: string, value: string) =>
    `${name}=${value} is not an absolute http(s) URL (e.g. ${name}=https://api.provider.example).`,
  providerWithoutStandin:
    'PROVIDER_URL makes this process a gateway to the provider, which needs the stand-in API (STANDIN=on): with STANDIN=off point /config.json at the provider itself (API_BASE_URL, DEPOSIT_BASE_URL).',
  providerDepositAlone: "PROVIDER_DEPOSIT_URL needs PROVIDER_URL: set the provider's API URL too.",
  providerCapabilities: (unknown: string) =>
    `PROVIDER_CAPABILITIES names ${unknown}, which is not a capability of this contract (${STANDIN_CAPABILITIES.join(', ')}).`,
  providerCapabilitiesAlone: 'PROVIDER_CAPABILITIES needs PROVIDER_URL: they are the provider’s.',
  providerTimeout: (value: string) =>
    `PROVIDER_TIMEOUT_MS=${value} is not a whole number of milliseconds from 1 to 60000.`,
  fleetNode: (value: string) =>
    `FLEET_NODE=${value} is not a server's name in a fleet: 1 to 16 lower-case letters or digits (docs/deployment.md, A fleet of QA worlds).`,
  worldsMax: (value: string) =>
    `WORLDS_MAX=${value} is not a whole number from 0 to 10000 (how many QA worlds may be live at once; 0: none).`,
  worldsPerClient: (value: string) =>
    `WORLDS_PER_CLIENT=${value} is not a whole number from 1 to 10000 (how many live QA worlds one client may hold).`,
  corsOrigin: (origin: string) =>
    `CORS_ORIGINS: '${origin}' is not an origin. List origins separated by commas, scheme, host and port only (e.g. CORS_ORIGINS=https://app.example.com,http://localhost:5173).`,
} as const;

/** The Vite dev server (apps/web/vite.config.ts, port 5173) and `vite preview` (4173): CORS lets them in during development. */
export const DEV_CORS_ORIGINS: readonly string[] = [
  'http://localhost:5173',
  'http://127.0.0.1:5173',
  'http://localhost:4173',
  'http://127.0.0.1:4173',
];

export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A start-up refusal: main.ts prints the message and exits non-zero. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Whether `host` only accepts connections from this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
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

/** An on/off variable: unset is the fallback; anything but on/off (true/false, 1/0) is refused. */
function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = set(env[name])?.trim().toLowerCase();
  if (value === undefined) return fallback;
  if (['on', 'true', '1', 'yes'].includes(value)) return true;
  if (['off', 'false', '0', 'no'].includes(value)) return false;
  throw new ConfigError(CONFIG_MESSAGES.onOff(name, env[name]!));
}

const isAbsoluteHttpUrl = (url: string | undefined) =>
  url !== undefined && URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);

/** CORS_ORIGINS as origins (scheme://host[:port]); a path, a wildcard or a typo is refused. */
export function corsOriginsOf(value: string): string[] {
  const origins = value
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  for (const origin of origins)
    if (!isAbsoluteHttpUrl(origin) || new URL(origin).origin !== origin.replace(/\/$/, '').toLowerCase())
      throw new ConfigError(CONFIG_MESSAGES.corsOrigin(origin));
  return origins.map((origin) => new URL(origin).origin);
}

/** Gateway mode: PROVIDER_URL, PROVIDER_DEPOSIT_URL and PROVIDER_TIMEOUT_MS, checked; undefined when unset. */
function gatewayOf(env: NodeJS.ProcessEnv, standin: boolean): BuildOptions['provider'] {
  const url = set(env.PROVIDER_URL)?.trim();
  const depositUrl = set(env.PROVIDER_DEPOSIT_URL)?.trim();
  const timeout = set(env.PROVIDER_TIMEOUT_MS)?.trim();
  // The extensions the provider itself answers (comma-separated): /config.json advertises them while routed to it.
  const capabilities = set(env.PROVIDER_CAPABILITIES)
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (url === undefined) {
    if (depositUrl !== undefined) throw new ConfigError(CONFIG_MESSAGES.providerDepositAlone);
    if (capabilities !== undefined) throw new ConfigError(CONFIG_MESSAGES.providerCapabilitiesAlone);
    return undefined;
  }
  const unknown = capabilities?.find((name) => !(STANDIN_CAPABILITIES as readonly string[]).includes(name));
  if (unknown !== undefined) throw new ConfigError(CONFIG_MESSAGES.providerCapabilities(unknown));
  if (!standin) throw new ConfigError(CONFIG_MESSAGES.providerWithoutStandin);
  for (const [name, value] of [
    ['PROVIDER_URL', url],
    ['PROVIDER_DEPOSIT_URL', depositUrl],
  ] as const)
    if (value !== undefined && !isAbsoluteHttpUrl(value))
      throw new ConfigError(CONFIG_MESSAGES.providerUrl(name, value));
  const timeoutMs = timeout === undefined ? undefined : Number(timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= 60_000))
    throw new ConfigError(CONFIG_MESSAGES.providerTimeout(timeout!));
  return {
    url,
    ...(depositUrl !== undefined ? { depositUrl } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(capabilities !== undefined ? { capabilities } : {}),
  };
}

/** The environment as start-up options; throws ConfigError when it would expose QA control or serve a broken client. */
export function startConfig(env: NodeJS.ProcessEnv): StartConfig {
  const production = env.NODE_ENV === 'production';
  const port = Number(env.PORT ?? 3000);
  const host = set(env.HOST)?.trim() ?? DEFAULT_HOST;
  // The stand-in API: the contract REST routes, /trpc, the deposit host, the captcha. Off, this
  // process serves the web app and a /config.json that points at the real provider.
  const standin = onOff(env, 'STANDIN', !production);
  const qaControl = onOff(env, 'QA_CONTROL', standin && !production);
  if (qaControl && !standin) throw new ConfigError(CONFIG_MESSAGES.qaWithoutStandin);
  const qaToken = set(env.QA_TOKEN);
  if (qaControl && qaToken !== undefined && qaToken.length < QA_TOKEN_MIN_LENGTH)
    throw new ConfigError(CONFIG_MESSAGES.tokenTooShort);
  if (qaControl && qaToken === undefined && !isLoopback(host))
    throw new ConfigError(CONFIG_MESSAGES.tokenRequired(host));
  const providerUrls = {
    apiBaseUrl: set(env.API_BASE_URL),
    depositBaseUrl: set(env.DEPOSIT_BASE_URL),
    walletCheckUrl: set(env.WALLET_CHECK_URL),
  };
  if (!standin) {
    const missing = (['API_BASE_URL', 'DEPOSIT_BASE_URL', 'WALLET_CHECK_URL'] as const).filter(
      (name) => !isAbsoluteHttpUrl(set(env[name])),
    );
    if (missing.length > 0) throw new ConfigError(CONFIG_MESSAGES.providerUrls(missing));
  }
  // It approves any address: production serves it only when asked, or when the real check is elsewhere.
  const walletCheckStandin = standin && onOff(env, 'WALLET_CHECK_STANDIN', !production);
  if (standin && !walletCheckStandin && providerUrls.walletCheckUrl === undefined)
    throw new ConfigError(CONFIG_MESSAGES.walletCheck);
  const provider = gatewayOf(env, standin);
  const autopay = env.DEMO_AUTOPAY_SECONDS ? Number(env.DEMO_AUTOPAY_SECONDS) : undefined;
  const requestTimeoutMs = Number(env.REQUEST_TIMEOUT_MS);
  // info by default (start, stop, faults, every 5xx); LOG=1 (before LOG_LEVEL) meant every request.
  const level = (set(env.LOG_LEVEL)?.trim().toLowerCase() ??
    (env.LOG === '0' ? 'silent' : env.LOG === '1' ? 'debug' : 'info')) as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new ConfigError(CONFIG_MESSAGES.logLevel(level));
  // Only a database file that does not exist yet is seeded (app.ts); production seeds nothing.
  const seed = set(env.SEED)?.trim() ?? (production ? 'none' : 'demo');
  if (seed !== 'none' && !isScenario(seed)) throw new ConfigError(CONFIG_MESSAGES.seed(seed));
  // Development mails from DEFAULT_MAIL_FROM; real mail in production must name a real sender.
  const mailFrom = set(env.MAIL_FROM)?.trim();
  if (mailFrom === undefined && set(env.SMTP_URL) && env.NODE_ENV === 'production')
    throw new ConfigError(CONFIG_MESSAGES.mailFromRequired);
  if (mailFrom !== undefined && !parseMailFrom(mailFrom))
    throw new ConfigError(CONFIG_MESSAGES.mailFrom(mailFrom));
  // QA worlds (modules/worlds): how many may be live at once; 0 turns them off.
  const worldsMax = set(env.WORLDS_MAX)?.trim();
  if (worldsMax !== undefined && !(/^\d+$/.test(worldsMax) && Number(worldsMax) <= 10_000))
    throw new ConfigError(CONFIG_MESSAGES.worldsMax(worldsMax));
  // In a fleet behind a proxy (docs/deployment.md), this server's name: its worlds' ids carry it.
  const fleetNode = set(env.FLEET_NODE)?.trim();
  if (fleetNode !== undefined && !FLEET_NODE.test(fleetNode))
    throw new ConfigError(CONFIG_MESSAGES.fleetNode(fleetNode));
  // And how many of them one client (an address) may hold.
  const perClient = set(env.WORLDS_PER_CLIENT)?.trim();
  if (
    perClient !== undefined &&
    !(/^\d+$/.test(perClient) && Number(perClient) >= 1 && Number(perClient) <= 10_000)
  )
    throw new ConfigError(CONFIG_MESSAGES.worldsPerClient(perClient));
  const corsOrigins =
    env.CORS_ORIGINS !== undefined
      ? corsOriginsOf(env.CORS_ORIGINS)
      : production
        ? []
        : [...DEV_CORS_ORIGINS];
  return {
    host,
    port,
    // Without the stand-in nothing is stored: a database in memory answers /readyz.
    databasePath: set(env.DATABASE_PATH) ?? (standin ? 'data/app.sqlite' : ':memory:'),
    build: {
      smtpUrl: set(env.SMTP_URL),
      ...(mailFrom !== undefined ? { mailFrom } : {}),
      logger: { level },
      seed,
      createDatabase: onOff(env, 'DATABASE_CREATE', true),
      standin,
      walletCheckStandin,
      demoHint: standin && onOff(env, 'DEMO_HINT', !production),
      sourceMaps: onOff(env, 'SOURCE_MAPS', !production),
      corsOrigins: standin ? corsOrigins : [],
      // The web app alone only makes sense in provider mode (the real provider speaks REST).
      clientMode: !standin || env.CLIENT_MODE === 'provider' ? 'provider' : 'mock',
      // A deployment that points provider mode at a real provider sets these (absolute URLs).
      providerUrls,
      ...(qaControl && qaToken !== undefined ? { qaToken } : {}),
      ...(provider ? { provider } : {}),
      ...(worldsMax === '0'
        ? { worlds: false as const }
        : worldsMax !== undefined || perClient !== undefined || fleetNode !== undefined
          ? {
              worlds: {
                ...(worldsMax !== undefined ? { max: Number(worldsMax) } : {}),
                ...(perClient !== undefined ? { perClient: Number(perClient) } : {}),
                ...(fleetNode !== undefined ? { node: fleetNode } : {}),
              },
            }
          : {}),
      config: {
        qaControl,
        publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
        ...(autopay && autopay > 0 ? { demoAutopaySeconds: autopay } : {}),
        ...(requestTimeoutMs > 0 ? { requestTimeoutMs } : {}),
        // Push endpoints on loopback or plain http (a local push service): with QA control only.
        pushLoopback: qaControl && onOff(env, 'PUSH_LOOPBACK', false),
      },
    },
  };
}
