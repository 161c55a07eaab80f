/**
 * QA routes of the gateway: the routing table (/__qa/routing) and the recordings
 * (/__qa/recordings). Registered in the QA scope (app.ts), behind the same guard as every /__qa
 * route. Bad input is a 400 `{ Error }` that changes nothing.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { firstIssueMessage } from '@md/shared';
import { AppError, badRequest } from '../../core/errors.ts';
import { objectError } from '../qa/faults.ts';
import type { Gateway } from './gateway.ts';
import { checkRecordingName, RECORDING_NAME } from './recordings.ts';
import { recordingOf, routingInput } from './routing.ts';

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError(400, firstIssueMessage(result.error));
  return result.data;
}

export const recordingBody = z
  .object(
    {
      name: z
        .string({ error: 'name is required' })
        .regex(RECORDING_NAME, { error: "Recording names are 1–64 letters, digits, '-' or '_'" }),
    },
    { error: objectError('The body must be a JSON object: { name }') },
  )
  .strict();

export function registerGatewayRoutes(app: FastifyInstance, gateway: Gateway) {
  app.get('/__qa/routing', async () => gateway.routing.view());

  app.post('/__qa/routing', async (request) => {
    const { path, target } = parse(routingInput, request.body ?? null);
    if (target === 'provider' && !gateway.hasProvider)
      throw badRequest('PROVIDER_URL is not set: there is no provider to route to');
    const recording = recordingOf(target);
    if (recording !== null) {
      if (!gateway.recordings.exists(recording))
        throw badRequest(`No recording named '${recording}' (GET /__qa/recordings lists them)`);
      // A new routing to a recording replays it from its first exchange.
      gateway.recordings.rewind(recording);
    }
    gateway.routing.set(path, target);
    return gateway.routing.view();
  });

  app.get('/__qa/recordings', async () => gateway.recordings.list());

  app.post('/__qa/recordings', async (request, reply) => {
    const { name } = parse(recordingBody, request.body ?? null);
    return reply.code(201).send(gateway.recordings.start(name));
  });

  app.post<{ Params: { name: string } }>('/__qa/recordings/:name/stop', async (request) =>
    gateway.recordings.stop(checkRecordingName(request.params.name)),
  );

  app.delete<{ Params: { name: string } }>('/__qa/recordings/:name', async (request) => {
    gateway.recordings.remove(checkRecordingName(request.params.name));
    return { deleted: request.params.name };
  });
}
