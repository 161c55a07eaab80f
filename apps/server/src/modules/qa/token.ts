/**
 * The QA token (QA_TOKEN): when the server has one, every /__qa call and every
 * X-QA-Fault header must present it in X-QA-Token. A dedicated header, not Authorization: that
 * one carries the member's JWT, and a QA call may need both.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from '../../core/errors.ts';

/** As Node exposes it (lower case); sent as `X-QA-Token`. */
export const QA_TOKEN_HEADER = 'x-qa-token';

export const QA_TOKEN_MESSAGES = {
  missing: 'QA control needs the QA token: send it in the X-QA-Token header (the server’s QA_TOKEN)',
  wrong: 'The X-QA-Token header does not match the server’s QA_TOKEN',
} as const;

// Both sides hashed first: equal lengths for timingSafeEqual, so neither the token's length nor
// how much of it a guess got right shows in the time taken.
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Who a QA call comes from, for quotas and the record of use (worlds, jobs): its address, as one
 * QA token is shared by every client of a server.
 */
export const qaClientOf = (request: Pick<FastifyRequest, 'ip'>) => request.ip;

/** Whether the request's X-QA-Token is `token`, compared in constant time. */
export function presentsQaToken(request: Pick<FastifyRequest, 'headers'>, token: string): boolean {
  const presented = request.headers[QA_TOKEN_HEADER];
  if (typeof presented !== 'string') return false;
  return timingSafeEqual(digest(presented), digest(token));
}

/**
 * Guards every route of `scope` (the /__qa routes): without the token the call answers 401
 * `{ Error }` before its body is read or anything runs.
 */
export function requireQaToken(scope: FastifyInstance, token: string) {
  scope.addHook('onRequest', async (request, reply) => {
    if (presentsQaToken(request, token)) return;
    const message =
      request.headers[QA_TOKEN_HEADER] === undefined ? QA_TOKEN_MESSAGES.missing : QA_TOKEN_MESSAGES.wrong;
    return sendError(reply, 401, message);
  });
}
