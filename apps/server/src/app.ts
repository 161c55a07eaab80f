/**
 * buildApp: the whole provider stand-in as a Fastify instance that is not listening yet.
 * One port serves REST at the provider paths, /trpc, /config.json, /docs, /__qa and the web app;
 * with `standin: false` only the web app, /config.json and the health routes (deployment roles,
 * config.ts and docs/deployment.md).
 */
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type LogLevel,
} from 'fastify';
import fastifyJwt from '@fastify/jwt';
import fastifyStatic from '@fastify/static';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clockState, openDatabase, type Db } from '@md/db';
import { MSG, parseWorldState, type Plan, type ProcedureName, type RuntimeConfig } from '@md/shared';
import { offsetClock, type Clock } from './core/clock.ts';
import {
  AppError,
  badRequest,
  logServerError,
  markExplained,
  NOT_FOUND_MESSAGE,
  routeOf,
  sendError,
  serverErrorLogged,
} from './core/errors.ts';
import { registerAnswerHeaders, requestIdOf } from './core/answer-headers.ts';
import { readiness } from './core/health.ts';
import { createMailer, type Mailer } from './core/mailer.ts';
import { createPusher } from './modules/push/sender.ts';
import { logAfterAnswerFailures } from './core/after-answer.ts';
import type { ServerConfig, Services } from './core/services.ts';
import { loadPlan } from './core/plan.ts';
import { registerSecurityHeaders } from './core/security-headers.ts';
import { createGroupCommit, holdAnswersUntilSynced } from './core/group-commit.ts';
import { createStorageMonitor, reportStorageFault } from './core/storage.ts';
import { createTokenService } from './core/tokens.ts';
import { webAssetOptions } from './core/web-assets.ts';
import { registerCaptchaRoutes } from './modules/auth/captcha.ts';
import { registerGatewayCaptcha } from './modules/gateway/captcha.ts';
import { createDriftStore } from './modules/gateway/drift.ts';
import { registerDriftRoutes } from './modules/gateway/drift-routes.ts';
import { DEFAULT_PROVIDER_TIMEOUT_MS } from './modules/gateway/forward.ts';
import { createGateway, type Gateway } from './modules/gateway/gateway.ts';
import { registerGatewayRoutes } from './modules/gateway/routes.ts';
import { isDocsUrl, registerDocs } from './modules/docs/routes.ts';
import { handlers } from './modules/index.ts';
import { registerQaRoutes } from './modules/qa/routes.ts';
import { createQaSurface, type QaSurface } from './modules/qa/surface.ts';
import { createWorlds, type WorldBuilder, type Worlds } from './modules/worlds/registry.ts';
import { registerWorldDoors } from './modules/worlds/doors.ts';
import { registerWorldDispatch, registerWorldRoutes } from './modules/worlds/routes.ts';
import { startJobTimer } from './modules/engine/jobs.ts';
import { requireQaToken } from './modules/qa/token.ts';
import {
  registerWalletCheckStandin,
  WALLET_CHECK_STANDIN_PATH,
} from './modules/security/wallet-check-standin.ts';
import { seedScenario } from './seed/index.ts';
import { owesRuns, startDailyRuns } from './modules/engine/runner.ts';
import { runWorldThread } from './modules/worlds/world-thread.ts';
import { registerJobRoutes } from './modules/qa/job-routes.ts';
import { createJobs, type Jobs } from './core/jobs.ts';
import { backfillBinaryStats } from './modules/engine/stats.ts';
import { checksumStoredAddresses } from './modules/withdrawals/checksum-fix.ts';
import { chainInterceptors } from './transport/call.ts';
import { honestCapabilities, STANDIN_CAPABILITIES } from './modules/gateway/capabilities.ts';
import { registerCors } from './transport/cors.ts';
import { RATE_RULES } from './transport/rate-limit.ts';
import { registerRestRoutes } from './transport/rest.ts';
import { guardTrpcContentType } from './transport/trpc.ts';
import { registerTrpcRoutes } from './transport/trpc-http.ts';

export interface BuildOptions {
  /** SQLite file, or ':memory:' (tests). */
  databasePath?: string;
  /** The recorded examples the OpenAPI document shows (DEFAULT_EXAMPLES_FILE); null: none. */
  examplesFile?: string | null;
  /** ':memory:' only: the database starts as this image (a QA world's copy of a template). */
  databaseImage?: Buffer;
  /**
   * QA worlds (modules/worlds): isolated stand-ins on this server, on while QA control is;
   * `max` is WORLDS_MAX. false: none (a world's own app).
   */
  worlds?:
    | false
    | {
        max?: number;
        /** WORLDS_PER_CLIENT. */
        perClient?: number;
        /** FLEET_NODE: this server's name in a fleet, carried by its worlds' ids. */
        node?: string;
        /** The worlds' idea of now, for their TTLs (tests). */
        now?: () => number;
      };
  /** The server's jobs (core/jobs.ts): a QA world's app shares its server's; made when absent. */
  jobs?: Jobs;
  /** This app is the QA world of that id: /config.json says so (the QA panel shows it). */
  worldId?: string;
  /** That world's name, when QA gave it one: /config.json says it too (the badge on its pages shows it). */
  worldName?: string;
  clock?: Clock;
  mailer?: Mailer;
  jwtSecret?: string;
  /**
   * Scenario to seed a new database with ('demo' by default; 'empty' or 'none' seed nothing).
   * Seeded only when the file did not exist at start (or ':memory:'): an existing file is never
   * seeded, and a missing one whose traces remain is refused (@md/db).
   */
  seed?: string;
  /** false: refuse to create a database file that does not exist (DATABASE_CREATE=off). */
  createDatabase?: boolean;
  /**
   * The stand-in API (true by default): the contract REST routes, the deposit host, /trpc, the
   * captcha, /docs, QA control and the daily runs. false: the web app and /config.json only.
   */
  standin?: boolean;
  /** Serve the wallet-check stand-in (/__mock/bscscan/…, approves any address); true by default outside production. */
  walletCheckStandin?: boolean;
  /** Announce the demo member in /config.json; true by default outside production. */
  demoHint?: boolean;
  /** Serve the web app's *.map files; true by default outside production. */
  sourceMaps?: boolean;
  /** Origins whose browser clients may call the stand-in API (transport/cors.ts); none by default. */
  corsOrigins?: readonly string[];
  config?: Partial<ServerConfig>;
  smtpUrl?: string;
  /** MAIL_FROM (core/mailer.ts DEFAULT_MAIL_FROM when absent). */
  mailFrom?: string;
  /** Waits between SMTP attempts (short in tests). */
  mailRetryDelaysMs?: readonly number[];
  /** Waits between push attempts (modules/push/sender.ts); tests shorten them. */
  pushRetryDelaysMs?: readonly number[];
  /** Syncs the `-wal` for group commit (core/group-commit.ts); a test slows it down or fails it. */
  walSync?: (walPath: string) => Promise<void>;
  /**
   * Fastify's pino logger: off unless set (tests stay quiet); true is `info`. At `debug`, one line
   * per request. `stream` captures the lines (tests).
   */
  logger?: boolean | { level?: LogLevel; stream?: { write(line: string): void } };
  /** Why the daily runs are failing, if they are: /readyz reports it (core/health.ts runSignal). */
  runsFailing?: () => string | false | null | undefined;
  /** Folder of the built web app; served when it exists. */
  webDist?: string;
  /** Mode announced in /config.json ('mock' or 'provider'): the e2e suite runs both. */
  clientMode?: RuntimeConfig['mode'];
  /**
   * Where /config.json sends a provider-mode client (absolute URLs of a real provider); this
   * server's own paths by default. The Content-Security-Policy lets the page call their origins.
   */
  providerUrls?: Partial<Pick<RuntimeConfig, 'apiBaseUrl' | 'depositBaseUrl' | 'walletCheckUrl'>>;
  /** Package tiers and fees; defaults to PLAN_FILE or the shared defaults. */
  plan?: Plan;
  /** Randomness of QA fault probabilities and random delays (seeded in tests). */
  random?: () => number;
  /** QA_TOKEN: every /__qa call and X-QA-Fault header must present it in X-QA-Token (modules/qa/token.ts). */
  qaToken?: string;
  /**
   * Gateway mode (modules/gateway): contract calls are forwarded to the real provider
   * (PROVIDER_URL; PROVIDER_DEPOSIT_URL for the deposit host, `url` when absent) unless QA routes
   * an endpoint to the stand-in or a recording. `timeoutMs`: PROVIDER_TIMEOUT_MS.
   */
  provider?: {
    url: string;
    depositUrl?: string;
    timeoutMs?: number;
    /** The capabilities the provider itself has (PROVIDER_CAPABILITIES): advertised while routed to it. */
    capabilities?: readonly string[];
  };
}

export interface App {
  fastify: FastifyInstance;
  services: Services;
  /** True when this start created the database (a new file, or ':memory:'). */
  created: boolean;
  /** The scenario this start seeded the new database with, or null (an existing file is never seeded). */
  seeded: string | null;
  /** The QA surface (faults, journal, snapshots) while QA control is on. */
  qa?: QaSurface;
  /** The provider gateway (its routing, recordings), while QA control is on or a provider is set. */
  gateway?: Gateway;
}

const here = dirname(fileURLToPath(import.meta.url));
export const DEFAULT_WEB_DIST = resolve(here, '../../web/dist');
/** The examples the build recorded for the OpenAPI document (src/openapi-examples.ts). */
export const DEFAULT_EXAMPLES_FILE = resolve(here, '../dist/openapi-examples.json');

/**
 * Fastify's own lines per request (two at info) would drown the faults: one line per request, at
 * debug; a route not found and a client closing early, at debug too. Its error lines stay.
 */
class RequestLines extends LogController {
  constructor(private readonly perRequest: boolean) {
    super();
  }
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) return super.requestCompleted(error, request, reply);
    if (!this.perRequest) return;
    // The path only: a query string may carry a tRPC query's input.
    request.log.debug(
      {
        method: request.method,
        url: request.url.split('?', 1)[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  }
  override routeNotFound(request: FastifyRequest) {
    request.log.debug({ method: request.method, url: request.url.split('?', 1)[0] }, 'route not found');
  }
  override streamError(error: Error, request: FastifyRequest, reply: FastifyReply) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE')
      return request.log.debug('client closed before the answer was sent');
    return super.streamError(error, request, reply);
  }
}

function persistedClock(db: Db): Clock {
  return offsetClock(
    () => db.select().from(clockState).get()?.offsetMs ?? 0,
    (offsetMs) =>
      db
        .insert(clockState)
        .values({ id: 1, offsetMs })
        .onConflictDoUpdate({ target: clockState.id, set: { offsetMs } })
        .run(),
  );
}

export async function buildApp(options: BuildOptions = {}): Promise<App> {
  const {
    db,
    sqlite,
    created: noSchema,
    fileExisted,
    files,
  } = openDatabase(options.databasePath ?? ':memory:', {
    create: options.createDatabase !== false,
    ...(options.databaseImage ? { image: options.databaseImage } : {}),
  });
  const created = !fileExisted;
  const clock = options.clock ?? persistedClock(db);
  const production = process.env.NODE_ENV === 'production';
  const standin = options.standin !== false;
  const walletCheckStandin = standin && (options.walletCheckStandin ?? !production);
  const config: ServerConfig = {
    validateOutput: !production,
    qaControl: !production,
    publicUrl: 'http://localhost:3000',
    rateLimits: true,
    readCache: process.env.READ_CACHE !== 'off',
    requestTimeoutMs: 20_000,
    captchaHmacKey: randomBytes(32).toString('hex'),
    captchaMaxNumber: 100_000,
    ...options.config,
  };
  // QA control drives the stand-in's database: nothing to drive without it.
  if (!standin) config.qaControl = false;

  const runtimeConfig: RuntimeConfig = {
    mode: options.clientMode ?? (process.env.CLIENT_MODE === 'provider' ? 'provider' : 'mock'),
    trpcUrl: '/trpc',
    apiBaseUrl: options.providerUrls?.apiBaseUrl ?? '',
    depositBaseUrl: options.providerUrls?.depositBaseUrl ?? '',
    walletCheckUrl:
      options.providerUrls?.walletCheckUrl ?? (walletCheckStandin ? WALLET_CHECK_STANDIN_PATH : ''),
    depositGateway: 'nowpayments',
    requestTimeoutMs: config.requestTimeoutMs,
    // Extensions of this stand-in (contract entries marked `extension`) and its protocol capabilities.
    ...(standin
      ? {
          captchaChallengeUrl: '/captcha/challenge',
          capabilities: [...STANDIN_CAPABILITIES, ...(config.qaControl ? ['qa'] : [])],
        }
      : { capabilities: [] }),
    // The published demo password: never announced in production unless asked (DEMO_HINT=on).
    ...(standin && (options.demoHint ?? !production)
      ? { demoHint: { username: 'demo', password: 'Demo@1234' } }
      : {}),
    ...(options.worldId ? { qaWorld: options.worldId } : {}),
    ...(options.worldName ? { qaWorldName: options.worldName } : {}),
  };

  // A tRPC batch names all its procedures in one path segment: allow long ones.
  const logger = options.logger === true ? { level: 'info' } : options.logger || false;
  const perRequest = logger !== false && (logger.level === 'debug' || logger.level === 'trace');
  const fastify = Fastify({
    logger,
    logController: new RequestLines(perRequest),
    bodyLimit: 64 * 1024,
    routerOptions: { maxParamLength: 5000 },
    requestIdHeader: false,
    genReqId: requestIdOf,
  });
  registerAnswerHeaders(fastify);
  // Every 5xx leaves a line saying why: those nobody explained (a QA fault's raw answer) get one here.
  // (A callback hook: no promise per request.)
  // First of all hooks: a request naming a QA world is that world's app's to answer. Only a
  // server that can have worlds looks (they come with QA control, below).
  let worlds: Worlds | undefined;
  if (config.qaControl && options.worlds !== false) registerWorldDispatch(fastify, () => worlds);
  fastify.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode >= 500 && !serverErrorLogged(request))
      request.log.warn(
        { route: routeOf(request), status: reply.statusCode },
        `Answered ${reply.statusCode} without an error (a QA fault rule, or an answer the transport made)`,
      );
    done();
  });
  const jwtSecret = options.jwtSecret ?? randomBytes(32).toString('hex');
  await fastify.register(fastifyJwt, {
    secret: jwtSecret,
    sign: { algorithm: 'HS256' },
    verify: { algorithms: ['HS256'] },
  });
  registerSecurityHeaders(fastify, { runtimeConfig, publicUrl: config.publicUrl });
  const services: Services = {
    db,
    sqlite,
    clock,
    mailer:
      options.mailer ??
      createMailer({
        db,
        clock,
        smtpUrl: options.smtpUrl,
        from: options.mailFrom,
        retryDelaysMs: options.mailRetryDelaysMs,
        log: fastify.log,
      }),
    tokens: createTokenService(
      fastify,
      db,
      clock,
      () => (services.writeTurns?.held() ?? false) || (services.storage?.problem() ?? null) !== null,
    ),
    config,
    plan: options.plan ?? loadPlan(),
    inFlightKeys: new Set(),
    jobs: options.jobs ?? createJobs(),
    storage: createStorageMonitor(sqlite, files, fastify.log),
    ...(sqlite.memory ? {} : { groupCommit: createGroupCommit(sqlite, options.walSync) }),
  };
  logAfterAnswerFailures(services, fastify.log);
  // Web Push: what notices queued is sent after their transactions (and what a stopped server left, now).
  const pusher = standin
    ? createPusher(services, { retryDelaysMs: options.pushRetryDelaysMs, log: fastify.log })
    : undefined;

  // Seeded only when this start created the file (never over one that existed, or one that went missing).
  const scenario = options.seed ?? 'demo';
  const seeded = created && scenario !== 'empty' && scenario !== 'none' ? scenario : null;
  if (seeded) seedScenario(services, seeded);
  else if (noSchema && fileExisted)
    fastify.log.warn('The database file existed but held no tables: migrated, not seeded.');
  // A database from before the engine gets its binary_stats; a run a killed process left half
  // done is finished from its cursor, in the daily runs' worker (the server listens meanwhile).
  backfillBinaryStats(services);
  // Withdrawal addresses an older seed stored lowercase, in EIP-55 form (once per database).
  checksumStoredAddresses(services);
  if (standin) {
    const runs = startDailyRuns(fastify, services, options.databasePath ?? ':memory:');
    if (runs.writeTurns) services.writeTurns = runs.writeTurns;
  }
  if (services.groupCommit) holdAnswersUntilSynced(fastify, services.groupCommit, services.storage);

  // Every error leaves as the provider's envelope; bad JSON is a 400, never a 500; a storage
  // fault is a 503 (core/storage.ts). Every 5xx is logged with its cause.
  fastify.setErrorHandler((error, request, reply) => {
    const storage = reportStorageFault(services.storage, request, error);
    if (storage) return sendError(reply, storage.status, storage.message);
    if (error instanceof AppError) {
      if (error.status >= 500 && !serverErrorLogged(request))
        logServerError(request, error, `Answered ${error.status}: ${error.message}`, {}, 'warn');
      return sendError(reply, error.status, error.message, error);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      const message =
        status === 413
          ? 'Request body is too large'
          : status === 415
            ? 'Send the body as application/json'
            : 'The request body is not valid JSON';
      return status === 415 || status === 413
        ? sendError(reply, status, message)
        : sendError(reply, 400, message, { code: 'INVALID_JSON' });
    }
    logServerError(request, error, 'Unexpected error, answered 500');
    return sendError(reply, 500, MSG.unexpectedError);
  });

  // For operators, never behind QA control: liveness (the process answers) and readiness (core/health.ts).
  const startedAt = Date.now();
  fastify.get('/healthz', async () => ({
    status: 'alive',
    uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
  }));
  let lastReasons = '';
  fastify.get('/readyz', async (request, reply) => {
    const state = readiness(services, { runsFailing: options.runsFailing?.() });
    // Logged when the answer changes, not at every poll; the 503 is explained by its reasons.
    const reasons = state.reasons.join('; ');
    if (reasons !== lastReasons) {
      if (state.ready) request.log.info('Ready again');
      else request.log.warn({ reasons: state.reasons }, `Not ready: ${reasons}`);
      lastReasons = reasons;
    }
    markExplained(request);
    return reply
      .code(state.ready ? 200 : 503)
      .send({ status: state.ready ? 'ready' : 'not ready', ...state });
  });

  // The provider gateway answers contract calls per endpoint (provider, stand-in or recording);
  // without PROVIDER_URL it is there for QA alone (replaying recordings), and drift needs a reader.
  const drift = config.qaControl ? createDriftStore({ now: () => clock.now() }) : undefined;
  const gateway =
    standin && (config.qaControl || options.provider)
      ? createGateway(services, {
          provider: options.provider && {
            apiUrl: options.provider.url,
            depositUrl: options.provider.depositUrl,
            timeoutMs: options.provider.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
          },
          recordingsDir: sqlite.memory ? null : `${resolve(sqlite.name)}.recordings`,
          drift,
        })
      : undefined;
  // The QA surface (faults, journal, snapshots) wraps every contract call on both transports, around the gateway.
  const qa = config.qaControl
    ? createQaSurface(fastify, services, {
        random: options.random,
        token: options.qaToken,
        memberOfToken: gateway?.memberOfToken,
      })
    : undefined;
  const intercept = chainInterceptors(qa?.intercept, gateway?.intercept, gateway?.passes);
  if (qa && options.worlds !== false)
    worlds = createWorlds(worldBuilder(options, { jwtSecret, log: fastify.log, jobs: services.jobs }), {
      databasePath: options.databasePath ?? ':memory:',
      owesRuns,
      // A world whose clock is moving (a job) does not expire under it.
      working: services.jobs.running,
      ...options.worlds,
    });
  if (standin) {
    // Browser clients on the allowed origins call the stand-in API across origins, as a real provider's are.
    if (options.corsOrigins?.length) await registerCors(fastify, options.corsOrigins);
    registerRestRoutes(fastify, services, handlers, intercept);
    // In gateway mode the challenge comes from whoever checks the solution (modules/gateway/captcha.ts).
    if (gateway?.hasProvider) registerGatewayCaptcha(fastify, services, gateway);
    else registerCaptchaRoutes(fastify, services);
    // /trpc in its own scope: the content-type guard and the text body parser are for it alone.
    await fastify.register(async (trpcScope) => {
      guardTrpcContentType(trpcScope);
      registerTrpcRoutes(trpcScope, services, handlers, intercept);
    });
  }
  if (walletCheckStandin) registerWalletCheckStandin(fastify);

  // In front of a real provider, only what the routing can answer for the real member (gateway/capabilities.ts).
  const provider = options.provider;
  fastify.get('/config.json', async () =>
    gateway && provider
      ? {
          ...runtimeConfig,
          capabilities: honestCapabilities(runtimeConfig.capabilities, gateway.routing, {
            capabilities: provider.capabilities ?? [],
          }),
        }
      : runtimeConfig,
  );
  if (worlds) registerWorldDoors(fastify, worlds);

  if (standin)
    await registerDocs(fastify, {
      qaControl: config.qaControl,
      publicUrl: config.publicUrl,
      qaToken: options.qaToken !== undefined,
      rateLimited: Object.keys(RATE_RULES) as ProcedureName[],
      examplesFile: options.examplesFile === undefined ? DEFAULT_EXAMPLES_FILE : options.examplesFile,
    });
  // In their own scope, so the token check guards exactly the /__qa routes, however the URL is spelled.
  if (qa)
    await fastify.register(async (qaScope) => {
      if (options.qaToken !== undefined) requireQaToken(qaScope, options.qaToken);
      // As contract calls (transport/call.ts): writes refused while the files are gone or unwritable.
      qaScope.addHook('preHandler', async (request) =>
        services.storage?.guard(request.method !== 'GET' && request.method !== 'HEAD'),
      );
      registerQaRoutes(qaScope, services, qa, { world: options.worldId ?? null });
      // A world's own app never sees /__qa/jobs (the dispatch keeps it for the server's app).
      if (!options.worldId) registerJobRoutes(qaScope, services.jobs);
      if (worlds)
        registerWorldRoutes(qaScope, worlds, {
          snapshots: qa.snapshots,
          defaultWorld: {
            services,
            settings: { faults: qa.faults, routing: gateway?.routing, hasProvider: gateway?.hasProvider },
          },
          jobs: services.jobs,
          parseState: (input) => {
            // Every fault of the document named by its path, before any world is made.
            const parsed = parseWorldState(input, services.plan);
            if (!parsed.success) throw badRequest(parsed.error);
            return parsed.state;
          },
        });
      if (gateway) registerGatewayRoutes(qaScope, gateway);
      if (drift) registerDriftRoutes(qaScope, drift);
    });

  const webDist = options.webDist ?? DEFAULT_WEB_DIST;
  if (existsSync(webDist)) {
    // wildcard: files are looked up per request, so a rebuilt dist is served without a restart.
    await fastify.register(
      fastifyStatic,
      webAssetOptions(webDist, { sourceMaps: options.sourceMaps ?? !production }),
    );
    fastify.setNotFoundHandler((request, reply) => {
      // A missing hashed asset is a 404, never index.html (a stale tab would run HTML as a script).
      const apiOrAsset =
        ['/__qa', '/__mock/', '/trpc', '/captcha/', '/assets/'].some((prefix) =>
          request.url.startsWith(prefix),
        ) || isDocsUrl(request.url);
      if (request.method === 'GET' && !apiOrAsset) return reply.sendFile('index.html');
      return sendError(reply, 404, NOT_FOUND_MESSAGE);
    });
  } else {
    fastify.setNotFoundHandler((_request, reply) => sendError(reply, 404, NOT_FOUND_MESSAGE));
  }

  fastify.addHook('onClose', async () => {
    // The server's jobs stop first (a build's thread ends; an advance after its run in progress).
    if (!options.jobs) await services.jobs.close();
    await worlds?.close();
    gateway?.close();
    services.mailer.close();
    pusher?.close();
    services.storage?.close();
    services.tokens.flushLastSeen();
    services.groupCommit?.close();
    sqlite.close();
  });
  return { fastify, services, created, seeded, qa, gateway };
}

/**
 * How this server makes a QA world: the same app as itself on the world's database, seeding
 * nothing, with a token key of its own (derived from the server's: a token of one world fails
 * the signature in every other), its own persisted clock, mailer and daily-run timer.
 */
function worldBuilder(
  options: BuildOptions,
  server: { jwtSecret: string; log: FastifyInstance['log']; jobs: Jobs },
): WorldBuilder {
  const { clock: _clock, mailer: _mailer, seed: _seed, databaseImage: _image, ...shared } = options;
  return {
    log: server.log,
    async build({ id, databasePath, image, clientMode, name }) {
      const app = await buildApp({
        ...shared,
        ...(clientMode ? { clientMode } : {}),
        databasePath,
        ...(image ? { databaseImage: image } : {}),
        seed: 'none',
        createDatabase: true,
        jwtSecret: createHmac('sha256', server.jwtSecret).update(`world:${id}`).digest('hex'),
        worlds: false,
        worldId: id,
        ...(name ? { worldName: name } : {}),
        jobs: server.jobs,
      });
      await app.fastify.ready();
      const timer = startJobTimer(app.services, (error) =>
        server.log.error(
          { err: error, world: id },
          'Daily run failed in a world (it resumes on the next tick)',
        ),
      );
      return {
        services: app.services,
        snapshots: app.qa?.snapshots,
        settings: {
          faults: app.qa?.faults,
          routing: app.gateway?.routing,
          hasProvider: app.gateway?.hasProvider,
        },
        route: (request, response) => app.fastify.routing(request, response),
        caughtUp: timer.caughtUp,
        async close() {
          timer.stop();
          await app.fastify.close();
        },
      };
    },
    // Both in a thread of their own (world-worker.ts): the request thread never seeds.
    async template(scenario, file) {
      const built = await runWorldThread({
        kind: 'template',
        scenario,
        file,
        ...(options.plan ? { plan: options.plan } : {}),
      });
      return built.image;
    },
    async state(state, file, control) {
      const built = await runWorldThread(
        { kind: 'state', state, file, ...(options.plan ? { plan: options.plan } : {}) },
        control,
      );
      return built.image;
    },
  };
}
