/** REST at the provider's paths: POST JSON, `{ Success }` or `{ Error }` envelopes. */
import type { FastifyInstance } from 'fastify';
import { contract, procedureNames } from '@md/shared';
import type { Services } from '../core/services.ts';
import { callerOf, createCallEndpoint, type Interceptor } from './call.ts';
import type { Handlers } from './handlers.ts';
import { serializeAnswer } from './json.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

export function registerRestRoutes(
  app: FastifyInstance,
  services: Services,
  handlers: Handlers,
  interceptor?: Interceptor,
) {
  const call = createCallEndpoint(services, handlers, interceptor);
  for (const name of procedureNames) {
    app.post(contract[name].path, async (request, reply) => {
      const answer = await call({
        name,
        input: request.body,
        caller: callerOf(request),
        exchange: { transport: 'rest', request, reply },
      });
      return typeof answer === 'object' && answer !== null
        ? reply.type(JSON_TYPE).send(serializeAnswer(answer))
        : answer;
    });
  }
}
