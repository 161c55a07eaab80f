/** REST at the provider's paths: POST JSON, `{ Success }` or `{ Error }` envelopes. */
import type { FastifyInstance } from 'fastify';
import { contract, procedureNames } from '@md/shared';
import type { Services } from '../core/services.ts';
import type { Handlers } from './handlers.ts';
import { invoke } from './invoke.ts';

export function registerRestRoutes(app: FastifyInstance, services: Services, handlers: Handlers) {
  for (const name of procedureNames) {
    app.post(contract[name].path, async (request) =>
      invoke(services, handlers, name, request.body, {
        ip: request.ip,
        authorization: request.headers.authorization,
      }),
    );
  }
}
