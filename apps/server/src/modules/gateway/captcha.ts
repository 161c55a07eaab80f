/**
 * The forgot-username captcha in gateway mode. A solution is checked by whoever answers
 * user.forgot_username, so the challenge must be signed by the same party: while that endpoint is
 * routed to the provider, GET /captcha/challenge is the provider's, passed through. A provider
 * without this stand-in extension (no challenge, or no JSON) gets the stand-in's own challenge,
 * which the form needs to be sent at all and which such a provider does not check.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../core/services.ts';
import { newChallenge } from '../auth/captcha.ts';
import { getFromProvider, parseAnswer } from './forward.ts';
import type { Gateway } from './gateway.ts';
import { JSON_TYPE } from '../../core/answer-headers.ts';

export const CAPTCHA_CHALLENGE_PATH = '/captcha/challenge';

export function registerGatewayCaptcha(app: FastifyInstance, services: Services, gateway: Gateway) {
  app.get(CAPTCHA_CHALLENGE_PATH, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (gateway.provider && gateway.routing.targetOf('user.forgot_username') === 'provider') {
      const answer = await getFromProvider(gateway.provider, CAPTCHA_CHALLENGE_PATH);
      if (answer?.status === 200 && parseAnswer(answer.text) !== undefined)
        return reply.type(JSON_TYPE).send(answer.text);
    }
    return newChallenge(services.config);
  });
}
