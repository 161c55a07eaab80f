/**
 * REST at the provider's paths: POST JSON, `{ Success }` or `{ Error }` envelopes. Another method
 * on one of those paths is a JSON 405 naming POST in Allow (a GET used to fall through to the web
 * app's HTML with a 200).
 */
import type { FastifyInstance } from 'fastify';
import { contract, procedureNames } from '@md/shared';
import { JSON_TYPE } from '../core/answer-headers.ts';
import { API_ROUTE } from '../core/security-headers.ts';
import { sendError } from '../core/errors.ts';
import type { Services } from '../core/services.ts';
import { callerOf, createCallEndpoint, type Interceptor } from './call.ts';
import type { Handlers } from './handlers.ts';
import { serializeAnswer } from '../core/answer-json.ts';

export function registerRestRoutes(
  app: FastifyInstance,
  services: Services,
  handlers: Handlers,
  interceptor?: Interceptor,
) {
  // A contract call's body is JSON: a text body is a 415 as any other type, not a string the handler refuses.
  app.removeContentTypeParser('text/plain');
  const call = createCallEndpoint(services, handlers, interceptor);
  for (const name of procedureNames) {
    app.post(contract[name].path, API_ROUTE, async (request, reply) => {
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
    app.route({
      ...API_ROUTE,
      method: OTHER_METHODS,
      url: contract[name].path,
      handler: (request, reply) =>
        sendError(
          reply.header('allow', 'POST'),
          405,
          methodNotAllowedMessage(request.method, contract[name].path),
        ),
    });
  }
}

// HEAD comes with GET; OPTIONS stays CORS's (transport/cors.ts).
const OTHER_METHODS = ['GET', 'PUT', 'PATCH', 'DELETE'];
export const methodNotAllowedMessage = (method: string, path: string) =>
  `${method} is not allowed on ${path}: use POST`;
