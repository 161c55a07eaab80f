/**
 * The routing table of the gateway: who answers each contract endpoint, `provider` (forwarded
 * to PROVIDER_URL), `mock` (this stand-in's handlers) or `recording:<name>` (a HAR recording of
 * the provider). The default is `provider` when PROVIDER_URL is set, else `mock`.
 */
import { z } from 'zod';
import { contract, procedureNames, type ProcedureName } from '@md/shared';
import { endpointField, objectError } from '../qa/faults.ts';
import { RECORDING_NAME } from './recordings.ts';

export type Target = 'provider' | 'mock' | `recording:${string}`;

export interface RoutingView {
  default: 'provider' | 'mock';
  endpoints: { path: string; procedure: ProcedureName; target: Target }[];
}

export const routingInput = z
  .object(
    {
      path: endpointField,
      target: z
        .string({ error: "target is required: 'provider', 'mock' or 'recording:<name>'" })
        .refine(
          (v) =>
            v === 'provider' ||
            v === 'mock' ||
            (v.startsWith('recording:') && RECORDING_NAME.test(v.slice('recording:'.length))),
          {
            error:
              "target must be 'provider', 'mock' or 'recording:<name>' (a recording name: 1–64 letters, digits, '-' or '_')",
          },
        )
        .transform((v) => v as Target),
    },
    { error: objectError('The body must be a JSON object: { path, target }') },
  )
  .strict();
export type RoutingInput = z.output<typeof routingInput>;

export const recordingOf = (target: Target): string | null =>
  target.startsWith('recording:') ? target.slice('recording:'.length) : null;

export function createRouting(defaultTarget: 'provider' | 'mock') {
  const table = new Map<ProcedureName, Target>(procedureNames.map((name) => [name, defaultTarget]));
  return {
    targetOf: (name: ProcedureName): Target => table.get(name)!,
    /** Sets one endpoint's target, or every endpoint's for '*'. */
    set(path: ProcedureName | '*', target: Target) {
      for (const name of path === '*' ? procedureNames : [path]) table.set(name, target);
    },
    view: (): RoutingView => ({
      default: defaultTarget,
      endpoints: procedureNames.map((name) => ({
        path: contract[name].path,
        procedure: name,
        target: table.get(name)!,
      })),
    }),
  };
}
export type Routing = ReturnType<typeof createRouting>;
