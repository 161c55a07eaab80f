/**
 * /docs: the contract as OpenAPI 3.1 (/docs/openapi.json) and Swagger UI to read it. Public, in
 * production too; the QA section only while QA control is on. The viewer's assets ship inside
 * @fastify/swagger-ui and are served from /docs/static, so the page needs no network.
 */
import type { FastifyInstance } from 'fastify';
import fastifySwagger, { type StaticDocumentSpec } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { ServerConfig } from '../../core/services.ts';
import { buildOpenApiDocument } from './openapi.ts';

export const DOCS_PREFIX = '/docs';
/** Whether a URL belongs to /docs (the web app's SPA fallback must leave those alone). */
export const isDocsUrl = (url: string) => url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`) || url.startsWith(`${DOCS_PREFIX}?`);

export async function registerDocs(app: FastifyInstance, config: Pick<ServerConfig, 'qaControl'>) {
  const document = buildOpenApiDocument({ qaControl: config.qaControl });
  // Encapsulated: the `swagger` decorator and the viewer's static files stay inside /docs.
  await app.register(async (docs) => {
    // Static mode: the document is ours (generated from the contract), not collected from routes.
    // The plugin's types stop at OpenAPI 3.0; static mode hands the object out as it is.
    await docs.register(fastifySwagger, { mode: 'static', specification: { document: document as unknown as StaticDocumentSpec['document'] } });
    await docs.register(fastifySwaggerUi, {
      routePrefix: DOCS_PREFIX,
      theme: { title: 'Member dashboard API' },
      uiConfig: { layout: 'BaseLayout', docExpansion: 'list', deepLinking: true, displayOperationId: true, filter: true, defaultModelsExpandDepth: 0 },
    });
    docs.get(`${DOCS_PREFIX}/openapi.json`, async () => document);
  });
}
