import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
const [port, webDist] = [Number(process.argv[2]), process.argv[3]];
const dir = mkdtempSync(join(tmpdir(), 'ab-'));
const app = await buildApp({ databasePath: join(dir, 'ab.sqlite'), clientMode: 'mock', webDist, jwtSecret: 'ab', config: { rateLimits: false, qaControl: false } });
await app.fastify.listen({ port, host: '127.0.0.1' });
console.log('listening', port, webDist);
