/** The handler table: one plain function of (ctx, input) per contract entry. */
import type { Contract, OutputOf, ParsedInputOf, ProcedureName } from '@md/shared';
import type { WrittenAnswer } from '../core/answer-json.ts';
import type { AuthedCtx, Ctx } from '../core/services.ts';

export type CtxFor<K extends ProcedureName> = Contract[K]['auth'] extends 'required' ? AuthedCtx : Ctx;
export type Handler<K extends ProcedureName> = (
  ctx: CtxFor<K>,
  input: ParsedInputOf<K>,
) => Answer<OutputOf<K>> | Promise<Answer<OutputOf<K>>>;
/** An answer as an object, or already written as its JSON. */
type Answer<T> = T | WrittenAnswer<T>;
export type Handlers = { [K in ProcedureName]?: Handler<K> };
