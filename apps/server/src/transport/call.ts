/**
 * The one path every contract call takes from either transport: an optional interceptor (the QA
 * surface's faults and journal, off in production) around invoke, and loud contract failures.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contract, type ProcedureName } from '@md/shared';
import { ContractError, logServerError } from '../core/errors.ts';
import type { Caller, Services } from '../core/services.ts';
import type { Handlers } from './handlers.ts';
import { invoke, type CallReport } from './invoke.ts';

export type Transport = 'rest' | 'trpc';

/** The HTTP exchange a call belongs to; one tRPC batch carries several calls. */
export interface Exchange {
  transport: Transport;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Who answered a call: the stand-in's handlers, the provider (gateway mode) or a recording of it. */
export type Source = 'mock' | 'provider' | `recording:${string}`;

export interface Call {
  name: ProcedureName;
  input: unknown;
  caller: Caller;
  exchange: Exchange;
  /**
   * Set by the provider gateway (modules/gateway) when it answered instead of the handlers: the
   * status and body the provider gave, and how long it took; the journal shows them.
   */
  answered?: { source: Source; status: number; body: unknown; providerMs: number | null };
  /** The username the call's token authenticated, once the handlers' side has checked it (invoke reports it). */
  member?: string;
  /** What the interceptor keeps of the call until its `settled` is told how it ended (the QA journal's record). */
  intercepted?: unknown;
}

/** Who calls, from the HTTP request: both transports read the same headers. */
export const callerOf = (request: FastifyRequest): Caller => {
  const key = request.headers['idempotency-key'];
  return {
    ip: request.ip,
    authorization: request.headers.authorization,
    userAgent: request.headers['user-agent'],
    ...(key !== undefined ? { idempotencyKey: Array.isArray(key) ? key.join(', ') : key } : {}),
  };
};

/** Wraps a call; `next` runs it (invoke). What it answers or throws is what the transport sends. */
export interface Interceptor {
  (call: Call, next: () => Promise<unknown>): Promise<unknown>;
  /**
   * Told how a call ended once the endpoint has its answer, for an interceptor that returned
   * `next()` as it was: no promise of its own per call, and the answer is awaited once.
   */
  settled?: (call: Call, outcome: unknown, failed: boolean) => void;
}

export type CallEndpoint = (call: Call) => Promise<unknown>;

/**
 * One interceptor around another: `outer` sees what `inner` answered (the QA surface around the
 * gateway). `innerPasses` names the calls `inner` would only pass on, which skip it.
 */
export function chainInterceptors(
  outer: Interceptor | undefined,
  inner: Interceptor | undefined,
  innerPasses: (call: Call) => boolean = () => false,
): Interceptor | undefined {
  if (!outer || !inner) return outer ?? inner;
  const chained: Interceptor = (call, next) =>
    outer(call, innerPasses(call) ? next : () => inner(call, next));
  if (outer.settled || inner.settled)
    chained.settled = (call, outcome, failed) => {
      inner.settled?.(call, outcome, failed);
      outer.settled?.(call, outcome, failed);
    };
  return chained;
}

/** What invoke reports of a call, kept on the call: one object per call, no closures. */
class Reporter implements CallReport {
  constructor(private readonly call: Call) {}
  header(name: string, value: string) {
    this.call.exchange.reply.header(name, value);
  }
  authenticated(username: string) {
    this.call.member = username;
  }
}

export function createCallEndpoint(
  services: Services,
  handlers: Handlers,
  interceptor?: Interceptor,
): CallEndpoint {
  return async (call) => {
    // Reads the call when it runs: the gateway may have put a stand-in token for a member signed in
    // at the provider in its caller and input (modules/gateway/shadow.ts).
    const next = () => invoke(services, handlers, call.name, call.input, call.caller, new Reporter(call));
    try {
      const writes = contract[call.name].kind === 'mutation';
      // A write is refused while the database files are gone or cannot be written, and any call
      // while touching them could kill the process (core/storage.ts); before the QA surface, which reads tokens.
      services.storage?.guard(writes);
      const turns = writes ? services.writeTurns : undefined;
      const turn = turns?.take();
      let answer: Promise<unknown>;
      try {
        if (turn) await turn;
        answer = interceptor ? interceptor(call, next) : next();
      } finally {
        turns?.release();
      }
      const output = await answer;
      interceptor?.settled?.(call, output, false);
      return output;
    } catch (error) {
      interceptor?.settled?.(call, error, true);
      // An answer that breaks the contract is a server bug: the 500 names it, and so does the log.
      if (error instanceof ContractError)
        logServerError(call.exchange.request, error, error.message, { procedure: call.name });
      throw error;
    }
  };
}
