/**
 * CORS as a real provider answers it: a web app served from another origin (a CDN, a static host,
 * Vite without its proxy) calls the REST contract, the deposit host, /trpc, the captcha and the
 * wallet-check stand-in with a bearer token in Authorization, never with cookies. Only the listed
 * origins get CORS headers, and only on those routes: /config.json, the web app, /docs and /__qa
 * stay same-origin. A preflight is answered in the onRequest hook, before any contract call, so it
 * never spends a member's rate limits (transport/rate-limit.ts counts inside invoke).
 */
import type { FastifyInstance } from 'fastify';
import fastifyCors from '@fastify/cors';
import { contract, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, procedureNames } from '@md/shared';
import { WALLET_CHECK_STANDIN_PATH } from '../modules/security/wallet-check-standin.ts';

/** Browsers cache a preflight this long (Chromium caps it at 2 hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;
// X-QA-World: a QA client across origins names its world (modules/worlds). Idempotency-Key: a money
// move's key (core/idempotency.ts), whose replayed answer says so in a header the client must read.
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'X-QA-World',
  'X-Request-Id',
  IDEMPOTENCY_KEY_HEADER,
];
// X-Request-Id and Retry-After: what a client logs with a failure, and when it may come back.
export const CORS_EXPOSED_HEADERS = [IDEMPOTENT_REPLAYED_HEADER, 'X-Request-Id', 'Retry-After'];

const CONTRACT_PATHS = new Set(procedureNames.map((name) => contract[name].path));
const API_PREFIXES = ['/trpc/', '/captcha/', WALLET_CHECK_STANDIN_PATH];

/** Whether a request path (query string included or not) is one a cross-origin client may call. */
export function isCrossOriginApiPath(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return (
    CONTRACT_PATHS.has(path) || path === '/trpc' || API_PREFIXES.some((prefix) => path.startsWith(prefix))
  );
}

export async function registerCors(app: FastifyInstance, origins: readonly string[]) {
  const allowed = new Set(origins);
  await app.register(fastifyCors, {
    delegator: (request, done) => {
      const origin = request.headers.origin;
      const allow = origin !== undefined && allowed.has(origin) && isCrossOriginApiPath(request.url);
      done(null, {
        // false: no CORS headers at all (the browser refuses the answer), and a preflight is a 404.
        origin: allow ? origin : false,
        methods: ['GET', 'POST'],
        allowedHeaders: CORS_ALLOWED_HEADERS,
        exposedHeaders: CORS_EXPOSED_HEADERS,
        credentials: false,
        maxAge: PREFLIGHT_MAX_AGE_SECONDS,
      });
    },
  });
}
