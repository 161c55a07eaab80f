/**
 * Build step (build.mjs runs it from dist/): plays the example session (modules/docs/example-session.ts)
 * on a fresh `demo` world in memory, on the real clock, and writes what the OpenAPI document's
 * examples are read from (app.ts's DEFAULT_EXAMPLES_FILE).
 */
import { solveChallenge } from 'altcha-lib';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildApp, DEFAULT_EXAMPLES_FILE } from './app.ts';
import { manualClock, type Clock } from './core/clock.ts';
import { setExampleCodes } from './core/example-codes.ts';
import {
  playExampleSession,
  type RecordedCall,
  type RecordedSession,
  type SendCall,
} from './modules/docs/example-session.ts';
import { playQaExampleSession } from './modules/docs/qa-example-session.ts';
import { QA_WORLD_HEADER } from './modules/docs/qa-table.ts';

/**
 * Plays the member session, then the tester's (/__qa), on a new demo world (its clock `clock`, the
 * real one by default); with `replay`, replays that recording of the member session alone.
 */
export async function recordExampleSession(
  options: { clock?: Clock; replay?: readonly RecordedCall[] } = {},
): Promise<RecordedSession> {
  const app = await buildApp({
    databasePath: ':memory:',
    seed: 'demo',
    // QA worlds in memory: the tester's session makes, exports and imports one.
    worlds: {},
    jwtSecret: randomBytes(32).toString('hex'),
    logger: false,
    ...(options.clock ? { clock: options.clock } : {}),
    config: { qaControl: true, rateLimits: false },
  });
  try {
    setExampleCodes(app.services, true);
    const now = app.services.clock.now();
    // Solved as the browser's widget solves it: the payload it submits, base64 JSON.
    const captcha = async () => {
      const challenge = (await app.fastify.inject({ method: 'GET', url: '/captcha/challenge' })).json<{
        algorithm: string;
        challenge: string;
        salt: string;
        signature: string;
        maxnumber: number;
      }>();
      const { algorithm, salt, signature, maxnumber } = challenge;
      const solution = await solveChallenge(challenge.challenge, salt, algorithm, maxnumber).promise;
      if (!solution) throw new Error('The captcha could not be solved');
      const payload = { algorithm, challenge: challenge.challenge, number: solution.number, salt, signature };
      return Buffer.from(JSON.stringify(payload)).toString('base64');
    };
    const post: SendCall = async (path, body, token) => {
      const answer = await app.fastify.inject({
        method: 'POST',
        url: path,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        payload: JSON.stringify(body),
      });
      return { status: answer.statusCode, body: answer.json() as unknown };
    };
    const calls = await playExampleSession(post, {
      now,
      captcha,
      ...(options.replay ? { replay: options.replay } : {}),
    });
    if (options.replay) return { at: new Date(now).toISOString(), from: 'demo', calls, qa: [] };
    const qa = await playQaExampleSession(
      async (method, url, { body, file, world }) => {
        const answer = await app.fastify.inject({
          method,
          url,
          headers: {
            ...(file ? { 'content-type': 'application/octet-stream' } : {}),
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(world ? { [QA_WORLD_HEADER.name]: world } : {}),
          },
          ...(file ? { payload: file } : body !== undefined ? { payload: JSON.stringify(body) } : {}),
        });
        const json = String(answer.headers['content-type'] ?? '').startsWith('application/json')
          ? (answer.json() as unknown)
          : undefined;
        return { status: answer.statusCode, json, raw: answer.rawPayload };
      },
      async (path, body, username) => {
        const signIn = await post('/user/login', { username, password: 'Demo@1234' }, null);
        const token = (signIn.body as { JWT: string }).JWT;
        return (await post(path, body, token)).body;
      },
    );
    return { at: new Date(now).toISOString(), from: 'demo', calls, qa };
  } finally {
    await app.fastify.close();
  }
}

// `node dist/openapi-examples.js [file] [--at <ISO date-time>]`: --at plays it on a clock stopped
// there (the tests' worlds), else on the real one.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values, positionals } = parseArgs({ options: { at: { type: 'string' } }, allowPositionals: true });
  const file = positionals[0] ?? DEFAULT_EXAMPLES_FILE;
  const at = values.at === undefined ? undefined : Date.parse(values.at);
  if (at !== undefined && !Number.isFinite(at)) throw new Error(`--at is not a date-time: ${values.at}`);
  const session = await recordExampleSession(at === undefined ? {} : { clock: manualClock(at) });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(session, null, 1)}\n`);
}
