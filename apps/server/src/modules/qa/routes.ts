/** QA control API under /__qa (DESIGN §5). */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../core/services.ts';

export function registerQaRoutes(_app: FastifyInstance, _services: Services) {}
