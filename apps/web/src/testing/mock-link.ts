/** A terminating tRPC link that answers from a map of handlers: procedure name → (input) → data. */
import { createTRPCClient, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { ProcedureName } from '@md/shared';
import { providerError } from '@/lib/provider-link.ts';
import type { ContractRouter as AppRouter } from '@md/shared';

export type MockHandlers = Partial<Record<ProcedureName, (input: Record<string, unknown>) => unknown>>;

/** Thrown by a handler to answer with a provider error. */
export class MockFailure extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export function mockLink(
  handlers: MockHandlers,
  calls: { path: string; input: unknown }[] = [],
): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        calls.push({ path: op.path, input: op.input });
        const handler = handlers[op.path as ProcedureName];
        Promise.resolve()
          .then(() => {
            if (!handler) throw new MockFailure('Not implemented yet', 501);
            return handler((op.input ?? {}) as Record<string, unknown>);
          })
          .then((data) => {
            observer.next({ result: { type: 'data', data } });
            observer.complete();
          })
          .catch((error: unknown) => {
            const failure = error instanceof MockFailure ? error : new MockFailure(String(error), 500);
            observer.error(providerError(failure.message, failure.status, op.path));
          });
        return () => {};
      });
}

export const createMockClient = (handlers: MockHandlers, calls?: { path: string; input: unknown }[]) =>
  createTRPCClient<AppRouter>({ links: [mockLink(handlers, calls)] });
