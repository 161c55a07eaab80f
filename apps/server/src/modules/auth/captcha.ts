/**
 * Self-hosted proof-of-work captcha (ALTCHA) for forgot_username: the server hands out
 * signed challenges at GET /captcha/challenge and verifies solved payloads. No third party.
 */
import type { FastifyInstance } from 'fastify';
import { createChallenge, verifySolution } from 'altcha-lib';
import type { Services } from '../../core/services.ts';

const CHALLENGE_TTL_MS = 10 * 60 * 1000;
/** Payloads already accepted (per app), so one solution is not replayed. Bounded and expiring. */
const used = new WeakMap<object, Map<string, number>>();

/** A challenge signed with this server's key (the provider gateway serves the provider's instead while it answers forgot_username). */
export const newChallenge = (config: Services['config']) =>
  // Real time, not the QA clock: altcha-lib checks expiry against Date.now().
  createChallenge({
    hmacKey: config.captchaHmacKey,
    maxNumber: config.captchaMaxNumber,
    expires: new Date(Date.now() + CHALLENGE_TTL_MS),
  });

export function registerCaptchaRoutes(app: FastifyInstance, services: Services) {
  app.get('/captcha/challenge', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return newChallenge(services.config);
  });
}

/** True for a valid, unexpired solution that was not accepted before. Never throws. */
export async function verifyCaptcha(
  config: Services['config'],
  payload: string | undefined,
): Promise<boolean> {
  if (!payload || payload.length > 4096) return false;
  let valid = false;
  try {
    valid = await verifySolution(payload, config.captchaHmacKey, true);
  } catch {
    return false;
  }
  if (!valid) return false;
  let seen = used.get(config);
  if (!seen) used.set(config, (seen = new Map()));
  const now = Date.now();
  for (const [key, at] of seen) if (now - at > CHALLENGE_TTL_MS) seen.delete(key);
  if (seen.has(payload)) return false;
  seen.set(payload, now);
  return true;
}
