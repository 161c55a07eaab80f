/**
 * The reference ceiling of scripts/bench/http.ts: a bare Fastify app whose POST routes answer
 * JSON held in memory (captured from the real server), with nothing else per request.
 *   node --import tsx scripts/bench/http-bare.ts <answers.json> <port>
 * answers.json maps each path to the JSON it answers.
 */
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

const [file, port] = process.argv.slice(2);
const answers = JSON.parse(readFileSync(file!, 'utf8')) as Record<string, unknown>;
const app = Fastify({ logger: false });
for (const [path, answer] of Object.entries(answers)) app.post(path, async () => answer);
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log(`listening on ${port}`);
