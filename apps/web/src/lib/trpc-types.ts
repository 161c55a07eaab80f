/**
 * The router type the client is typed against, built from the shared contract exactly as
 * apps/server/src/transport/trpc.ts builds `AppRouter` (same procedure record, same error shape).
 * Deriving it here rather than importing the server's file keeps the web app's type check
 * independent of the server's sources (and their dependencies) while the contract stays the one
 * source of truth.
 */
import type { TRPCBuiltRouter, TRPCMutationProcedure, TRPCQueryProcedure, TRPC_ERROR_CODE_KEY, TRPC_ERROR_CODE_NUMBER } from '@trpc/server';
import type { Contract, InputOf, OutputOf, ProcedureName } from '@md/shared';

type ProcedureDef<K extends ProcedureName> = { input: InputOf<K>; output: OutputOf<K>; meta: object };
type ProcedureFor<K extends ProcedureName> = Contract[K]['kind'] extends 'query'
  ? TRPCQueryProcedure<ProcedureDef<K>>
  : TRPCMutationProcedure<ProcedureDef<K>>;
type ProcedureRecord = { [K in ProcedureName]: ProcedureFor<K> };

/** The server's errorFormatter keeps message, code and data { code, httpStatus, path }. */
export interface AppErrorShape {
  message: string;
  code: TRPC_ERROR_CODE_NUMBER;
  data: { code: TRPC_ERROR_CODE_KEY; httpStatus: number; path: string | undefined };
}

export type AppRouter = TRPCBuiltRouter<
  { ctx: object; meta: object; errorShape: AppErrorShape; transformer: false },
  ProcedureRecord
>;
