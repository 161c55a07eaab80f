/**
 * The operators' endpoints in the OpenAPI document: GET /healthz and GET /readyz (core/health.ts,
 * served by app.ts in every deployment role, never behind QA control or a token).
 */
import type { JsonSchema } from './schemas.ts';

export const HEALTH_TAG = 'operations';
export const HEALTH_TAG_DESCRIPTION =
  'Liveness and readiness for operators and orchestrators (no authentication, no secrets in the answers)';

const check: JsonSchema = {
  type: 'object',
  required: ['ok', 'detail'],
  properties: {
    ok: { type: 'boolean' },
    detail: { type: 'string', description: 'What was found (file names, codes; never a path or a secret)' },
  },
};
const CHECKS = ['file', 'database', 'disk', 'lastFault', 'runs'] as const;
const readiness: JsonSchema = {
  type: 'object',
  required: ['status', 'ready', 'reasons', 'checks'],
  properties: {
    status: { type: 'string', enum: ['ready', 'not ready'] },
    ready: { type: 'boolean' },
    reasons: {
      type: 'array',
      items: { type: 'string' },
      description: 'One line per failing check, `<check>: <detail>`',
    },
    checks: {
      type: 'object',
      required: [...CHECKS],
      properties: Object.fromEntries(CHECKS.map((name) => [name, check])),
    },
  },
};
const readyExample = {
  status: 'ready',
  ready: true,
  reasons: [],
  checks: {
    file: { ok: true, detail: 'the file opened, writable' },
    database: { ok: true, detail: 'writable' },
    disk: { ok: true, detail: '20480.0 MB free' },
    lastFault: { ok: true, detail: 'none' },
    runs: { ok: true, detail: 'last run: ranks for 2026-11-20, done' },
  },
};
const notReadyExample = {
  ...readyExample,
  status: 'not ready',
  ready: false,
  reasons: ['file: app.sqlite was deleted while the server had it open: what is written now would be lost'],
  checks: {
    ...readyExample.checks,
    file: {
      ok: false,
      detail: 'app.sqlite was deleted while the server had it open: what is written now would be lost',
    },
  },
};

const json = (schema: JsonSchema, example: unknown) => ({ 'application/json': { schema, example } });

export const HEALTH_PATHS = {
  '/healthz': {
    get: {
      operationId: 'operations.healthz',
      tags: [HEALTH_TAG],
      summary: 'Liveness: the process answers',
      description:
        'Answers 200 while the process runs, whatever the state of its database (that is /readyz).',
      security: [],
      responses: {
        '200': {
          description: 'Alive',
          content: json(
            {
              type: 'object',
              required: ['status', 'uptimeSeconds'],
              properties: {
                status: { type: 'string', enum: ['alive'] },
                uptimeSeconds: { type: 'integer', minimum: 0 },
              },
            },
            { status: 'alive', uptimeSeconds: 3600 },
          ),
        },
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'operations.readyz',
      tags: [HEALTH_TAG],
      summary:
        'Readiness: the database is the one opened and writable, the disk has room, no recent storage fault, the daily runs are not failing',
      description:
        'Answers 200 when every check holds, 503 with the reasons otherwise. A change of answer is logged once.',
      security: [],
      responses: {
        '200': { description: 'Ready', content: json(readiness, readyExample) },
        '503': { description: 'Not ready: `reasons` says why', content: json(readiness, notReadyExample) },
      },
    },
  },
};
