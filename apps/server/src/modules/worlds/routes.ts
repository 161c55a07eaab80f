/**
 * How a request finds its world, and the worlds' QA routes.
 *
 * A request names a world by the `X-QA-World` header (API clients) or the `qa_world` cookie
 * (a browser, set by GET /__qa/worlds/:id/enter). The default app looks at it first thing and
 * hands the raw request to that world's app, which answers it with its own routes, hooks and
 * error handling; a name that is no live world is answered 404 here, never by the default world.
 * The lifecycle routes (/__qa/worlds…) are always the default app's: the list is the server's.
 *
 * So are the server's jobs (/__qa/jobs): one registry, whichever world started them.
 *
 * The world id (128 random bits) is what lets a client in: entering needs nothing more, as a
 * contract call naming the world needs nothing more (the lifecycle routes keep QA_TOKEN).
 * A request in a world holds it (registry.ts hold) until its answer is sent or its connection
 * closes: a world never expires under a request.
 *
 * A world made from a declared state is a job (core/jobs.ts): 202 with its URL at once, the
 * world when it is done (or 201 with it, when the caller waited: `?wait=true`).
 */
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie } from 'cookie';
import { z } from 'zod';
import { firstIssueMessage, type WorldState } from '@md/shared';
import { badRequest, notFound, sendError } from '../../core/errors.ts';
import { answerJob, JOBS_PATH, waitSecondsOf, type Jobs } from '../../core/jobs.ts';
import { ScratchFile } from '../../core/scratch.ts';
import type { Services } from '../../core/services.ts';
import type { Snapshots } from '../qa/snapshots.ts';
import { qaClientOf } from '../qa/token.ts';
import {
  DEFAULT_WORLD_TTL_MINUTES,
  MAX_WORLD_TTL_MINUTES,
  WORLD_MESSAGES,
  type CreateWorld,
  type WorldInfo,
  type Worlds,
} from './registry.ts';
import {
  appliedMigrations,
  applySettings,
  settingsOf,
  worldFileOf,
  type SettingsHolders,
  type WorldSettings,
} from './world-file.ts';
import { exportWorldFile, importWorldFile } from './world-thread.ts';

export const WORLD_HEADER = 'x-qa-world';
export const WORLD_COOKIE = 'qa_world';
const LIFECYCLE = '/__qa/worlds';

/** The world a request names (header first, then cookie), or undefined for the default world. */
export function worldIdOf(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  return namedWorld(request)?.id;
}

function namedWorld(
  request: Pick<FastifyRequest, 'headers'>,
): { id: string; by: 'header' | 'cookie' } | undefined {
  const header = request.headers[WORLD_HEADER];
  const named = Array.isArray(header) ? header[0] : header;
  if (named?.trim()) return named.trim() === 'default' ? undefined : { id: named.trim(), by: 'header' };
  const cookies = request.headers.cookie;
  if (!cookies?.includes(WORLD_COOKIE)) return undefined;
  const id = parseCookie(cookies)[WORLD_COOKIE];
  return id ? { id, by: 'cookie' } : undefined;
}

/** What a browser loads as a page or its parts (Sec-Fetch-Dest); its calls (fetch) are `empty`. */
const PAGE_PARTS: ReadonlySet<string> = new Set([
  'document',
  'script',
  'style',
  'image',
  'font',
  'manifest',
  'serviceworker',
]);

/**
 * A browser loading the web app's page or its files by the cookie: the same in every world (a tab
 * that holds a world of its own names it on its calls), so a stale cookie does not stop the page
 * of a tab that is in another world. QA paths stay the world's.
 */
const isPageLoad = (request: FastifyRequest) =>
  request.method === 'GET' &&
  PAGE_PARTS.has(String(request.headers['sec-fetch-dest'])) &&
  !request.url.startsWith('/__qa');

const isServerWide = (url: string) =>
  [LIFECYCLE, JOBS_PATH].some(
    (path) => url === path || url.startsWith(`${path}/`) || url.startsWith(`${path}?`),
  );

/** First thing on every request: one that names a world is that world's to answer. */
export function registerWorldDispatch(app: FastifyInstance, worlds: () => Worlds | undefined) {
  // A callback hook: a request that names no world (nearly every one) costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    const named = namedWorld(request);
    const registry = named && worlds();
    if (named === undefined || !registry || isServerWide(request.url)) return done();
    // Answered here (the world's app, or its 404): the default world's lifecycle stops, as a hook
    // that sends must not also call done().
    dispatch(registry, named, request, reply).then((answered) => answered || done(), done);
  });
}

/** Hands the request to its world; false when the default world is to answer it after all. */
async function dispatch(
  registry: Worlds,
  { id, by }: { id: string; by: 'header' | 'cookie' },
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const world = await registry.enter(id);
  const release = world && registry.hold(id);
  if (!world || !release) {
    // The page loads (the app then says its world is gone, and offers the way out); a call does not.
    if (by === 'cookie' && isPageLoad(request)) return false;
    sendError(reply.header(WORLD_HEADER, id), 404, WORLD_MESSAGES.unknown(id));
    return true;
  }
  // 'close' follows the answer's end, or the client going away first.
  reply.raw.once('close', release);
  reply.hijack();
  world.route(request.raw, reply.raw);
  return true;
}

export interface WorldRouteOptions {
  /** The default world's snapshots (`from: 'snapshot:<name>'` without a world named). */
  snapshots?: Snapshots;
  /** The default world's database and settings: exported as `default`, and its schema is the server's. */
  defaultWorld: { services: Pick<Services, 'sqlite' | 'clock'>; settings: SettingsHolders };
  /** The server's jobs: a declared state is built as one. */
  jobs: Jobs;
  /** A declared state, parsed: a 400 naming each fault's path before anything is made. */
  parseState?: (state: unknown) => WorldState;
}

const ttl = { error: WORLD_MESSAGES.ttl(MAX_WORLD_TTL_MINUTES) };
/** A world's idle minutes, from a JSON number or (`z.coerce`, a query string) its text. */
const ttlMinutesField = (number: z.ZodNumber | z.ZodCoercedNumber) =>
  number
    .int(ttl)
    .min(1, ttl)
    .max(MAX_WORLD_TTL_MINUTES, ttl)
    .optional()
    .describe(`Idle minutes before it expires (${DEFAULT_WORLD_TTL_MINUTES} by default)`);
/** A world's name: what QA calls it, shown by the panel and the world's badge. */
export const worldName = z
  .string({ error: WORLD_MESSAGES.name })
  .trim()
  .min(1, { error: WORLD_MESSAGES.name })
  .max(64, { error: WORLD_MESSAGES.name })
  .describe('What to call it (1–64 characters): the panel and the badge on its pages show it');

/** The body of POST /__qa/worlds (the OpenAPI document's too, with the declared state's schema). */
export const worldCreateInput = z
  .object(
    {
      name: worldName.optional(),
      from: z
        .string({ error: WORLD_MESSAGES.from })
        .optional()
        .describe(
          "A scenario (demo, empty, scale) or 'snapshot:<name>'; demo by default, empty with a state",
        ),
      clientMode: z
        .enum(['mock', 'provider'], { error: WORLD_MESSAGES.clientMode })
        .optional()
        .describe("The mode the world's /config.json announces"),
      ttlMinutes: ttlMinutesField(z.number(ttl)),
      // Checked by the declared-state parser, which names the path of every fault (not zod's first).
      state: z.unknown().optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'The body must be a JSON object' : undefined) },
  )
  .strict();

/** The query of POST /__qa/worlds/import: what the new world is besides the file. */
export const worldImportQuery = z
  .object({
    name: worldName.optional().describe('What to call it; the exported world’s name by default'),
    clientMode: worldCreateInput.shape.clientMode,
    ttlMinutes: ttlMinutesField(z.coerce.number(ttl)),
  })
  .strict();

function parseCreate(body: unknown) {
  const result = worldCreateInput.safeParse(body ?? {});
  if (!result.success) throw badRequest(firstIssueMessage(result.error));
  return result.data;
}

/** The lifecycle, in the QA scope (QA_TOKEN when set). */
export function registerWorldRoutes(app: FastifyInstance, worlds: Worlds, options: WorldRouteOptions) {
  const created = (world: WorldInfo) => ({ ...world, enter: `${LIFECYCLE}/${world.id}/enter` });
  app.post(LIFECYCLE, async (request, reply) => {
    const body = parseCreate(request.body);
    const wait = waitSecondsOf(request.query);
    const client = qaClientOf(request);
    const create: CreateWorld = {
      client,
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.from !== undefined ? { from: body.from } : {}),
      ...(body.ttlMinutes !== undefined ? { ttlMinutes: body.ttlMinutes } : {}),
      ...(body.clientMode !== undefined ? { clientMode: body.clientMode } : {}),
    };
    if (body.state !== undefined) {
      if (!options.parseState) throw badRequest('This server builds no declared states');
      const state = options.parseState(body.state);
      // Refused now, not in the job, when no world could be made.
      if (body.from !== undefined && body.from !== 'empty') throw badRequest(WORLD_MESSAGES.stateWithFrom);
      worlds.admit(client);
      const job = options.jobs.start('world', { world: null, client }, async (control) => {
        const world = await worlds.create({
          ...create,
          state,
          control: {
            signal: control.signal,
            onProgress: ({ members, runs }) => control.progress({ members, runs }),
            onId: control.inWorld,
          },
        });
        return created(world);
      });
      return answerJob(reply, options.jobs, job, wait, (world) => ({ status: 201, body: world }));
    }
    // A snapshot of the world the request is in, else of the default world.
    const inWorld = worldIdOf(request);
    if (inWorld === undefined) create.snapshots = options.snapshots;
    else {
      const world = await worlds.enter(inWorld);
      if (!world) throw notFound(WORLD_MESSAGES.unknown(inWorld));
      create.snapshots = world.snapshots;
    }
    const world = await worlds.create(create);
    return reply.code(201).send(created(world));
  });
  app.get(LIFECYCLE, async () => ({
    max: worlds.max,
    perClient: worlds.perClient,
    worlds: worlds.list(),
    history: worlds.history(),
  }));
  app.get(`${LIFECYCLE}/current`, async (request) => {
    const id = worldIdOf(request);
    return { world: id === undefined ? null : (worlds.info(id) ?? null), named: id ?? null };
  });
  // A world as one file (world-file.ts), and a file as a new world: a world travels between servers.
  app.get<{ Params: { id: string } }>(`${LIFECYCLE}/:id/export`, async (request, reply) => {
    const { id } = request.params;
    let sqlite: Services['sqlite'];
    let settings: WorldSettings;
    if (id === 'default') {
      sqlite = options.defaultWorld.services.sqlite;
      settings = { from: 'default', ...settingsOf(options.defaultWorld.settings) };
    } else {
      const world = await worlds.enter(id);
      const info = worlds.info(id);
      if (!world || !info) throw notFound(WORLD_MESSAGES.unknown(id));
      sqlite = world.services.sqlite;
      settings = {
        from: info.from,
        ...(info.name ? { name: info.name } : {}),
        ...(info.clientMode ? { clientMode: info.clientMode } : {}),
        ...settingsOf(world.settings),
      };
    }
    // Written to disk by a thread and sent from there: a large world is never whole in memory here.
    const file = await ScratchFile.make('export');
    try {
      await exportWorldFile(sqlite, file.path, settings, new Date(options.defaultWorld.services.clock.now()));
      const size = await file.size();
      const stream = createReadStream(file.path);
      reply.raw.once('close', () => void file.remove());
      return reply
        .header('content-type', 'application/vnd.sqlite3')
        .header('content-length', size)
        .header('content-disposition', `attachment; filename="${id}.world.sqlite"`)
        .send(stream);
    } catch (error) {
      await file.remove();
      throw error;
    }
  });
  app.post(`${LIFECYCLE}/import`, async (request, reply) => {
    const query = worldImportQuery.safeParse(request.query ?? {});
    if (!query.success) throw badRequest(firstIssueMessage(query.error));
    const client = qaClientOf(request);
    // Its place is held while the file is read (seconds for a large world): a burst of imports
    // is refused at the caps before any of them is read.
    const release = worlds.reserve(client);
    try {
      return await importWorld(request.body, query.data, client, reply);
    } finally {
      release();
    }
  });
  async function importWorld(
    body: unknown,
    query: z.output<typeof worldImportQuery>,
    client: string,
    reply: FastifyReply,
  ) {
    const file = worldFileOf(body);
    const { settings, exportedAt } = await importWorldFile(
      file.path,
      appliedMigrations(options.defaultWorld.services.sqlite),
    );
    const clientMode = query.clientMode ?? settings.clientMode;
    const name = query.name ?? settings.name;
    const world = await worlds.create({
      client,
      reserved: true,
      ...(name ? { name } : {}),
      from: `import (${settings.from})`,
      image: { file: file.path },
      ...(clientMode ? { clientMode } : {}),
      ...(query.ttlMinutes !== undefined ? { ttlMinutes: query.ttlMinutes } : {}),
    });
    const app = await worlds.enter(world.id);
    const notCarried = applySettings(app!.settings, settings);
    return reply.code(201).send({ ...created(world), exportedAt, notCarried });
  }
  app.delete<{ Params: { id: string } }>(`${LIFECYCLE}/:id`, async (request) => {
    await worlds.remove(request.params.id, qaClientOf(request));
    return { deleted: request.params.id };
  });
}
