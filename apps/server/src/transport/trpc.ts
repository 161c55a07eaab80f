/** The tRPC router at /trpc, one procedure per contract entry, named after its path. */
import type { FastifyInstance } from 'fastify';
import { initTRPC, TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import {
  contract,
  defaultErrorCode,
  MSG,
  procedureNames,
  trpcCodeOf,
  type AppErrorShape,
  type ProcedureName,
  type ProcedureRecord,
} from '@md/shared';
import { AppError, ContractError, logServerError, retryAfterOf, sendError } from '../core/errors.ts';
import { reportStorageFault } from '../core/storage.ts';
import type { Caller, Services } from '../core/services.ts';
import { createCallEndpoint, type Exchange, type Interceptor } from './call.ts';
import type { Handlers } from './handlers.ts';

export interface TrpcContext {
  caller: Caller;
  exchange: Exchange;
}

/**
 * The error of a call as clients read it, whichever path answered (the router's errorFormatter, or
 * the fast path in trpc-http.ts): tRPC's default shape (message, JSON-RPC code, data.code,
 * data.httpStatus, data.path) without the stack. The provider's message is the whole error:
 * clients read `message` in both transports.
 */
export function appErrorShape(error: TRPCError, path: string | undefined): AppErrorShape {
  const httpStatus = getHTTPStatusCodeFromError(error);
  return {
    // Unreadable input reaches here with JSON.parse's words ('Unexpected token…'): say it plainly.
    message:
      error.code === 'BAD_REQUEST' && error.cause instanceof SyntaxError
        ? 'The request input is not valid JSON'
        : error.message,
    code: TRPC_ERROR_CODES_BY_KEY[error.code],
    data: {
      code: error.code,
      httpStatus,
      path,
      // The same stable code as REST's `Code` (ERROR_CODES).
      Code:
        error.cause instanceof AppError
          ? error.cause.code
          : error.code === 'BAD_REQUEST' && error.cause instanceof SyntaxError
            ? 'INVALID_JSON'
            : defaultErrorCode(httpStatus),
    },
  };
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter: ({ error, path }): AppErrorShape => appErrorShape(error, path),
});

/**
 * What a failed call answers over tRPC, as REST answers it (app.ts's error handler): a storage
 * fault is logged and answered 503, never a 500; an AppError keeps its status and message;
 * anything else is logged and answered 500 without the internals in the message.
 */
export function trpcErrorOf(
  services: Services,
  exchange: Exchange,
  name: ProcedureName,
  error: unknown,
): TRPCError {
  const storage = reportStorageFault(services.storage, exchange.request, error, { procedure: name });
  if (storage) {
    exchange.reply.header('retry-after', retryAfterOf(storage.status)!);
    return new TRPCError({ code: trpcCodeOf(storage.status), message: storage.message, cause: error });
  }
  if (error instanceof AppError) {
    const retryAfter = retryAfterOf(error.status, error);
    if (retryAfter !== undefined) exchange.reply.header('retry-after', retryAfter);
    // A deliberate 5xx (a QA fault rule, not implemented): logged, a broken answer already was (call.ts).
    if (error.status >= 500 && !(error instanceof ContractError))
      logServerError(
        exchange.request,
        error,
        `Answered ${error.status}: ${error.message}`,
        { procedure: name },
        'warn',
      );
    return new TRPCError({ code: trpcCodeOf(error.status), message: error.message, cause: error });
  }
  logServerError(exchange.request, error, 'Unexpected error, answered 500', { procedure: name });
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: MSG.unexpectedError, cause: error });
}

export function createAppRouter(services: Services, handlers: Handlers, interceptor?: Interceptor) {
  const call = createCallEndpoint(services, handlers, interceptor);
  const procedures = {} as Record<string, unknown>;
  for (const name of procedureNames) {
    // Validation happens in invoke (shared with REST), so the parser only passes the input on.
    const procedure = t.procedure.input((raw: unknown) => raw);
    const resolve = async ({ ctx, input }: { ctx: TrpcContext; input: unknown }) => {
      try {
        return await call({ name, input, caller: ctx.caller, exchange: ctx.exchange });
      } catch (error) {
        throw trpcErrorOf(services, ctx.exchange, name, error);
      }
    };
    procedures[name] =
      contract[name].kind === 'query' ? procedure.query(resolve) : procedure.mutation(resolve);
  }
  return t.router(procedures as ProcedureRecord);
}

export type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * Only JSON (or no body) reaches the tRPC adapter: it answers a multipart POST with a 500 (it
 * JSON-stringifies the raw request) and other types with its own wording. The REST routes say the same.
 */
export function guardTrpcContentType(app: FastifyInstance) {
  // Added in the tRPC routes' own scope (app.ts), so REST calls never pay for it; a callback hook, no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    const type = request.headers['content-type'];
    // Answered here, without done(): the route does not run.
    if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type))
      sendError(reply, 415, 'Send the body as application/json');
    else done();
  });
}
