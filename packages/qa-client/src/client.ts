/**
 * A typed client of the stand-in's QA control API (/__qa, docs/qa-control.md): openapi-fetch over
 * the types generated from the server's OpenAPI document, and helpers for what a test does with a
 * QA world: make it, name it on every call, move its clock, read its mailbox, add faults, drop it.
 */
import createClient, { type Client } from 'openapi-fetch';
import { Secret, TOTP } from 'otpauth';
import type { paths } from './generated/qa-paths.ts';
import type {
  ClockMove,
  ClockReading,
  FaultRule,
  FaultRuleInput,
  Job,
  Mail,
  Push,
  WorldInfo,
  WorldOptions,
  WorldSource,
} from './types.ts';

/** Typed calls to every /__qa path (openapi-fetch): `{ data, error, response }`, never a throw. */
export type QaApi = Client<paths>;
/** How requests reach the server: globalThis.fetch, or an adapter (fastify.inject in the server's tests). */
export type QaFetch = (request: Request) => Promise<Response>;

export interface QaClientOptions {
  /** The server's origin, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** The server's QA_TOKEN, when it has one: sent as X-QA-Token on every call. */
  qaToken?: string;
  /** globalThis.fetch when absent. */
  fetch?: QaFetch;
}

/** The header that names the world a call is for (docs/worlds.md). */
export const WORLD_HEADER = 'X-QA-World';
const TOKEN_HEADER = 'X-QA-Token';

/** A QA call that did not answer 2xx, or a job that did not end done. */
export class QaError extends Error {
  override name = 'QaError';
  constructor(
    /** What was asked, e.g. `POST /__qa/clock`. */
    readonly call: string,
    readonly status: number,
    /** The answer's body: `{ Error }` from the server. */
    readonly body: unknown,
  ) {
    super(`${call} answered ${status}: ${messageOf(body)}`);
  }
}

const messageOf = (body: unknown) =>
  typeof body === 'object' && body !== null && 'Error' in body ? String(body.Error) : JSON.stringify(body);

/** The data of a 2xx answer; a QaError otherwise. */
async function answer<T>(
  call: string,
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw new QaError(call, response.status, error);
  return data as T;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The calls a test makes in one world (or the default world, which no header names). */
export interface WorldCalls {
  /** Typed calls to any /__qa path, in this world. */
  api: QaApi;
  /** A plain request to the server in this world (contract calls, /config.json…): `path` from its root. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  clock: {
    get(): Promise<ClockReading>;
    /** Sets the clock (an ISO-8601 date-time, or a Date); the daily runs due on the way run first. */
    set(at: string | Date): Promise<ClockMove>;
    /** Moves the clock by an ISO-8601 duration (`PT1H`, `P7D`); the daily runs due on the way run first. */
    advance(duration: string): Promise<ClockMove>;
  };
  faults: {
    list(): Promise<FaultRule[]>;
    add(rule: FaultRuleInput): Promise<FaultRule>;
    remove(id: string): Promise<void>;
    clear(): Promise<void>;
    /** Makes `probability` and `delay` draw the same on every run. */
    seed(seed: number): Promise<void>;
  };
  mailbox: {
    /** Mails sent to an address or username (every recent mail without `to`), newest first. */
    list(to?: string): Promise<Mail[]>;
    /**
     * The code in the newest mail to `to`, once more than `seen` mails have reached it (waits up
     * to `timeoutMs`). Mails are counted rather than timed: the mailbox stamps the world's clock,
     * which a test may move.
     */
    lastOtp(to: string, options?: { seen?: number; timeoutMs?: number }): Promise<string>;
  };
  /** Web Push notifications queued for a member's devices (every member's latest without `to`), newest first. */
  pushes(to?: string): Promise<Push[]>;
  /** The current TOTP code of a member with TOTP on, by the world's clock. */
  totp(username: string): Promise<string>;
  /**
   * Example codes (docs/api.md, "Examples"): on, the world mails `code` as every OTP and its
   * authenticator step takes it, so the OpenAPI document's request examples replay as written.
   */
  exampleCodes(on: boolean): Promise<{ on: boolean; code: string }>;
  /**
   * The TOTP code of a secret (base32, as /user/enable_totp hands it out) by the world's clock: to
   * confirm TOTP before the member has it on, when the QA route does not know the member's code yet.
   */
  totpFromSecret(secret: string): Promise<string>;
}

/** One QA world: its calls, the link that puts a browser in it, and its end. */
export interface QaWorld extends WorldCalls {
  id: string;
  /** The absolute URL that puts a browser in the world (sets its cookie, redirects to the app). */
  enter: string;
  /** Closes the world and removes its files. */
  delete(): Promise<void>;
}

/** A world this client made: its handle and what the server answered. */
export type CreatedWorld = QaWorld & { info: WorldInfo };

export interface QaClient {
  /** Typed calls to any /__qa path, in the default world. */
  api: QaApi;
  /** The default world's calls: a client that names no world. */
  defaultWorld: WorldCalls;
  /** Makes a world (a declared state's build is awaited, however long) and answers its handle. */
  createWorld(source: WorldSource, options?: WorldOptions): Promise<CreatedWorld>;
  /** A world made for `use` alone: deleted when `use` ends, whether it passed or threw. */
  withWorld<T>(
    source: WorldSource,
    use: (world: CreatedWorld) => Promise<T>,
    options?: WorldOptions,
  ): Promise<T>;
  /** The handle of a world that exists already, by its id. */
  world(id: string): QaWorld;
}

export function createQaClient({
  baseUrl,
  qaToken,
  fetch: send = globalThis.fetch,
}: QaClientOptions): QaClient {
  const tokenHeaders: Record<string, string> = qaToken ? { [TOKEN_HEADER]: qaToken } : {};
  /** A path from the server's root as a URL, as openapi-fetch joins them (a base URL may have a path). */
  const urlOf = (path: string) => `${baseUrl.replace(/\/+$/, '')}${path}`;
  const apiFor = (headers: Record<string, string>): QaApi =>
    createClient<paths>({ baseUrl, fetch: send, headers: { ...tokenHeaders, ...headers } });
  const api = apiFor({});

  /** What a job ended with, polled until it ends (each poll waits on the server until then, up to its limit). */
  async function finished(job: Job): Promise<unknown> {
    let current = job;
    while (current.state === 'running')
      current = await answer(
        `GET /__qa/jobs/${job.id}`,
        api.GET('/__qa/jobs/{id}', { params: { path: { id: job.id }, query: { wait: 'true' } } }),
      );
    if (current.state === 'done') return current.result;
    if (current.error) throw new QaError(`${job.kind} job ${job.id}`, current.error.status, current.error);
    throw new Error(`The ${job.kind} job ${job.id} was ${current.state}`);
  }

  function callsIn(world: string | undefined): WorldCalls {
    const worldHeaders: Record<string, string> = world ? { [WORLD_HEADER]: world } : {};
    const scoped = apiFor(worldHeaders);

    async function move(body: { set: string } | { advance: string }): Promise<ClockMove> {
      const { data, error, response } = await scoped.POST('/__qa/clock', {
        params: { query: { wait: 'true' } },
        body,
      });
      // A move that owes more runs than the wait allows answers 202 with its job.
      if (response.status === 202) return (await finished(data as Job)) as ClockMove;
      if (!response.ok) throw new QaError('POST /__qa/clock', response.status, error);
      return data as ClockMove;
    }

    const clockGet = () => answer('GET /__qa/clock', scoped.GET('/__qa/clock'));
    const mails = (to?: string) =>
      answer(
        'GET /__qa/mailbox',
        scoped.GET('/__qa/mailbox', { params: { query: to === undefined ? {} : { to } } }),
      );

    return {
      api: scoped,
      fetch(path, init = {}) {
        const headers = new Headers(init.headers);
        for (const [name, value] of Object.entries({ ...tokenHeaders, ...worldHeaders }))
          if (!headers.has(name)) headers.set(name, value);
        return send(new Request(urlOf(path), { ...init, headers }));
      },
      clock: {
        get: clockGet,
        set: (at) => move({ set: typeof at === 'string' ? at : at.toISOString() }),
        advance: (duration) => move({ advance: duration }),
      },
      faults: {
        list: () => answer('GET /__qa/faults', scoped.GET('/__qa/faults')),
        add: (rule) => answer('POST /__qa/faults', scoped.POST('/__qa/faults', { body: rule })),
        async remove(id) {
          await answer(
            `DELETE /__qa/faults/${id}`,
            scoped.DELETE('/__qa/faults/{id}', { params: { path: { id } } }),
          );
        },
        async clear() {
          await answer('DELETE /__qa/faults', scoped.DELETE('/__qa/faults'));
        },
        async seed(seed) {
          await answer('POST /__qa/faults/seed', scoped.POST('/__qa/faults/seed', { body: { seed } }));
        },
      },
      mailbox: {
        list: mails,
        async lastOtp(to, { seen = 0, timeoutMs = 10_000 } = {}) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const sent = await mails(to);
            const otp = sent[0]?.otp;
            if (sent.length > seen && otp) return otp;
            if (Date.now() > deadline) throw new Error(`No new OTP mailed to ${to} (had ${seen} mails)`);
            await pause(100);
          }
        },
      },
      pushes: (to) =>
        answer(
          'GET /__qa/pushes',
          scoped.GET('/__qa/pushes', { params: { query: to === undefined ? {} : { to } } }),
        ),
      async totp(username) {
        const { code } = await answer(
          `GET /__qa/totp/${username}`,
          scoped.GET('/__qa/totp/{username}', { params: { path: { username } } }),
        );
        return code;
      },
      exampleCodes: (on) =>
        answer('PUT /__qa/example-codes', scoped.PUT('/__qa/example-codes', { body: { on } })),
      async totpFromSecret(secret) {
        // The server's parameters (apps/server/src/core/totp.ts), at the world's time: its clock may
        // have been moved away from this machine's.
        const { now } = await clockGet();
        const totp = new TOTP({
          algorithm: 'SHA1',
          digits: 6,
          period: 30,
          secret: Secret.fromBase32(secret),
        });
        return totp.generate({ timestamp: Date.parse(now) });
      },
    };
  }

  function world(id: string): QaWorld {
    return {
      id,
      enter: urlOf(`/__qa/worlds/${id}/enter`),
      ...callsIn(id),
      async delete() {
        await answer(
          `DELETE /__qa/worlds/${id}`,
          api.DELETE('/__qa/worlds/{id}', { params: { path: { id } } }),
        );
      },
    };
  }

  async function createWorld(source: WorldSource, options: WorldOptions = {}): Promise<CreatedWorld> {
    const { data, error, response } = await api.POST('/__qa/worlds', {
      params: { query: { wait: 'true' } },
      body: { ...options, ...source },
    });
    let info: WorldInfo;
    // A declared state that builds for longer than the wait answers 202 with its job.
    if (response.status === 202) info = (await finished(data as Job)) as WorldInfo;
    else if (!response.ok) throw new QaError('POST /__qa/worlds', response.status, error);
    else info = data as WorldInfo;
    return { ...world(info.id), info };
  }

  return {
    api,
    defaultWorld: callsIn(undefined),
    createWorld,
    async withWorld(source, use, options) {
      const made = await createWorld(source, options);
      try {
        return await use(made);
      } finally {
        // A world the test deleted itself (or that expired) is gone already: that is the end sought.
        await made.delete().catch((error: unknown) => {
          if (!(error instanceof QaError && error.status === 404)) throw error;
        });
      }
    },
    world,
  };
}
