/**
 * QA worlds: complete, isolated stand-ins on one server. A world is a whole app of its own (its
 * database, clock, faults, routing, drift, recordings, mailbox, journal, counters, read cache,
 * token key and daily runs, all hanging off its own `Services`), so isolation needs no special
 * case anywhere: a request that names a world is handed to that world's app (dispatch.ts).
 *
 * Rule: a world from a scenario is a copy of a template seeded once per scenario and kept (a file
 * copy, or a serialized image in memory), never a re-seed. Idle worlds expire after their TTL; at
 * most `max` live at once. On a database file, worlds live in `<database>.worlds/<id>/` with a
 * registry file, and survive a restart (reopened on first use); on ':memory:' they die with the
 * process. Templates are rebuilt after a restart (the code that seeds them may have changed).
 */
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import type { Services } from '../../core/services.ts';
import type { Snapshots } from '../qa/snapshots.ts';
import { isScenario, SCENARIOS } from '../../seed/index.ts';

export const WORLD_MESSAGES = {
  unknown: (id: string) =>
    `World '${id}' is unknown or has expired (GET /__qa/worlds lists the live ones; GET /__qa/worlds/leave returns a browser to the default world)`,
  full: (max: number) =>
    `No more worlds: ${max} are live (WORLDS_MAX). Delete one (DELETE /__qa/worlds/:id) or wait for an idle one to expire.`,
  from: `'from' is a scenario (${SCENARIOS.map((s) => s.name).join(', ')}) or 'snapshot:<name>'`,
  stateWithFrom: "A declared 'state' builds on an empty world: leave 'from' out (or set it to 'empty')",
  ttl: (max: number) => `ttlMinutes is a whole number of minutes from 1 to ${max}`,
  clientMode: "clientMode is 'mock' (tRPC) or 'provider' (REST at the provider's paths)",
} as const;

export const DEFAULT_WORLD_TTL_MINUTES = 120;
export const MAX_WORLD_TTL_MINUTES = 7 * 24 * 60;
export const DEFAULT_WORLDS_MAX = 100;
/** 128 random bits, URL-safe: the id is what lets a client into a world. */
const WORLD_ID = /^w-[A-Za-z0-9_-]{22}$/;

/** Where a new world's database comes from: a file to copy, or a serialized image (':memory:'). */
export type WorldImage = { file: string } | { data: Buffer } | null;

/** What the registry needs of a built world's app. */
export interface WorldApp {
  services: Services;
  snapshots?: Snapshots;
  /** Hands a raw request to the world's own routes, hooks and error handling. */
  route(request: IncomingMessage, response: ServerResponse): void;
  close(): Promise<void>;
}

export interface WorldBuilder {
  /** A world's app on `databasePath` (a file, or ':memory:' with `image`), seeding nothing. */
  build(world: {
    id: string;
    databasePath: string;
    image?: Buffer;
    clientMode?: ClientMode;
  }): Promise<WorldApp>;
  /** Seeds `scenario` into a database in memory: written to `file` (compact, without a WAL), else answered as its image. */
  template(scenario: string, file: string | null): Promise<Buffer | void>;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
}

/** How the web app is told to talk to a world (its /config.json `mode`): tRPC, or REST at the provider's paths. */
export type ClientMode = 'mock' | 'provider';

export interface WorldInfo {
  id: string;
  from: string;
  /** The `mode` the world's /config.json announces; the server's own when absent. */
  clientMode?: ClientMode;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  ttlMinutes: number;
}

interface Entry {
  id: string;
  from: string;
  clientMode?: ClientMode;
  createdAt: number;
  lastUsedAt: number;
  ttlMinutes: number;
  /** Built on creation, or on first use after a restart. */
  app?: Promise<WorldApp>;
}

export interface WorldsOptions {
  /** The default world's database: ':memory:' keeps worlds in memory, a file keeps them beside it. */
  databasePath: string;
  max?: number;
  now?: () => number;
}

export interface CreateWorld {
  from?: string;
  clientMode?: ClientMode;
  ttlMinutes?: number;
  /** Runs on the new world before it is listed (a declared state); a throw discards the world. */
  prepare?: (services: Services) => void | Promise<void>;
  /** The snapshots `from: 'snapshot:<name>'` reads. */
  snapshots?: Snapshots;
}

export function createWorlds(builder: WorldBuilder, options: WorldsOptions) {
  const memory = options.databasePath === ':memory:';
  const dir = memory ? null : `${resolve(options.databasePath)}.worlds`;
  const registryFile = dir && join(dir, 'worlds.json');
  const max = options.max ?? DEFAULT_WORLDS_MAX;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const templates = new Map<string, Promise<WorldImage>>();
  let reserved = 0;
  let dirty = false;

  const expiresAt = (entry: Entry) => entry.lastUsedAt + entry.ttlMinutes * 60_000;
  const info = (entry: Entry): WorldInfo => ({
    id: entry.id,
    from: entry.from,
    ...(entry.clientMode ? { clientMode: entry.clientMode } : {}),
    createdAt: new Date(entry.createdAt).toISOString(),
    lastUsedAt: new Date(entry.lastUsedAt).toISOString(),
    expiresAt: new Date(expiresAt(entry)).toISOString(),
    ttlMinutes: entry.ttlMinutes,
  });
  const worldDir = (id: string) => join(dir!, id);
  const databaseOf = (id: string) => (memory ? ':memory:' : join(worldDir(id), 'world.sqlite'));

  function save() {
    dirty = false;
    if (!registryFile) return;
    const list = [...entries.values()].map(({ app: _app, ...kept }) => kept);
    mkdirSync(dir!, { recursive: true });
    writeFileSync(`${registryFile}.tmp`, JSON.stringify(list, null, 1));
    // The rename replaces the list at once: a kill mid-write leaves the previous one.
    renameSync(`${registryFile}.tmp`, registryFile);
  }

  // What a previous process left: live worlds are listed again (their apps open on first use),
  // expired ones and folders the list does not name are removed; templates are rebuilt.
  if (dir && existsSync(dir)) {
    let kept: Entry[] = [];
    try {
      kept =
        registryFile && existsSync(registryFile)
          ? (JSON.parse(readFileSync(registryFile, 'utf8')) as Entry[])
          : [];
    } catch (error) {
      builder.log.warn(
        { err: error },
        'The worlds list could not be read: the worlds of the last run are dropped',
      );
    }
    for (const entry of kept)
      if (WORLD_ID.test(entry.id) && expiresAt(entry) > now() && existsSync(databaseOf(entry.id)))
        entries.set(entry.id, { ...entry });
    for (const name of readdirSync(dir))
      if (name !== 'worlds.json' && !entries.has(name))
        rmSync(join(dir, name), { recursive: true, force: true });
    save();
  }

  function template(scenario: string): Promise<WorldImage> {
    let built = templates.get(scenario);
    if (!built) {
      built = (async (): Promise<WorldImage> => {
        if (memory) return { data: (await builder.template(scenario, null)) as Buffer };
        const file = join(dir!, 'templates', `${scenario}.sqlite`);
        mkdirSync(join(dir!, 'templates'), { recursive: true });
        rmSync(file, { force: true });
        await builder.template(scenario, file);
        return { file };
      })();
      templates.set(scenario, built);
      // A failed build is not kept: the next creation tries again.
      built.catch(() => templates.delete(scenario));
    }
    return built;
  }

  function imageOf(from: string, snapshots: Snapshots | undefined): Promise<WorldImage> {
    if (from === 'empty') return Promise.resolve(null);
    if (isScenario(from)) return template(from);
    const snapshot = /^snapshot:(.+)$/.exec(from)?.[1];
    if (snapshot !== undefined && snapshots) {
      // Read now: the snapshot may be replaced or deleted while the world is built.
      const image = snapshots.image(snapshot);
      return Promise.resolve({ data: image });
    }
    throw badRequest(WORLD_MESSAGES.from);
  }

  async function open(entry: Entry, image?: WorldImage): Promise<WorldApp> {
    const databasePath = databaseOf(entry.id);
    if (!memory && image !== undefined) {
      mkdirSync(worldDir(entry.id), { recursive: true });
      if (image && 'file' in image) copyFileSync(image.file, databasePath);
      else if (image) writeFileSync(databasePath, image.data);
    }
    return builder.build({
      id: entry.id,
      databasePath,
      ...(memory && image && 'data' in image ? { image: image.data } : {}),
      ...(entry.clientMode ? { clientMode: entry.clientMode } : {}),
    });
  }

  async function discard(entry: Entry) {
    const app = await entry.app?.catch(() => undefined);
    await app?.close();
    if (!memory) rmSync(worldDir(entry.id), { recursive: true, force: true });
  }

  const sweep = () => {
    const at = now();
    for (const entry of [...entries.values()])
      if (expiresAt(entry) <= at) {
        entries.delete(entry.id);
        dirty = true;
        builder.log.info({ world: entry.id }, 'World expired');
        void discard(entry).catch((error: unknown) =>
          builder.log.warn({ err: error, world: entry.id }, 'Closing an expired world failed'),
        );
      }
    if (dirty) save();
  };
  const timer = setInterval(sweep, 30_000);
  timer.unref();

  return {
    max,
    list: (): WorldInfo[] => {
      sweep();
      return [...entries.values()].sort((a, b) => a.createdAt - b.createdAt).map(info);
    },

    /** The world's app, or undefined when the id names no live world; a use keeps it alive. */
    async enter(id: string): Promise<WorldApp | undefined> {
      const entry = entries.get(id);
      if (!entry) return undefined;
      if (expiresAt(entry) <= now()) {
        sweep();
        return undefined;
      }
      entry.lastUsedAt = now();
      dirty = true;
      entry.app ??= open(entry);
      return entry.app;
    },

    info(id: string): WorldInfo | undefined {
      const entry = entries.get(id);
      return entry && expiresAt(entry) > now() ? info(entry) : undefined;
    },

    async create(request: CreateWorld = {}): Promise<WorldInfo> {
      const ttlMinutes = request.ttlMinutes ?? DEFAULT_WORLD_TTL_MINUTES;
      const from = request.from ?? (request.prepare ? 'empty' : 'demo');
      if (request.prepare && from !== 'empty') throw badRequest(WORLD_MESSAGES.stateWithFrom);
      sweep();
      // Counted before the first await: a burst of creations cannot pass the cap together.
      if (entries.size + reserved >= max) throw new AppError(429, WORLD_MESSAGES.full(max));
      reserved++;
      const at = now();
      const entry: Entry = {
        id: `w-${randomBytes(16).toString('base64url')}`,
        from,
        ...(request.clientMode ? { clientMode: request.clientMode } : {}),
        createdAt: at,
        lastUsedAt: at,
        ttlMinutes,
      };
      try {
        const image = await imageOf(from, request.snapshots);
        entry.app = open(entry, image);
        const app = await entry.app;
        if (request.prepare) await request.prepare(app.services);
      } catch (error) {
        await discard(entry).catch(() => undefined);
        throw error;
      } finally {
        reserved--;
      }
      entry.lastUsedAt = now();
      entries.set(entry.id, entry);
      save();
      return info(entry);
    },

    async remove(id: string): Promise<void> {
      const entry = entries.get(id);
      if (!entry) throw notFound(WORLD_MESSAGES.unknown(id));
      entries.delete(id);
      save();
      await discard(entry);
    },

    /** Closes every open world (the server is closing); their files and list stay for the next start. */
    async close(): Promise<void> {
      clearInterval(timer);
      if (dirty) save();
      await Promise.all(
        [...entries.values()].map(async (entry) => (await entry.app?.catch(() => undefined))?.close()),
      );
      entries.clear();
    },
  };
}
export type Worlds = ReturnType<typeof createWorlds>;
export const isWorldId = (id: string) => WORLD_ID.test(id);
