/**
 * The server's jobs (core/jobs.ts): what a long QA operation is doing, and how to stop it. In the
 * server's own app only: a request naming a world reaches these too (worlds/routes.ts keeps
 * /__qa/jobs for the server), and `?world=<id>|default` narrows the list to one world's jobs.
 */
import type { FastifyInstance } from 'fastify';
import { JOBS_PATH, waitSecondsOf, type Jobs } from '../../core/jobs.ts';

export function registerJobRoutes(app: FastifyInstance, jobs: Jobs) {
  app.get<{ Querystring: { world?: string } }>(JOBS_PATH, async (request) => {
    const world = request.query.world;
    return { jobs: jobs.list(world === undefined ? undefined : world === 'default' ? null : world) };
  });
  // ?wait=true (or seconds): answers once the job has ended, or as it is when the wait runs out.
  app.get<{ Params: { id: string } }>(`${JOBS_PATH}/:id`, async (request) => {
    const seconds = waitSecondsOf(request.query);
    return seconds > 0 ? jobs.wait(request.params.id, seconds) : jobs.get(request.params.id);
  });
  app.delete<{ Params: { id: string } }>(`${JOBS_PATH}/:id`, async (request) =>
    jobs.cancel(request.params.id),
  );
}
