/**
 * The reference ceiling of scripts/bench/http.ts: a bare Fastify app answering JSON held in memory
 * (captured from the real server), with nothing else per request.
 *   node --import tsx scripts/bench/http-bare.ts <answers.json> <port>
 * answers.json maps each path to the JSON it answers: a REST path (`/user/view_profile`) is a POST
 * route; a tRPC path (`/trpc/user.view_profile`) is a GET route, shaped as tRPC answers it: the
 * stored body alone, or in an array when asked as a batch (`?batch=1`).
 */
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

const [file, port] = process.argv.slice(2);
const answers = JSON.parse(readFileSync(file!, 'utf8')) as Record<string, unknown>;
const app = Fastify({ logger: false });
for (const [path, answer] of Object.entries(answers)) {
  if (!path.startsWith('/trpc/')) {
    app.post(path, async () => answer);
    continue;
  }
  const batch = [answer];
  app.get<{ Querystring: { batch?: string } }>(path, async (request) =>
    request.query.batch === '1' ? batch : answer,
  );
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log(`listening on ${port}`);
