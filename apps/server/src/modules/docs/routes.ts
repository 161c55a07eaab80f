/**
 * /docs: the contract as OpenAPI 3.1 (/docs/openapi.json) and Swagger UI to read it. Public, in
 * production too; the QA section only while QA control is on. The viewer's assets ship inside
 * @fastify/swagger-ui and are served from /docs/static, so the page needs no network.
 */
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import type { ProcedureName } from '@md/shared';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { DOCS_DIRECTIVES } from '../../core/security-headers.ts';
import type { ServerConfig } from '../../core/services.ts';
import type { RecordedSession } from './example-session.ts';
import { buildOpenApiDocument } from './openapi.ts';

export const DOCS_PREFIX = '/docs';
/** Whether a URL belongs to /docs (the web app's SPA fallback must leave those alone). */
export const isDocsUrl = (url: string) =>
  url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`) || url.startsWith(`${DOCS_PREFIX}?`);

// Phones: long paths in code spans wrap instead of widening the page; the operation id (the tRPC
// name, also in each description) and the empty Links column give their room to the rest.
const THEME_CSS = `.swagger-ui .markdown code, .swagger-ui .renderedMarkdown code { overflow-wrap: anywhere; }
@media (max-width: 600px) { .swagger-ui .opblock .opblock-summary-operation-id, .swagger-ui .response-col_links { display: none; } }`;

/** `qaToken`: whether /__qa asks for X-QA-Token (QA_TOKEN); the document then says so on each QA call. */
export async function registerDocs(
  app: FastifyInstance,
  config: Pick<ServerConfig, 'qaControl' | 'publicUrl'> & {
    qaToken?: boolean;
    /** The calls under a rate limit (transport/rate-limit.ts): each documents its 429. */
    rateLimited?: readonly ProcedureName[];
    /** The build's recording of the example session (src/openapi-examples.ts); null: no examples. */
    examplesFile?: string | null;
  },
) {
  let examples: RecordedSession | null | undefined;
  // Read once, on the document's first request: a build without the recording (npm run dev) documents no examples.
  const recorded = () => {
    if (examples === undefined) {
      examples = null;
      if (config.examplesFile)
        try {
          const read = JSON.parse(readFileSync(config.examplesFile, 'utf8')) as RecordedSession;
          if (!Array.isArray(read.calls))
            throw Object.assign(new Error('not a recording'), { code: 'EFORMAT' });
          examples = read;
        } catch (error) {
          app.log.warn(
            { file: config.examplesFile, code: (error as NodeJS.ErrnoException).code },
            'No recorded examples for the OpenAPI document (npm run build records them)',
          );
        }
    }
    return examples;
  };
  // Built on first request (tens of ms) rather than at every start; memoized.
  const document = () =>
    buildOpenApiDocument({
      qaControl: config.qaControl,
      qaToken: config.qaToken ?? false,
      origin: config.publicUrl,
      rateLimited: config.rateLimited ?? [],
      examples: recorded(),
    });
  // Encapsulated: the `swagger` decorator and the viewer's static files stay inside /docs.
  await app.register(async (docs) => {
    // The viewer's page has no viewport meta, so phones would lay it out 980 px wide: add one
    // (before the plugins, so their routes inherit the hook).
    docs.addHook('onSend', async (request, _reply, payload) => {
      const path = request.url.split('?')[0];
      if ((path !== DOCS_PREFIX && path !== `${DOCS_PREFIX}/`) || typeof payload !== 'string') return payload;
      return payload.replace(
        '<meta charset="UTF-8">',
        '<meta charset="UTF-8">\n      <meta name="viewport" content="width=device-width, initial-scale=1">',
      );
    });
    // The viewer requires @fastify/swagger; in static mode it collects nothing from the routes. What
    // the viewer loads (/docs/json) is our generated document, through transformSpecification.
    await docs.register(fastifySwagger, {
      mode: 'static',
      specification: {
        document: {
          openapi: '3.1.0',
          info: { title: 'Member dashboard provider API', version: '1.0.0' },
          paths: {},
        },
      },
    });
    await docs.register(fastifySwaggerUi, {
      routePrefix: DOCS_PREFIX,
      transformSpecificationClone: false,
      transformSpecification: () => document(),
      // The viewer's own Content-Security-Policy, in place of the web app's.
      staticCSP: DOCS_DIRECTIVES,
      theme: { title: 'Member dashboard API', css: [{ filename: 'docs.css', content: THEME_CSS }] },
      uiConfig: {
        layout: 'BaseLayout',
        docExpansion: 'list',
        deepLinking: true,
        displayOperationId: true,
        filter: true,
        defaultModelsExpandDepth: 0,
      },
    });
    docs.get(`${DOCS_PREFIX}/openapi.json`, async () => document());
  });
}
