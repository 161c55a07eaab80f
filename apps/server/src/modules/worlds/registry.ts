/**
 * QA worlds: complete, isolated stand-ins on one server. A world is a whole app of its own (its
 * database, clock, faults, routing, drift, recordings, mailbox, journal, counters, read cache,
 * token key and daily runs, all hanging off its own `Services`), so isolation needs no special
 * case anywhere: a request that names a world is handed to that world's app (dispatch.ts).
 *
 * Rule: a world from a scenario is a copy of a template seeded once per scenario and kept (a file
 * copy, or a serialized image in memory), never a re-seed. Templates and declared states are
 * built in a thread of their own (world-thread.ts): the request thread never seeds. Idle worlds
 * expire after their TTL, never while a request or a job is working in them; at most `max` live
 * at once, and at most `perClient` made by one client (the QA token's label, else the address).
 * On a database file, worlds live in `<database>.worlds/<id>/` with a registry file, and survive
 * a restart (reopened on first use, or at once when daily runs are owed there); on ':memory:' they
 * die with the process. Templates are rebuilt after a restart (the code that seeds them may have
 * changed). Every world's life (created, entered, expired, deleted) is logged and kept in `history`.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import type { WorldState } from '@md/shared';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import type { Services } from '../../core/services.ts';
import type { WorldBuildProgress } from '../../seed/declared-state.ts';
import { BuildCancelledError } from './world-thread.ts';
import type { Snapshots } from '../qa/snapshots.ts';
import type { SettingsHolders } from './world-file.ts';
import { isScenario, SCENARIOS } from '../../seed/index.ts';
import { dueRuns } from '../engine/schedule.ts';

export const WORLD_MESSAGES = {
  unknown: (id: string) =>
    `World '${id}' is unknown or has expired (GET /__qa/worlds lists the live ones; GET /__qa/worlds/leave returns a browser to the default world)`,
  full: (max: number) =>
    `No more worlds: ${max} are live (WORLDS_MAX). Delete one (DELETE /__qa/worlds/:id) or wait for an idle one to expire.`,
  quota: (client: string, quota: number) =>
    `No more worlds for ${client}: it has ${quota} live (WORLDS_PER_CLIENT). Delete one of them (DELETE /__qa/worlds/:id) or wait for an idle one to expire.`,
  from: `'from' is a scenario (${SCENARIOS.map((s) => s.name).join(', ')}) or 'snapshot:<name>'`,
  stateWithFrom: "A declared 'state' builds on an empty world: leave 'from' out (or set it to 'empty')",
  ttl: (max: number) => `ttlMinutes is a whole number of minutes from 1 to ${max}`,
  clientMode: "clientMode is 'mock' (tRPC) or 'provider' (REST at the provider's paths)",
  name: 'name is what to call the world: 1 to 64 characters',
  closing: 'The server is closing: no world is created now. Try again once it is back.',
} as const;

export const DEFAULT_WORLD_TTL_MINUTES = 120;
export const MAX_WORLD_TTL_MINUTES = 7 * 24 * 60;
export const DEFAULT_WORLDS_MAX = 100;
/** Live worlds one client may hold by default (WORLDS_PER_CLIENT): a quarter of the default WORLDS_MAX. */
export const DEFAULT_WORLDS_PER_CLIENT = 25;
/** Lifecycle events kept for GET /__qa/worlds (the log has them all). */
const HISTORY_KEPT = 200;
/** 128 random bits, URL-safe: the id is what lets a client into a world. In a fleet, the server's name first. */
const WORLD_ID = /^w-(?:[a-z0-9]{1,16}\.)?[A-Za-z0-9_-]{22}$/;
/** A server's name in a fleet (FLEET_NODE): what a proxy reads in its worlds' ids. */
export const FLEET_NODE = /^[a-z0-9]{1,16}$/;

/** Where a new world's database comes from: a file to copy, or a serialized image (':memory:'). */
export type WorldImage = { file: string } | { data: Buffer } | null;

/** What the registry needs of a built world's app. */
export interface WorldApp {
  services: Services;
  snapshots?: Snapshots;
  /** Where its fault rules and routing live (a world file carries them). */
  settings: SettingsHolders;
  /** Hands a raw request to the world's own routes, hooks and error handling. */
  route(request: IncomingMessage, response: ServerResponse): void;
  /**
   * Settles once the daily runs owed when it opened are paid (a template or snapshot made before a
   * day boundary owes that day): a new world is handed out only then, so its figures do not move
   * under its first requests.
   */
  caughtUp?: Promise<void>;
  close(): Promise<void>;
}

/** A build in its thread: its progress as it goes, its cancellation. */
export interface BuildControl {
  signal?: AbortSignal;
  onProgress?: (progress: WorldBuildProgress) => void;
  /** The new world's id, as soon as it has one (before the build starts). */
  onId?: (id: string) => void;
}

export interface WorldBuilder {
  /** A world's app on `databasePath` (a file, or ':memory:' with `image`), seeding nothing. */
  build(world: {
    id: string;
    databasePath: string;
    image?: Buffer;
    clientMode?: ClientMode;
    /** What QA called it: its /config.json names it, for the badge on its pages. */
    name?: string;
  }): Promise<WorldApp>;
  /** Seeds `scenario` into a database in memory, in a thread: written to `file` (compact, without a WAL), else answered as its image. */
  template(scenario: string, file: string | null): Promise<Buffer | void>;
  /** Builds `state` into a new database, in a thread: on `file` (closed when done), else answered as its image. */
  state(state: WorldState, file: string | null, control: BuildControl): Promise<Buffer | void>;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
}

/** How the web app is told to talk to a world (its /config.json `mode`): tRPC, or REST at the provider's paths. */
export type ClientMode = 'mock' | 'provider';

export interface WorldInfo {
  id: string;
  /** What QA called it (the panel and the world's badge show it); absent when unnamed. */
  name?: string;
  from: string;
  /** Who made it: the QA token's label, else the caller's address. */
  createdBy: string;
  /** Times a browser entered it (GET /__qa/worlds/:id/enter), and the last time. */
  entered: number;
  lastEnteredAt: string | null;
  /** Requests and jobs working in it now (it does not expire meanwhile). */
  busy: number;
  /** The `mode` the world's /config.json announces; the server's own when absent. */
  clientMode?: ClientMode;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  ttlMinutes: number;
}

interface Entry {
  id: string;
  name?: string;
  from: string;
  createdBy: string;
  clientMode?: ClientMode;
  createdAt: number;
  lastUsedAt: number;
  ttlMinutes: number;
  entered: number;
  lastEnteredAt: number | null;
  /** Requests and jobs working in it now (not kept across a restart). */
  busy?: number;
  /** Built on creation, or on first use after a restart. */
  app?: Promise<WorldApp>;
}

/** One line of a world's life, as GET /__qa/worlds lists it. */
export interface WorldEvent {
  at: string;
  world: string;
  event: 'created' | 'entered' | 'expired' | 'deleted';
  /** Who did it (created, entered, deleted); the from of a creation. */
  client?: string;
  from?: string;
}

export interface WorldsOptions {
  /** The default world's database: ':memory:' keeps worlds in memory, a file keeps them beside it. */
  databasePath: string;
  max?: number;
  /** WORLDS_PER_CLIENT: live worlds one client may hold. */
  perClient?: number;
  /** FLEET_NODE: this server's name in a fleet; its worlds' ids carry it (`w-<node>.<random>`), for the proxy. */
  node?: string;
  now?: () => number;
  /** Whether a job is working in the world (it does not expire meanwhile). */
  working?: (id: string) => boolean;
  /** Whether a world's database owes daily runs (read before it is opened, after a restart): it is opened at once to run them. */
  owesRuns?: (databasePath: string) => boolean;
}

export interface CreateWorld {
  /** What QA calls it. */
  name?: string;
  from?: string;
  clientMode?: ClientMode;
  ttlMinutes?: number;
  /** A declared state (parsed), built into the new world's empty database in a thread; a throw discards the world. */
  state?: WorldState;
  /** The snapshots `from: 'snapshot:<name>'` reads. */
  snapshots?: Snapshots;
  /** The new world's database as given (an imported world file's): `from` then only names it. */
  image?: WorldImage;
  /** Who asks (the QA token's label, else the address): counted against `perClient`. */
  client?: string;
  /** The caller holds a place for it already (`reserve`), taken while it read the world's file. */
  reserved?: boolean;
  /** The build's cancellation and progress (a declared state's job). */
  control?: BuildControl;
}

export function createWorlds(builder: WorldBuilder, options: WorldsOptions) {
  const memory = options.databasePath === ':memory:';
  const dir = memory ? null : `${resolve(options.databasePath)}.worlds`;
  const registryFile = dir && join(dir, 'worlds.json');
  const max = options.max ?? DEFAULT_WORLDS_MAX;
  const perClient = options.perClient ?? DEFAULT_WORLDS_PER_CLIENT;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  /** Each scenario's template, and when it was seeded (by this registry's clock). */
  const templates = new Map<string, { image: Promise<WorldImage>; seededAt: number }>();
  /** Creations under way, by client: counted against the caps before their first await. */
  const reserved = new Map<string, number>();
  const history: WorldEvent[] = [];
  let dirty = false;
  /** Creations not yet listed: close() waits for them, and a world finished while closing is discarded. */
  const creating = new Set<Promise<unknown>>();
  let closing = false;

  const expiresAt = (entry: Entry) => entry.lastUsedAt + entry.ttlMinutes * 60_000;
  const busy = (entry: Entry) => Boolean(entry.busy) || (options.working?.(entry.id) ?? false);
  const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
  const info = (entry: Entry): WorldInfo => ({
    id: entry.id,
    ...(entry.name ? { name: entry.name } : {}),
    from: entry.from,
    createdBy: entry.createdBy,
    entered: entry.entered,
    lastEnteredAt: iso(entry.lastEnteredAt),
    busy: entry.busy ?? 0,
    ...(entry.clientMode ? { clientMode: entry.clientMode } : {}),
    createdAt: iso(entry.createdAt)!,
    lastUsedAt: iso(entry.lastUsedAt)!,
    expiresAt: iso(expiresAt(entry))!,
    ttlMinutes: entry.ttlMinutes,
  });
  const worldDir = (id: string) => join(dir!, id);
  const databaseOf = (id: string) => (memory ? ':memory:' : join(worldDir(id), 'world.sqlite'));
  const record = (event: Omit<WorldEvent, 'at'>) => {
    history.push({ at: iso(now())!, ...event });
    if (history.length > HISTORY_KEPT) history.splice(0, history.length - HISTORY_KEPT);
    builder.log.info({ ...event }, `World ${event.event}`);
  };
  const liveOf = (client: string) =>
    [...entries.values()].filter((entry) => entry.createdBy === client).length + (reserved.get(client) ?? 0);

  function save() {
    dirty = false;
    if (!registryFile) return;
    const list = [...entries.values()].map(({ app: _app, busy: _busy, ...kept }) => kept);
    mkdirSync(dir!, { recursive: true });
    writeFileSync(`${registryFile}.tmp`, JSON.stringify(list, null, 1));
    // The rename replaces the list at once: a kill mid-write leaves the previous one.
    renameSync(`${registryFile}.tmp`, registryFile);
  }

  // What a previous process left: live worlds are listed again (their apps open on first use,
  // or now when their daily runs are owed), expired ones and folders the list does not name are
  // removed (a build a kill cut short is one); templates are rebuilt.
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
        entries.set(entry.id, {
          ...entry,
          createdBy: entry.createdBy ?? 'unknown',
          entered: entry.entered ?? 0,
          lastEnteredAt: entry.lastEnteredAt ?? null,
        });
    for (const name of readdirSync(dir))
      if (name !== 'worlds.json' && !entries.has(name))
        rmSync(join(dir, name), { recursive: true, force: true });
    save();
    for (const entry of entries.values()) {
      let owes = false;
      try {
        owes = options.owesRuns?.(databaseOf(entry.id)) ?? false;
      } catch (error) {
        builder.log.warn({ err: error, world: entry.id }, 'Could not read whether a world owes daily runs');
      }
      if (!owes) continue;
      builder.log.info({ world: entry.id }, 'World reopened: it owes daily runs');
      entry.app = open(entry);
      entry.app.catch((error: unknown) =>
        builder.log.warn({ err: error, world: entry.id }, 'Reopening a world that owes daily runs failed'),
      );
    }
  }

  /**
   * A scenario's template, seeded once and kept while no daily run falls due after its seeding: a
   * world made from it would owe that run and pay it before it is handed out (on a server up for a
   * month, every creation would pay the month). Seeded again then; the file is replaced whole, so a
   * creation still copying the previous one reads it complete.
   */
  function template(scenario: string): Promise<WorldImage> {
    const kept = templates.get(scenario);
    const at = now();
    if (kept && dueRuns(kept.seededAt, at).length === 0) return kept.image;
    const image = (async (): Promise<WorldImage> => {
      if (memory) return { data: (await builder.template(scenario, null)) as Buffer };
      const file = join(dir!, 'templates', `${scenario}.sqlite`);
      const next = `${file}.next`;
      mkdirSync(join(dir!, 'templates'), { recursive: true });
      rmSync(next, { force: true });
      await builder.template(scenario, next);
      renameSync(next, file);
      return { file };
    })();
    const entry = { image, seededAt: at };
    templates.set(scenario, entry);
    // A failed build is not kept: the next creation tries again.
    image.catch(() => {
      if (templates.get(scenario) === entry) templates.delete(scenario);
    });
    return image;
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

  /** A declared state's database, built in its thread: on the world's file, or as an image. */
  async function stateImage(
    entry: Entry,
    state: WorldState,
    control: BuildControl = {},
  ): Promise<WorldImage | undefined> {
    if (memory) return { data: (await builder.state(state, null, control)) as Buffer };
    mkdirSync(worldDir(entry.id), { recursive: true });
    await builder.state(state, databaseOf(entry.id), control);
    return undefined; // built in place
  }

  /** `image`: what the new world's database starts as (none: the file is there already, or is made empty). */
  async function open(entry: Entry, image?: WorldImage): Promise<WorldApp> {
    const databasePath = databaseOf(entry.id);
    if (!memory && image) {
      mkdirSync(worldDir(entry.id), { recursive: true });
      // Off the request thread (libuv's pool): a 100,000-member template is tens of megabytes.
      if ('file' in image) await copyFile(image.file, databasePath);
      else await writeFile(databasePath, image.data);
    }
    // In memory, a file (an imported world's) is read in: the database is the image.
    const data = memory && image ? ('data' in image ? image.data : await readFile(image.file)) : undefined;
    return builder.build({
      id: entry.id,
      databasePath,
      ...(data ? { image: data } : {}),
      ...(entry.clientMode ? { clientMode: entry.clientMode } : {}),
      ...(entry.name ? { name: entry.name } : {}),
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
      if (expiresAt(entry) <= at && !busy(entry)) {
        entries.delete(entry.id);
        dirty = true;
        record({ world: entry.id, event: 'expired' });
        void discard(entry).catch((error: unknown) =>
          builder.log.warn({ err: error, world: entry.id }, 'Closing an expired world failed'),
        );
      }
    if (dirty) save();
  };
  const timer = setInterval(sweep, 30_000);
  timer.unref();

  /** Throws the 429 a creation by `client` would get now (a job's route checks before it starts the job). */
  function admit(client: string) {
    sweep();
    if (entries.size + [...reserved.values()].reduce((n, r) => n + r, 0) >= max)
      throw new AppError(429, WORLD_MESSAGES.full(max));
    if (liveOf(client) >= perClient) throw new AppError(429, WORLD_MESSAGES.quota(client, perClient));
  }

  /**
   * Holds a place for a world `client` is about to create, refused now if there is none; for a
   * creation with slow work before `create` (a world file read). Released by the answer.
   */
  function reserve(client: string): () => void {
    admit(client);
    reserved.set(client, (reserved.get(client) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const left = (reserved.get(client) ?? 1) - 1;
      if (left > 0) reserved.set(client, left);
      else reserved.delete(client);
    };
  }

  const refuseWhileClosing = () => {
    if (closing) throw new AppError(503, WORLD_MESSAGES.closing);
  };

  async function create(request: CreateWorld): Promise<WorldInfo> {
    refuseWhileClosing();
    const ttlMinutes = request.ttlMinutes ?? DEFAULT_WORLD_TTL_MINUTES;
    const from = request.from ?? (request.state ? 'empty' : 'demo');
    const client = request.client ?? 'unknown';
    if (request.state && from !== 'empty') throw badRequest(WORLD_MESSAGES.stateWithFrom);
    // Counted before the first await: a burst of creations cannot pass the caps together.
    const release = request.reserved ? undefined : reserve(client);
    const at = now();
    const entry: Entry = {
      id: `w-${options.node ? `${options.node}.` : ''}${randomBytes(16).toString('base64url')}`,
      ...(request.name ? { name: request.name } : {}),
      from,
      createdBy: client,
      ...(request.clientMode ? { clientMode: request.clientMode } : {}),
      createdAt: at,
      lastUsedAt: at,
      ttlMinutes,
      entered: 0,
      lastEnteredAt: null,
    };
    request.control?.onId?.(entry.id);
    try {
      const image = request.state
        ? await stateImage(entry, request.state, request.control)
        : (request.image ?? (await imageOf(from, request.snapshots)));
      // The server began closing meanwhile: no app is opened only to be closed.
      refuseWhileClosing();
      entry.app = open(entry, image);
      const app = await entry.app;
      await app.caughtUp;
      // Cancelled as the build ended: the world is not kept.
      if (request.control?.signal?.aborted) throw new BuildCancelledError('The build was cancelled');
      // Finished while the server closes: nothing would close it, and the list is already saved.
      refuseWhileClosing();
    } catch (error) {
      await discard(entry).catch(() => undefined);
      throw error;
    } finally {
      release?.();
    }
    entry.lastUsedAt = now();
    entries.set(entry.id, entry);
    save();
    record({ world: entry.id, event: 'created', client, from });
    return info(entry);
  }

  const live = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return undefined;
    if (expiresAt(entry) <= now() && !busy(entry)) {
      sweep();
      return undefined;
    }
    return entry;
  };

  return {
    max,
    perClient,
    list: (): WorldInfo[] => {
      sweep();
      return [...entries.values()].sort((a, b) => a.createdAt - b.createdAt).map(info);
    },
    /** The latest lifecycle events, oldest first. */
    history: (): WorldEvent[] => [...history],

    /** The world's app, or undefined when the id names no live world; a use keeps it alive. */
    async enter(id: string): Promise<WorldApp | undefined> {
      const entry = live(id);
      if (!entry) return undefined;
      entry.lastUsedAt = now();
      dirty = true;
      entry.app ??= open(entry);
      return entry.app;
    },

    /**
     * Marks a request or a job working in the world: it does not expire until `release` (called
     * once), and its idle time counts from then. Undefined when the id names no live world.
     */
    hold(id: string): (() => void) | undefined {
      const entry = live(id);
      if (!entry) return undefined;
      entry.busy = (entry.busy ?? 0) + 1;
      entry.lastUsedAt = now();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        entry.busy = Math.max(0, (entry.busy ?? 1) - 1);
        entry.lastUsedAt = now();
        dirty = true;
      };
    },

    /** A browser entered the world by its link (the door): counted, and recorded. */
    entered(id: string, client: string) {
      const entry = live(id);
      if (!entry) return;
      entry.entered++;
      entry.lastEnteredAt = entry.lastUsedAt = now();
      dirty = true;
      record({ world: id, event: 'entered', client });
    },

    info(id: string): WorldInfo | undefined {
      const entry = live(id);
      return entry && info(entry);
    },

    admit,

    reserve,

    create(request: CreateWorld = {}): Promise<WorldInfo> {
      const creation = create(request);
      creating.add(creation);
      const settled = () => void creating.delete(creation);
      creation.then(settled, settled);
      return creation;
    },

    async remove(id: string, client = 'unknown'): Promise<void> {
      const entry = entries.get(id);
      if (!entry) throw notFound(WORLD_MESSAGES.unknown(id));
      entries.delete(id);
      save();
      record({ world: id, event: 'deleted', client });
      await discard(entry);
    },

    /** Closes every open world (the server is closing); their files and list stay for the next start. */
    async close(): Promise<void> {
      closing = true;
      clearInterval(timer);
      // A creation under way discards what it built (its own catch) rather than leave it open.
      await Promise.allSettled([...creating]);
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
