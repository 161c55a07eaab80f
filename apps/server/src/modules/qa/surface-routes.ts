/**
 * QA routes of the surface: fault rules (/__qa/faults), the journal (/__qa/journal) and
 * database snapshots (/__qa/snapshots). Bad input is a 400 `{ Error }` that changes nothing.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '../../core/errors.ts';
import { worldFileOf } from '../worlds/world-file.ts';
import { importWorldFile } from '../worlds/world-thread.ts';
import { objectError, resolveEndpoint, ruleInput, ruleView } from './faults.ts';
import type { QaSurface } from './surface.ts';

type Parse = <T extends z.ZodType>(schema: T, value: unknown) => z.output<T>;

const journalQuery = z.object({
  path: z
    .string()
    .transform((v, ctx) => {
      const name = resolveEndpoint(v);
      if (!name) {
        ctx.addIssue({
          code: 'custom',
          message: `Unknown endpoint '${v.slice(0, 100)}': use a contract path such as '/user/view_profile' or its procedure name`,
        });
        return z.NEVER;
      }
      return name;
    })
    .optional(),
  member: z.string().trim().toLowerCase().max(64).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(500, { error: 'limit must be at most 500' })
    .default(100),
});
const seedBody = z
  .object(
    {
      seed: z.number({ error: 'seed must be a whole number' }).int({ error: 'seed must be a whole number' }),
    },
    { error: objectError('The body must be a JSON object') },
  )
  .strict();
const snapshotBody = z
  .object(
    { name: z.string({ error: 'name is required' }) },
    { error: objectError('The body must be a JSON object') },
  )
  .strict();

export function registerSurfaceRoutes(
  app: FastifyInstance,
  qa: QaSurface,
  parse: Parse,
  /** This database's migrations, oldest first: an imported file is brought to them. */
  migrations: () => string[],
) {
  app.get('/__qa/faults', async () => qa.faults.list().map(ruleView));

  app.post('/__qa/faults', async (request, reply) => {
    // A body-less POST means "no rule" and gets the same clear 400 as any bad rule.
    const rule = qa.faults.add(parse(ruleInput, request.body ?? null));
    return reply.code(201).send(ruleView(rule));
  });

  app.delete('/__qa/faults', async () => ({ deleted: qa.faults.clear() }));

  app.delete<{ Params: { id: string } }>('/__qa/faults/:id', async (request) => {
    if (!qa.faults.remove(request.params.id))
      throw notFound(`No fault rule with id '${request.params.id.slice(0, 40)}'`);
    return { deleted: 1 };
  });

  app.post('/__qa/faults/seed', async (request) => {
    const { seed } = parse(seedBody, request.body ?? null);
    qa.faults.seed(seed);
    return { seed };
  });

  app.get('/__qa/journal', async (request) => {
    const { path, member, limit } = parse(journalQuery, request.query);
    return qa.journal.list({ procedure: path, member, limit });
  });

  app.delete('/__qa/journal', async () => ({ deleted: qa.journal.clear() }));

  app.get('/__qa/snapshots', async () => qa.snapshots.list());

  app.post('/__qa/snapshots', async (request, reply) => {
    const { name } = parse(snapshotBody, request.body ?? null);
    return reply.code(201).send(qa.snapshots.save(name));
  });

  // A world file (GET /__qa/worlds/{id}/export) kept as a snapshot: its database alone, restored
  // or made a world from as any other; its settings stay with the world it came from.
  app.put<{ Params: { name: string } }>('/__qa/snapshots/:name', async (request, reply) => {
    const file = worldFileOf(request.body);
    await importWorldFile(file.path, migrations());
    return reply.code(201).send(qa.snapshots.put(request.params.name, await readFile(file.path)));
  });

  app.post<{ Params: { name: string } }>('/__qa/snapshots/:name/restore', async (request) => ({
    restored: qa.snapshots.restore(request.params.name),
  }));

  app.delete<{ Params: { name: string } }>('/__qa/snapshots/:name', async (request) => {
    qa.snapshots.remove(request.params.name);
    return { deleted: request.params.name };
  });
}
