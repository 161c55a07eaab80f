/** REST at the provider's paths: POST JSON, `{ Success }` or `{ Error }` envelopes. */
import type { FastifyInstance } from 'fastify';
import { contract, procedureNames } from '@md/shared';
import type { Services } from '../core/services.ts';
import { createCallEndpoint, type Interceptor } from './call.ts';
import type { Handlers } from './handlers.ts';

/**
 * The JSON of an answer, computed once per answer object: the read cache hands out the same
 * object until the next write, so its JSON is kept with it (and freed with it). What Fastify's
 * default serializer would send, without the work on every call.
 */
const serialized = new WeakMap<object, string>();
const JSON_TYPE = 'application/json; charset=utf-8';
function serialize(answer: object): string {
  let json = serialized.get(answer);
  if (json === undefined) serialized.set(answer, (json = JSON.stringify(answer)));
  return json;
}

export function registerRestRoutes(app: FastifyInstance, services: Services, handlers: Handlers, interceptor?: Interceptor) {
  const call = createCallEndpoint(services, handlers, interceptor);
  for (const name of procedureNames) {
    app.post(contract[name].path, async (request, reply) => {
      const answer = await call({
        name,
        input: request.body,
        caller: { ip: request.ip, authorization: request.headers.authorization },
        exchange: { transport: 'rest', request, reply },
      });
      return typeof answer === 'object' && answer !== null ? reply.type(JSON_TYPE).send(serialize(answer)) : answer;
    });
  }
}
