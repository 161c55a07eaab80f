/**
 * The tRPC router type of the contract: the server builds its router from `ProcedureRecord` and
 * the client is typed against `ContractRouter`, so neither side imports the other's sources.
 */
import type {
  TRPCBuiltRouter,
  TRPCMutationProcedure,
  TRPCQueryProcedure,
  TRPC_ERROR_CODE_KEY,
  TRPC_ERROR_CODE_NUMBER,
} from '@trpc/server';
import type { Contract, InputOf, OutputOf, ProcedureName } from './contract.ts';
import type { ErrorCode } from './error-codes.ts';

type ProcedureDef<K extends ProcedureName> = { input: InputOf<K>; output: OutputOf<K>; meta: object };
export type ProcedureFor<K extends ProcedureName> = Contract[K]['kind'] extends 'query'
  ? TRPCQueryProcedure<ProcedureDef<K>>
  : TRPCMutationProcedure<ProcedureDef<K>>;
export type ProcedureRecord = { [K in ProcedureName]: ProcedureFor<K> };

/** The server's errorFormatter keeps message, code and data { code, httpStatus, path }. */
export interface AppErrorShape {
  message: string;
  code: TRPC_ERROR_CODE_NUMBER;
  data: { code: TRPC_ERROR_CODE_KEY; httpStatus: number; path: string | undefined; Code: ErrorCode };
}

export type ContractRouter = TRPCBuiltRouter<
  { ctx: object; meta: object; errorShape: AppErrorShape; transformer: false },
  ProcedureRecord
>;
