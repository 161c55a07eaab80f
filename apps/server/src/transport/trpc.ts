/** The tRPC router at /trpc, one procedure per contract entry, named after its path. */
import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { contract, procedureNames, type AppErrorShape, type ProcedureRecord } from '@md/shared';
import { AppError } from '../core/errors.ts';
import type { Caller, Services } from '../core/services.ts';
import type { Handlers } from './handlers.ts';
import { invoke } from './invoke.ts';

export interface TrpcContext {
  caller: Caller;
}

const t = initTRPC.context<TrpcContext>().create({
  // The provider's message is the whole error: clients read `message` in both transports.
  errorFormatter: ({ shape }): AppErrorShape => ({
    message: shape.message,
    code: shape.code,
    data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path },
  }),
});

const CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
  501: 'NOT_IMPLEMENTED',
};
export const trpcCodeOf = (status: number): TRPC_ERROR_CODE_KEY => CODE_BY_STATUS[status] ?? 'INTERNAL_SERVER_ERROR';


export function createAppRouter(services: Services, handlers: Handlers) {
  const procedures = {} as Record<string, unknown>;
  for (const name of procedureNames) {
    // Validation happens in invoke (shared with REST), so the parser only passes the input on.
    const procedure = t.procedure.input((raw: unknown) => raw);
    const resolve = async ({ ctx, input }: { ctx: TrpcContext; input: unknown }) => {
      try {
        return await invoke(services, handlers, name, input, ctx.caller);
      } catch (error) {
        if (error instanceof AppError) throw new TRPCError({ code: trpcCodeOf(error.status), message: error.message });
        throw error;
      }
    };
    procedures[name] = contract[name].kind === 'query' ? procedure.query(resolve) : procedure.mutation(resolve);
  }
  return t.router(procedures as ProcedureRecord);
}

export type AppRouter = ReturnType<typeof createAppRouter>;
