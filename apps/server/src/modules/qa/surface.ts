/**
 * The QA surface around contract calls: fault and latency rules, the request journal and
 * database snapshots. Its interceptor sits where REST and tRPC both pass (transport/call.ts), so
 * a rule for '/user/view_profile' also hits `user.view_profile` on /trpc. Nothing here touches
 * /__qa, /config.json or static files: they are not contract calls.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract, endpointByPath, MSG } from '@md/shared';
import { AppError } from '../../core/errors.ts';
import type { Services } from '../../core/services.ts';
import type { Call, Exchange, Interceptor } from '../../transport/call.ts';
import { callToken } from '../../transport/invoke.ts';
import { createFaultStore, parseHeaderRule, type AppliedFault, type HeaderRule } from './faults.ts';
import { createJournal, keptBody, keptHeaders, type JournalRecord } from './journal.ts';
import { createSnapshots } from './snapshots.ts';
import { presentsQaToken } from './token.ts';
import { JSON_TYPE } from '../../core/answer-headers.ts';

export const FAULT_HEADER = 'x-qa-fault';

declare module 'fastify' {
  interface FastifyRequest {
    /** The headers the QA journal keeps of this request, once it holds a record of one of its calls (modules/qa/surface.ts). */
    journaledHeaders: Record<string, string | string[] | undefined> | null;
  }
}

export interface QaSurfaceOptions {
  /** Randomness of probabilities and random delays (Math.random unless given; seeded in tests). */
  random?: () => number;
  /** QA_TOKEN: when set, an X-QA-Fault header counts only on a request that also presents it. */
  token?: string;
  /** The member of a token this server did not sign (the gateway's provider tokens, modules/gateway/shadow.ts). */
  memberOfToken?: (token: string) => string | null;
}

/** Per HTTP exchange: the header rule, an answer to send instead, and who waits on the connection. */
interface ExchangeState {
  header?: HeaderRule | null;
  raw?: { status: number; text: string };
  waiters: Set<(connected: boolean) => void>;
  listening: boolean;
  reply: Exchange['reply'];
}

/** What a body override says over tRPC, where an error carries only a message. */
const messageOf = (body: unknown) => {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const key of ['Error', 'error', 'message']) if (typeof b[key] === 'string') return b[key];
  }
  return JSON.stringify(body);
};

const statusOf = (error: unknown) => (error instanceof AppError ? error.status : 500);
const errorBody = (error: unknown) => ({
  Error: error instanceof AppError ? error.message : MSG.unexpectedError,
});
const round = (ms: number) => Math.round(ms * 10) / 10;

export function createQaSurface(app: FastifyInstance, services: Services, options: QaSurfaceOptions = {}) {
  const faults = createFaultStore(options.random);
  const journal = createJournal();
  const snapshots = createSnapshots(services);
  const states = new WeakMap<FastifyRequest, ExchangeState>();
  // Exchanges with a call waiting (delay or hang): released when the server closes.
  const holding = new Set<ExchangeState>();
  const usernames = new Map<string, string | null>();
  // Until an exchange has a state (an X-QA-Fault header, a fault applied), no answer needs a look in `states`.
  let anyState = false;

  const stateOf = (exchange: Exchange): ExchangeState => {
    let state = states.get(exchange.request);
    if (!state) {
      anyState = true;
      states.set(exchange.request, (state = { waiters: new Set(), listening: false, reply: exchange.reply }));
    }
    return state;
  };

  const connectionGone = (state: ExchangeState) => state.reply.raw.destroyed || state.reply.raw.writableEnded;

  /** Ends the exchange without an answer: the socket is destroyed, as a dropped connection. */
  const drop = (exchange: Exchange) => {
    // REST: Fastify must not try to answer afterwards. tRPC's adapter still writes its (lost) answer.
    if (exchange.transport === 'rest' && !exchange.reply.sent) exchange.reply.hijack();
    if (!exchange.reply.raw.destroyed) exchange.reply.raw.destroy();
  };

  /**
   * Waits `ms` (or, for null, until the connection ends). Answers true when the time ran out
   * with the client still there, false when the client left or the server is closing. No timer
   * or listener outlives the wait.
   */
  const hold = (state: ExchangeState, ms: number | null): Promise<boolean> => {
    if (connectionGone(state)) return Promise.resolve(false);
    if (!state.listening) {
      state.listening = true;
      state.reply.raw.once('close', () => {
        for (const wake of [...state.waiters]) wake(false);
      });
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const wake = (connected: boolean) => {
        if (timer) clearTimeout(timer);
        state.waiters.delete(wake);
        if (state.waiters.size === 0) holding.delete(state);
        resolve(connected);
      };
      state.waiters.add(wake);
      holding.add(state);
      if (ms !== null) timer = setTimeout(() => wake(true), ms);
    });
  };

  // A closing server ends every held call by dropping its connection, so close() can finish.
  app.addHook('preClose', async () => {
    for (const state of [...holding]) {
      for (const wake of [...state.waiters]) wake(false);
      if (!state.reply.raw.destroyed) state.reply.raw.destroy();
    }
  });

  // Once per server: a scope of an app that has a surface already (a test's second one) shares the field.
  if (!app.hasRequestDecorator('journaledHeaders')) app.decorateRequest('journaledHeaders', null);
  // Empty and malformed answers replace whatever the transport produced (REST JSON or tRPC's).
  // A callback hook: no promise per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    const state = anyState ? states.get(request) : undefined;
    if (state?.raw) {
      reply.code(state.raw.status).header('content-type', JSON_TYPE);
      return done(null, state.raw.text);
    }
    // A REST call refused before its handler (unreadable JSON, too large): journaled here.
    if (
      reply.statusCode >= 400 &&
      request.journaledHeaders === null &&
      request.method === 'POST' &&
      request.routeOptions.url &&
      endpointByPath.has(request.routeOptions.url)
    ) {
      const procedure = endpointByPath.get(request.routeOptions.url)!;
      let body: unknown = payload;
      if (typeof payload === 'string') {
        try {
          body = JSON.parse(payload);
        } catch {
          body = payload;
        }
      }
      journal.add({
        at: services.clock.now(),
        requestId: String(request.id),
        method: request.method,
        url: request.url,
        path: contract[procedure].path,
        procedure,
        transport: 'rest',
        requestHeaders: keptHeaders(request.headers),
        member: null,
        requestBody: null,
        status: reply.statusCode,
        durationMs: round(reply.elapsedTime),
        responseBody: body,
        source: null,
        providerMs: null,
        fault: null,
        pending: false,
      });
    }
    done(null, payload);
  });

  /**
   * Who a call is for: the token's member, or, for calls without a token that name their
   * actor (sign-in, registration, password reset, TOTP check), the username in the body.
   */
  const memberOf = (call: Call): string | null => {
    const token = callToken(call.name, call.input, call.caller);
    if (token) {
      // Verified once per token (invoke verifies it again for the call itself): a client reuses
      // its token, and the name a token was issued to does not change.
      let username = usernames.get(token);
      if (username === undefined) {
        try {
          username = services.tokens.verify(token).username;
        } catch {
          username = null;
        }
        if (usernames.size >= 1_000) usernames.clear();
        usernames.set(token, username);
      }
      // A provider token (gateway mode) becomes known when the provider vouches for it: asked each time.
      return username ?? options.memberOfToken?.(token) ?? null;
    }
    const input = call.input as Record<string, unknown> | null;
    if (
      contract[call.name].auth === 'none' &&
      input &&
      typeof input === 'object' &&
      typeof input.username === 'string'
    )
      return input.username.trim().toLowerCase();
    return null;
  };

  /** Completes a call's record. (Module-level helpers, not closures per call: tsx names every closure it creates.) */
  const finish = (
    entry: JournalRecord,
    started: number,
    status: number | null,
    body: unknown,
    outcome?: string,
  ) => {
    entry.status = status;
    entry.responseBody = body;
    entry.durationMs = round(performance.now() - started);
    entry.pending = false;
    if (outcome) entry.outcome = outcome;
  };
  /**
   * Completes the record of a call someone answered: the stand-in's handlers (status 200, their
   * output), or in gateway mode the provider or a recording, with the status and body it gave.
   */
  const answered = (entry: JournalRecord, started: number, call: Call, output: unknown) => {
    const by = call.answered;
    finish(entry, started, by ? by.status : 200, by ? by.body : output);
    entry.source = by ? by.source : 'mock';
    entry.providerMs = by ? by.providerMs : null;
    named(entry, call);
  };
  /** Completes the record of a call that failed (or that the gateway answered with an error). */
  const failed = (entry: JournalRecord, started: number, call: Call, error: unknown) => {
    if (call.answered) return answered(entry, started, call, undefined);
    finish(entry, started, statusOf(error), errorBody(error));
    named(entry, call);
  };
  /**
   * Names the member of a completed call not named at its start: the one its token authenticated
   * (invoke reports it), or else by `memberOf` (no token; a refused one; a provider token the
   * gateway learnt during this very call).
   */
  const named = (entry: JournalRecord, call: Call) => {
    entry.member ??= call.member ?? memberOf(call);
  };
  /** No answer goes out: the connection is dropped (or already gone). */
  const noAnswer = (exchange: Exchange, entry: JournalRecord, started: number, outcome: string) => {
    drop(exchange);
    finish(entry, started, null, null, outcome);
    return undefined;
  };

  /** A call's record, pending from now on. References only: the journal redacts when listed. */
  const record = (call: Call, member: string | null, started: number): JournalRecord => {
    const { request, transport } = call.exchange;
    // One copy per request: a tRPC batch's calls share it, and it marks the request as journaled.
    request.journaledHeaders ??= keptHeaders(request.headers);
    const path = contract[call.name].path;
    const url = request.url;
    const entry = journal.start();
    entry.at = services.clock.now();
    entry.started = started;
    entry.requestId = String(request.id);
    entry.method = request.method;
    // The path's own string when they are equal: the buffer keeps one copy, not one per call.
    entry.url = url === path ? path : url;
    entry.path = path;
    entry.procedure = call.name;
    entry.transport = transport;
    entry.requestHeaders = request.journaledHeaders;
    entry.member = member;
    entry.requestBody = keptBody(call.input ?? null);
    return entry;
  };

  const intercept: Interceptor = (call, next) => {
    const started = performance.now();
    // An empty header is no header: tools that fill every documented parameter send it so.
    const rawHeader = call.exchange.request.headers[FAULT_HEADER] || undefined;
    if (rawHeader !== undefined || faults.active) return faulted(call, next, rawHeader, started);
    // No rule can apply: the call runs as it is, with no frame of the surface's own around it, and
    // its member is named when it completes, by the token invoke checks anyway.
    const entry = record(call, null, started);
    // Completed by `settled` when the endpoint has the answer: no promise of the surface's own.
    call.intercepted = entry;
    return next();
  };
  intercept.settled = (call, outcome, threw) => {
    const entry = call.intercepted as JournalRecord | undefined;
    if (!entry) return;
    call.intercepted = undefined;
    if (threw) failed(entry, entry.started, call, outcome);
    else answered(entry, entry.started, call, outcome);
  };

  /** A call while a rule could apply (a stored rule, or an X-QA-Fault header): the rule's member is known first. */
  const faulted = async (
    call: Call,
    next: () => Promise<unknown>,
    rawHeader: string | string[] | undefined,
    started: number,
  ) => {
    const { exchange } = call;
    const member = memberOf(call);
    const entry = record(call, member, started);
    try {
      // Without a header, no state per exchange: the stored rules alone decide.
      const state = rawHeader === undefined ? undefined : stateOf(exchange);
      // Without the QA token the header is ignored, not refused: a 401 on a contract call would
      // sign the member out, and to a member the header is noise. Not even parsed, so it cannot 400.
      if (state && state.header === undefined)
        state.header =
          options.token === undefined || presentsQaToken(exchange.request, options.token)
            ? parseHeaderRule(rawHeader)
            : null;
      const fault: AppliedFault | null = faults.pick(call.name, member, state?.header ?? null);
      if (!fault) {
        const output = await next();
        answered(entry, started, call, output);
        return output;
      }
      entry.fault = {
        id: fault.id,
        effect: fault.effect.kind === 'raw' ? fault.effect.what : fault.effect.kind,
        delayMs: fault.delayMs,
      };
      const held = state ?? stateOf(exchange);

      if (fault.delayMs > 0 && !(await hold(held, fault.delayMs)))
        return noAnswer(exchange, entry, started, connectionGone(held) ? 'client closed' : 'server closing');
      switch (fault.effect.kind) {
        case 'drop':
          return noAnswer(exchange, entry, started, 'dropped');
        case 'hang':
          await hold(held, null);
          return noAnswer(
            exchange,
            entry,
            started,
            connectionGone(held) ? 'client closed' : 'server closing',
          );
        case 'raw':
          // The first such call of a batch decides the whole answer (the onSend hook sends it).
          held.raw ??= { status: fault.effect.status, text: fault.effect.text };
          finish(entry, started, fault.effect.status, fault.effect.text);
          return exchange.transport === 'rest' ? fault.effect.text : undefined;
        case 'body': {
          const { status, body } = fault.effect;
          if (exchange.transport === 'trpc') {
            if (status >= 400) throw new AppError(status, messageOf(body));
            finish(entry, started, 200, body);
            return body;
          }
          exchange.reply.code(status).type(JSON_TYPE);
          finish(entry, started, status, body);
          // Serialized here so any JSON value (a string, null) goes out as JSON.
          return JSON.stringify(body);
        }
        case 'error':
          throw new AppError(fault.effect.status, fault.effect.message);
      }

      const output = await next();
      answered(entry, started, call, output);
      return output;
    } catch (error) {
      failed(entry, started, call, error);
      throw error;
    }
  };

  return { intercept, faults, journal, snapshots };
}
export type QaSurface = ReturnType<typeof createQaSurface>;
