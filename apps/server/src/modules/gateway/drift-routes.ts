/**
 * The QA routes of drift detection: GET /__qa/drift lists what the provider answered
 * that the contract does not describe, DELETE /__qa/drift forgets it. Registered in the /__qa
 * scope, so the QA token guards them like every other QA call.
 */
import type { FastifyInstance } from 'fastify';
import type { DriftStore } from './drift.ts';

export function registerDriftRoutes(app: FastifyInstance, store: DriftStore) {
  app.get('/__qa/drift', async () => store.list());
  app.delete('/__qa/drift', async () => ({ deleted: store.clear() }));
}
