/**
 * /trpc over Fastify routes: the calls the web app makes (GET queries and POST mutations, batched
 * or not, JSON) go straight to the call endpoint REST uses (call.ts), and their answers are
 * written as one JSON body. tRPC v11's own adapter builds a fetch Request, abort signals and a
 * streamed Response per request: 4-5× REST's CPU for the same cached answer (docs/decisions/contract-and-transports.md).
 *
 * The wire protocol is tRPC's, byte for byte (test/trpc-wire.test.ts compares both): envelopes
 * `{"result":{"data":…}}` and `{"error":…}` (appErrorShape, the router's errorFormatter), one
 * status when a batch's calls agree, else 207 (tRPC's getHTTPStatusCode). Whatever else reaches
 * /trpc (an unknown procedure, a query by POST, unreadable input, HEAD, streaming or other
 * content types) is answered by tRPC's adapter itself, before any call has run: its answers to
 * those are the protocol's, and no client of ours sends them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import { getHTTPStatusCode } from '@trpc/server/http';
import { contract, procedureNames, type AppErrorShape, type ProcedureName } from '@md/shared';
import { API_ROUTE } from '../core/security-headers.ts';
import type { Caller, Services } from '../core/services.ts';
import { callerOf, createCallEndpoint, type Exchange, type Interceptor } from './call.ts';
import type { Handlers } from './handlers.ts';
import { serializeAnswer } from '../core/answer-json.ts';
import { appErrorShape, createAppRouter, trpcErrorOf, type TrpcContext } from './trpc.ts';

/** The method each procedure answers on: queries by GET, mutations by POST (tRPC's rule without method override). */
const METHOD_OF = new Map<string, 'GET' | 'POST'>(
  procedureNames.map((name) => [name, contract[name].kind === 'query' ? 'GET' : 'POST']),
);

/** tRPC's content type: no charset. */
const JSON_TYPE = 'application/json';

/** A Host the adapter's `new URL(url, 'http://' + host)` accepts as it is (anything else goes to the adapter). */
const PLAIN_HOST = /^[A-Za-z0-9.\-:[\]]*$/;

/**
 * The query parameters tRPC reads, as its URLSearchParams would read them. Fastify's parse
 * (request.query, already made) agrees unless a key repeats or a value holds a '%' (an escape it
 * could not decode stays as written): then URLSearchParams itself.
 */
function searchOf(request: FastifyRequest): {
  batch?: string | null;
  input?: string | null;
  connectionParams: boolean;
} {
  const query = request.query as Record<string, string | string[] | undefined>;
  const { batch, input } = query;
  if (
    typeof batch !== 'object' &&
    typeof input !== 'object' &&
    !batch?.includes('%') &&
    !input?.includes('%')
  )
    return { batch, input, connectionParams: query.connectionParams !== undefined };
  const queryAt = request.url.indexOf('?');
  const search = new URLSearchParams(queryAt < 0 ? '' : request.url.slice(queryAt + 1));
  return {
    batch: search.get('batch'),
    input: search.get('input'),
    connectionParams: search.has('connectionParams'),
  };
}

/** The calls of a request the fast path answers, or null: the adapter answers it. */
function callsOf(
  request: FastifyRequest,
  path: string,
): { names: ProcedureName[]; inputs: unknown[]; batch: boolean } | null {
  const method = request.method;
  if (method !== 'GET' && method !== 'POST') return null;
  const headers = request.headers;
  // Streaming answers (httpBatchStreamLink, SSE) and POST without a content type: the adapter's.
  if (headers['trpc-accept'] !== undefined || headers.accept?.includes('application/jsonl')) return null;
  if (method === 'POST' && headers['content-type'] === undefined) return null;
  if (headers.host !== undefined && !PLAIN_HOST.test(headers.host)) return null;
  // tRPC decodes the path once more: a name with an escape goes to the adapter.
  if (path.includes('%')) return null;

  const query = searchOf(request);
  if (query.connectionParams) return null;
  const batch = query.batch === '1';
  const names = (batch ? path.split(',') : [path]) as ProcedureName[];
  // Every procedure known and called with its method, or the adapter answers (404, 405, mixed types).
  for (const name of names) if (METHOD_OF.get(name) !== method) return null;

  let raw: unknown;
  if (method === 'GET') {
    const text = query.input;
    if (text) {
      try {
        raw = JSON.parse(text);
      } catch {
        return null;
      }
    }
  } else {
    // The scope's parser keeps the body as text (as the adapter's does); unreadable JSON is the adapter's to answer.
    if (typeof request.body !== 'string') return null;
    try {
      raw = JSON.parse(request.body);
    } catch {
      return null;
    }
  }
  if (!batch) return { names, inputs: [raw], batch };
  if (raw === undefined) return { names, inputs: names.map(() => undefined), batch };
  // A batch's input is an object keyed by position.
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const byIndex = raw as Record<string, unknown>;
  return { names, inputs: names.map((_, index) => byIndex[index]), batch };
}

/** One call's outcome: its data, or its error as clients read it. */
type Outcome = { ok: true; data: unknown } | { ok: false; shape: AppErrorShape };

const envelopeJson = (outcome: Outcome) =>
  !outcome.ok
    ? JSON.stringify({ error: outcome.shape })
    : outcome.data === undefined
      ? '{"result":{}}'
      : `{"result":{"data":${serializeAnswer(outcome.data)}}}`;

/**
 * The bytes of a one-call answer that succeeded with an object, kept with the object as REST keeps
 * its JSON (json.ts): a cached read is answered without building its envelope again. The web app's
 * httpBatchLink sends a batch even for one call, so both spellings are kept.
 */
const oneCallBodies = new WeakMap<object, { single?: Buffer; batch?: Buffer }>();

function bodyOf(outcomes: Outcome[], batch: boolean): Buffer {
  const first = outcomes[0]!;
  if (outcomes.length === 1 && first.ok && typeof first.data === 'object' && first.data !== null) {
    let bodies = oneCallBodies.get(first.data);
    if (!bodies) oneCallBodies.set(first.data, (bodies = {}));
    return batch
      ? (bodies.batch ??= Buffer.from(`[${envelopeJson(first)}]`))
      : (bodies.single ??= Buffer.from(envelopeJson(first)));
  }
  const json = outcomes.map(envelopeJson);
  return Buffer.from(batch ? `[${json.join(',')}]` : json[0]!);
}

/** tRPC's status rule: 200 when every call succeeded, else the one status they agree on, else 207. */
const statusOf = (outcomes: Outcome[]) =>
  outcomes.every((outcome) => outcome.ok)
    ? 200
    : getHTTPStatusCode(
        outcomes.map((outcome) =>
          outcome.ok ? { id: null, result: { data: outcome.data } } : { id: null, error: outcome.shape },
        ),
      );

/**
 * The tRPC routes under `prefix` (/trpc in app.ts), in the caller's scope (the content-type guard
 * lives there). The router answers what the fast path leaves to the adapter, and types the client.
 */
export function registerTrpcRoutes(
  scope: FastifyInstance,
  services: Services,
  handlers: Handlers,
  interceptor?: Interceptor,
  prefix = '/trpc',
) {
  const router = createAppRouter(services, handlers, interceptor);
  const call = createCallEndpoint(services, handlers, interceptor);
  const createContext = ({ req, res }: { req: FastifyRequest; res: FastifyReply }): TrpcContext => ({
    caller: callerOf(req),
    exchange: { transport: 'trpc', request: req, reply: res },
  });

  // As the adapter's plugin: JSON bodies arrive as text (tRPC parses them), multipart untouched.
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  scope.removeContentTypeParser('multipart/form-data');
  scope.addContentTypeParser('multipart/form-data', {}, (_request, body, done) => done(null, body));

  const outcomeOf = (
    name: ProcedureName,
    input: unknown,
    caller: Caller,
    exchange: Exchange,
  ): Promise<Outcome> =>
    call({ name, input, caller, exchange }).then(
      (data): Outcome => ({ ok: true, data }),
      (error: unknown): Outcome => ({
        ok: false,
        shape: appErrorShape(trpcErrorOf(services, exchange, name, error), name),
      }),
    );

  // tRPC's Vary, on the fast path's own answers only: one a QA rule replaced in its onSend hook
  // (modules/qa/surface.ts, which runs first and sets its own content type) goes without, as
  // from the adapter. The adapter's answers (a Response here) carry theirs.
  scope.addHook('onSend', (_request, reply, payload, done) => {
    if (Buffer.isBuffer(payload) && reply.getHeader('content-type') === JSON_TYPE)
      reply.header('vary', 'trpc-accept, accept');
    done(null, payload);
  });

  scope.all<{ Params: { path: string } }>(`${prefix}/:path`, API_ROUTE, async (request, reply) => {
    const calls = callsOf(request, request.params.path);
    if (!calls)
      return fastifyRequestHandler({
        router,
        createContext,
        req: request,
        res: reply,
        path: request.params.path,
      });

    const caller = callerOf(request);
    const exchange: Exchange = { transport: 'trpc', request, reply };
    const outcomes = calls.batch
      ? await Promise.all(
          calls.names.map((name, index) => outcomeOf(name, calls.inputs[index], caller, exchange)),
        )
      : [await outcomeOf(calls.names[0]!, calls.inputs[0], caller, exchange)];
    // A QA rule dropped the connection (or the client left): nothing to answer, as for REST.
    if (reply.raw.destroyed) return reply.hijack();
    // As bytes: Fastify would add a charset to a JSON string's content type, and tRPC's has none.
    return reply
      .code(statusOf(outcomes))
      .header('content-type', JSON_TYPE)
      .send(bodyOf(outcomes, calls.batch));
  });
}
