/** The tRPC router at /trpc, one procedure per contract entry, named after its path. */
import { initTRPC, TRPCError } from '@trpc/server';
import { contract, procedureNames, trpcCodeOf, type AppErrorShape, type ProcedureRecord } from '@md/shared';
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
