/**
 * The OpenAPI 3.1 document of the provider contract (DESIGN §3: generated from
 * packages/shared/src/contract.ts, never written per endpoint), plus the QA control API when it
 * is enabled. Served at /docs/openapi.json and shown at /docs.
 */
import { z } from 'zod';
import * as shared from '@md/shared';
import {
  contract,
  ERROR_CODES,
  errorCodes,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENT_REPLAYED_HEADER,
  MSG,
  procedureNames,
  type AuthMode,
  type ProcedureName,
} from '@md/shared';
import { QA_FAULT_HEADER, QA_ROUTES, QA_WORLD_HEADER, type QaRoute } from './qa-table.ts';
import { HEALTH_PATHS, HEALTH_TAG, HEALTH_TAG_DESCRIPTION } from './health-paths.ts';
import { firstCalls, type RecordedCall, type RecordedSession } from './example-session.ts';
import type { RecordedQaCall } from './qa-example-session.ts';
import { createSchemaConverter, type JsonSchema, type SchemaConverter } from './schemas.ts';

// The few OpenAPI 3.1 objects this document uses (openapi-types' 3.1 typings mix in 3.0 ones and do not compose).
interface Ref {
  $ref: string;
}
interface Server {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; enum?: string[] }>;
}
interface Tag {
  name: string;
  description?: string;
}
interface Media {
  schema: JsonSchema;
  example?: unknown;
}
type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  example?: unknown;
} & ({ schema: JsonSchema } | { content: Record<string, Media> });
type Responses = Record<
  string,
  Ref | { description: string; headers?: Record<string, unknown>; content?: Record<string, Media> }
>;
interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  /** [] = no authentication; `{}` among others: the call may go without that header (body token, or optional). */
  security: Record<string, string[]>[];
  servers?: Server[];
  parameters?: (Parameter | Ref)[];
  requestBody?: { required: boolean; description?: string; content: Record<string, Media> };
  responses: Responses;
  [extension: `x-${string}`]: unknown;
}
type Method = 'get' | 'post' | 'put' | 'delete';
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Server[];
  tags: Tag[];
  paths: Record<string, Partial<Record<Method, Operation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<
      string,
      { description: string; headers?: Record<string, unknown>; content: Record<string, Media> }
    >;
    parameters: Record<string, Parameter>;
    headers: Record<string, { description: string; schema: JsonSchema }>;
    securitySchemes: Record<string, SecurityScheme>;
  };
}
type SecurityScheme =
  | { type: 'http'; scheme: 'bearer'; bearerFormat: string; description: string }
  | { type: 'apiKey'; in: 'header'; name: string; description: string };

const JSON_TYPE = 'application/json';

/** One line per group of the contract (the first segment of its paths). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  user: 'Identity: sign-in, registration, passwords, TOTP, email and profile',
  user_analytics: 'Figures of the dashboard overview',
  direct: 'The members the caller sponsored',
  notification: 'The caller’s notifications',
  wallet: 'Wallets, swaps between them and the withdrawal address',
  table: 'The package list and the deposit history',
  subscription: 'Buying packages and their history',
  level: 'The sponsor downline (5 levels) and level income',
  transfer_to_user: 'P2P transfer to a member of the downline',
  withdraw: 'Withdrawal fees and requests',
  deposit: 'Deposit windows (on the deposit host)',
  binary: 'The binary tree and its volume',
  rank: 'Ranks, rank volume and rank rewards',
  earning: 'Earning and transfer history',
  support: 'Extension: Contact Support messages',
  activity: 'Extension: the recent account activity',
};
const QA_TAG = 'QA';

/** When the server has a QA_TOKEN: the scheme every QA call then requires. */
const QA_TOKEN_SCHEME: SecurityScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'X-QA-Token',
  description:
    'The server’s QA_TOKEN. Every /__qa call must send it (else 401 and nothing is done); an X-QA-Fault header on a contract call without it is ignored.',
};
const QA_UNAUTHORIZED = {
  name: 'QaUnauthorized',
  description: 'X-QA-Token missing or not the server’s QA_TOKEN: `{ Error }`, and the call did nothing.',
};

/**
 * Statuses the handlers answer besides 400, 401 and 5XX, read from the code: 403 from
 * profile/handlers.ts, 404 from network/handlers.ts, 429 from transport/rate-limit.ts's rules, the
 * 10-second reset throttle (auth/handlers.ts), the failure limits (core/attempts.ts) and the full
 * hashing queue (core/passwords.ts: every call that hashes a password). Keep in step when those change.
 */
const EXTRA_STATUSES: Partial<Record<ProcedureName, readonly number[]>> = {
  'user.login': [429],
  'user.view_country': [429],
  'user.check_username_available': [429],
  'user.verify_otp': [429],
  'user.register': [429],
  'user.reset_password_email': [429],
  'user.reset_password': [429],
  'user.forgot_username': [429],
  'user.change_password': [429],
  'user.change_totp_status': [429],
  'user.change_email_request': [403, 429],
  'user.change_email': [403, 429],
  // Wrong-code limits per account and address (core/attempts.ts).
  'user.verify_transaction_password': [429],
  'wallet.wallet_address_verification': [429],
  // The transaction password's failure limits, and the busy hashing queue.
  'user.reset_transaction_password': [429],
  transfer_to_user: [429],
  'withdraw.withdraw_request': [429],
  // An unknown TransID, or another member's (payouts/handlers.ts, withdrawals/timeline.ts).
  'earning.view_payout_details': [404],
  'withdraw.view_withdrawal_timeline': [404],
  'level.view_downline': [404],
  'level.view_downline_page': [404],
  'binary.view_binary_downline': [404],
  'binary.view_binary_downline_details': [404],
  'binary.view_path': [404],
  'support.send_message': [429],
  'user.logout': [429],
  'user.view_sessions': [429],
  'user.end_session': [429],
  'user.end_other_sessions': [429],
};

const STATUS_RESPONSES: Record<string, { name: string; description: string }> = {
  '400': {
    name: 'BadRequest',
    description:
      'Bad input, a refused rule or wrong credentials: `{ Error }` with a clear message, in the spec’s wording where it has one. Never 401 for a wrong password (the client signs out on 401).',
  },
  '401': {
    name: 'Unauthorized',
    description: `Token problem: \`{ "Error": "${MSG.invalidAuthentication}" }\` for a missing or forged token, \`{ "Error": "Session Expired" }\` for an expired or revoked one. The client drops the session and goes to the sign-in page.`,
  },
  '403': {
    name: 'Forbidden',
    description:
      'The action is refused for this member (e.g. an email change while a subscription is active).',
  },
  '404': {
    name: 'NotFound',
    description: 'The member or record is not there, or not within the caller’s downline.',
  },
  '409': {
    name: 'Conflict',
    description:
      'The record is no longer in a state that allows this (already paid, expired, already decided), or a money move with the same `Idempotency-Key` is still running (this call ran nothing: retry once it has been answered).',
  },
  '413': {
    name: 'PayloadTooLarge',
    description: 'The body is larger than this call takes: nothing was read or changed.',
  },
  '422': {
    name: 'IdempotencyKeyReused',
    description:
      'The `Idempotency-Key` was already used with other parameters (or another endpoint): nothing ran; send a new key for a new request.',
  },
  '429': {
    name: 'TooManyRequests',
    description:
      'Rate limit (per endpoint, client address and username), a failure limit (wrong passwords or codes), the 10-second reset throttle, or the server busy hashing passwords (`The server is busy. Please try again in a moment.`).',
  },
  '415': {
    name: 'UnsupportedMediaType',
    description: 'The body is not sent as `application/json`: nothing was read or changed.',
  },
  '503': {
    name: 'ServiceUnavailable',
    description:
      'The server cannot read or save data right now (a storage fault: disk full, read-only, a lost file): nothing changed; `Retry-After` says when to try again.',
  },
  '5XX': {
    name: 'ServerError',
    description: `Server fault: \`{ "Error": "${MSG.unexpectedError}" }\`. Outside production, an answer that breaks the contract is a 500 naming the field.`,
  },
};

const errorSchema: JsonSchema = {
  type: 'object',
  properties: {
    Error: { type: 'string', description: 'Human-readable message, shown to the member as is' },
    Code: {
      type: 'string',
      enum: errorCodes,
      description: `Extension of this stand-in: a stable code for the condition, to branch on instead of the words (which may change or be translated). The provider answers \`Error\` alone.\n\n${errorCodes.map((code) => `- \`${code}\` (${ERROR_CODES[code][0]}): ${ERROR_CODES[code][1]}`).join('\n')}`,
    },
  },
  required: ['Error'],
  description:
    'The provider’s failure envelope. This server always answers `Error` and `Code`; some calls of the real provider answer lowercase `error` or `message` instead (spec §8), and the client reads `Error`, then `error`, then `message`.',
};

/** Headers of every answer, and of the answers that say when to come back. */
const ANSWER_HEADERS: OpenApiDocument['components']['headers'] = {
  RequestId: {
    description:
      'The request’s id: the client’s own `X-Request-Id` when it sent one of 1–128 visible ASCII characters, else a new UUID. The server’s log line and the QA journal name it.',
    schema: { type: 'string' },
  },
  RetryAfter: {
    description: 'Seconds to wait before trying again (a 429’s window, a busy server, a storage fault).',
    schema: { type: 'integer', minimum: 1 },
  },
};
const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
const RETRY_STATUSES = new Set(['429', '503']);

const DESCRIPTION = `The provider API the member dashboard runs on, generated from the contract in \`packages/shared/src/contract.ts\` (spec §7): every endpoint with its path, host, input and output schemas. This server implements all of it as a stand-in for the provider.

## Conventions
- **Every provider call is \`POST\` with a JSON body**, on the API host, except \`/deposit/make_payment\`, which goes to the separate **deposit host**. The web app reads both base URLs from its runtime config \`/config.json\` (\`apiBaseUrl\`, \`depositBaseUrl\`); this server answers both on its own origin. In this document the deposit host is the server variable \`depositBaseUrl\` (default: this server’s public origin, \`PUBLIC_URL\` or \`http://localhost:PORT\`): set it to the deposit origin.
- **Envelopes**: success is \`{ "Success": ... }\` (the whole envelope is the payload, e.g. \`{ Success, JWT }\` for login, \`{ Status, Success }\` for the username check); failure is \`{ "Error": "message" }\` with a 4xx/5xx status. Some calls of the real provider answer lowercase \`error\` or \`message\`; the client reads those too, and treats a 2xx that carries \`Error\` or \`error\` as a failure.
- **Field names are the provider’s, misspellings included** (\`Direct_Bouns\`, \`Left_Volune\`). Sides are the strings \`"0"\` (left) and \`"1"\` (right). Amounts are USDT numbers with up to 6 decimals, shown truncated to 2.
- **Authentication**: a bearer JWT (from \`/user/login\` or \`/user/register\`) in the \`Authorization\` header, or the token in the body field the endpoint names (\`x-token-field\`: \`jwt\`, or \`token\` for \`/notification/total_view_notification\`); the header wins when both are present. OpenAPI cannot declare a body field as a security scheme, so those operations list the bearer scheme and the empty requirement \`{}\` as alternatives (a call with the token in the body and no header is valid); without a token in either place the answer is 401. HTTP 401 \`Invalid Authentication\` for a missing or forged token, \`Session Expired\` for an expired or revoked one; the client signs out on any 401.
- **Errors**: bad input never gives a 500: it is a 400 with a clear \`Error\` in the spec’s wording (wrong credentials are 400 too, never 401); 403 refused action, 404 outside the caller’s downline, 429 rate limit or throttle. A body field the call does not take is a 400 naming it (\`Received unknown field 'pagesize'\`). Every error body this server makes carries a stable \`Code\` (the \`Error\` schema lists them): branch on it, not on the words. 429 and 503 carry \`Retry-After\` (seconds); another method than POST on a contract path is a 405 with \`Allow: POST\`.\n- **Tracing**: every answer carries \`X-Request-Id\`, the client's own when it sent one (1–128 visible ASCII characters); the server's log line and the QA journal name it.
- **tRPC**: each endpoint is also the tRPC procedure named after its path (\`/user/login\` ↔ \`user.login\`, in \`x-trpc-procedure\`) at \`/trpc\`: a \`query\` is \`GET /trpc/<name>?input=<JSON>\`, a \`mutation\` is \`POST /trpc/<name>\` (\`x-trpc-kind\`). Both transports run the same handler and give the same messages.
- **Shapes the spec does not show** are defined by the contract and documented in the schemas’ descriptions; the client also accepts the variants the spec mentions (e.g. the binary \`Downline\` as a list of \`{ Username, Side }\` or a map side → username).
- **Extensions** (fields or endpoints the provider lacks, e.g. the forgot-username \`captcha\`, binary \`Sponsor\`/\`Status\`) are optional, advertised in \`/config.json\` \`capabilities\`, with the spec’s behaviour as the fallback.
- **Idempotency keys** (capability \`idempotency_keys\`): every money move (\`x-idempotent\`: a purchase, a swap, a P2P transfer, a withdrawal request, a deposit payment request) accepts an \`Idempotency-Key\` header of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters (a UUID per intent), scoped to the token's member. The first answer is stored in the move's own transaction for at least 24 hours on the server clock; the same key with the same parameters is answered with it again, with \`Idempotent-Replayed: true\`, and moves nothing; with other parameters it is a 422; while the first call still runs, a second is a 409 and runs nothing. Refusals move nothing and are not stored. Without a key, a purchase of the same package within 10 seconds is answered as the first one and says so with \`Idempotent-Replayed: true\`. Send a keyed call alone, not in a tRPC batch with another money move.
- **Paged tables** call a list endpoint (\`Success\`: rows) and its total endpoint (\`Success\`: page count, at least 1) with \`{ pageNo, pageSize, path, search: [text], start_date, end_date, filters }\`. Extension (capability \`cursor_paging\`): a list answers \`Next_Cursor\`, sent back as \`cursor\` instead of \`pageNo\` for the next page, so a reader of every page sees each row once while rows arrive; a total answers \`Rows\` too.

## Interpretations of the spec’s gaps
- Registration: step 1 submits the form to \`/user/verify_otp\` (page \`Email Verification\`, no \`otp\`), which mails a 6-digit OTP; step 2 calls \`/user/register\` with the otp.
- \`/user/verify_otp\` is the generic OTP sender/verifier by \`page\`: without \`otp\` it sends, with \`otp\` it verifies. \`change_email_request\`, \`reset_password_email\`, \`reset_transaction_password\` and \`update_wallet_address\` send; their partner endpoint verifies.
- \`/user/check_username_available\`: \`Status: true\` means the name is free; a sponsor is valid when it exists (\`Status: false\`).
- \`/user/view_country\`: with a \`username\`, \`Success\` is a boolean (TOTP enabled for that name); without one, \`Success\` is the country list.
- \`/level/downline_exist\`: \`Success: true\` when the username is in the caller’s sponsor downline (the P2P recipient check).
- \`/table/view_subscription\` is the package list.
- Email change: step 0 takes the address that is to become current and mails an OTP to it; step 1 takes the OTP; only members with no active subscription may change it.`;

/** '/user/login' → '/__qa/totp/{username}' style: OpenAPI writes path parameters in braces. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const tagOf = (path: string) => path.split('/')[1] ?? path;
/** Summaries are plain text in viewers (descriptions are Markdown): first sentence, no backticks. */
const firstSentence = (text: string) => (/^(.*?[.!?])(\s|$)/.exec(text)?.[1] ?? text).replaceAll('`', '');
const IDEMPOTENT_NOTE = `\n\n**A money move**: accepts an \`${IDEMPOTENCY_KEY_HEADER}\` header; a retry with it is answered from the store with \`${IDEMPOTENT_REPLAYED_HEADER}: true\` and moves nothing (409 while the first call runs, 422 for the key with other parameters).`;
const errorRef = (status: string): Ref => ({
  $ref: `#/components/responses/${STATUS_RESPONSES[status]?.name}`,
});

const RETRY_NAMES = new Set(
  Object.entries(STATUS_RESPONSES)
    .filter(([status]) => RETRY_STATUSES.has(status))
    .map(([, { name }]) => name),
);

function errorResponses(statuses: readonly number[]): Responses {
  const all = [...new Set(['400', ...statuses.map(String), '5XX'])];
  return Object.fromEntries(all.sort().map((status) => [status, errorRef(status)]));
}

/** Schema names: every zod schema @md/shared exports as `…Schema` (or `tableInput`), e.g. nodeDetailsSchema → NodeDetails. */
function sharedSchemaNames(): Map<z.core.$ZodType, string> {
  const names = new Map<z.core.$ZodType, string>();
  for (const [key, value] of Object.entries(shared)) {
    if (!(value instanceof z.ZodType) || !/(Schema|Input)$/.test(key)) continue;
    const base = key.replace(/Schema$/, '').replace(/Input$/, 'Request');
    names.set(value, base.charAt(0).toUpperCase() + base.slice(1));
  }
  return names;
}

const hasRequired = (schema: JsonSchema) => Array.isArray(schema.required) && schema.required.length > 0;

/**
 * OpenAPI has no security scheme for a body field, so the body token (`jwt`/`token`) is the empty
 * alternative `{}`: a validator (Prism, Postman) then lets a call through without the header, as the
 * server does when the body carries the token. Required vs optional is in `x-auth` and the text.
 */
const BODY_TOKEN_NOTE =
  'in this document the empty security requirement `{}`: OpenAPI cannot name a body field as a security scheme';

function securityOf(auth: AuthMode, tokenField: string | undefined): Operation['security'] {
  if (auth === 'none') return [];
  if (auth === 'optional') return [{}, { bearerAuth: [] }];
  return tokenField ? [{ bearerAuth: [] }, {}] : [{ bearerAuth: [] }];
}

function contractOperation(
  name: ProcedureName,
  schemas: SchemaConverter,
  qaControl: boolean,
  origin: string,
  rateLimited: boolean,
  recorded: RecordedCall | undefined,
): Operation {
  const entry = contract[name];
  const input = schemas.convert(entry.input, 'input');
  const output = schemas.convert(entry.output, 'output');
  const tokenField = 'tokenField' in entry ? entry.tokenField : undefined;
  const auth =
    entry.auth === 'none'
      ? 'No authentication.'
      : `${entry.auth === 'required' ? 'Requires' : 'Uses, when present,'} the session token: bearer header${tokenField ? ` or \`${tokenField}\` in the body (${BODY_TOKEN_NOTE})` : ''}.${entry.auth === 'required' ? ' Without a token in either place the answer is 401.' : ''}`;
  const host =
    entry.host === 'deposit' ? ' Lives on the **deposit host** (`depositBaseUrl`), not the API host.' : '';
  const extension = 'extension' in entry ? entry.extension : undefined;
  const extensionNote = extension
    ? `\n\n**Extension of this stand-in, not a provider endpoint**: the client calls it only when \`/config.json\` lists the capability \`${extension}\`.`
    : '';
  const security = securityOf(entry.auth, tokenField);
  const idempotent = 'idempotent' in entry && entry.idempotent === true;
  const statuses = [
    ...(entry.auth === 'none' ? [] : [401]),
    ...(EXTRA_STATUSES[name] ?? []),
    ...(rateLimited ? [429] : []),
    ...(idempotent ? [409, 422] : []),
    // Any call: a body over the limit, one not sent as JSON, a storage fault.
    413,
    415,
    503,
  ];
  const parameters: Ref[] = [
    ...(idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ...(qaControl
      ? [{ $ref: '#/components/parameters/QaFault' }, { $ref: '#/components/parameters/QaWorld' }]
      : []),
  ];
  return {
    operationId: name,
    tags: [tagOf(entry.path)],
    summary: firstSentence(entry.summary),
    description: `${entry.summary}\n\n${auth}${host}${extensionNote}${idempotent ? IDEMPOTENT_NOTE : ''}\n\ntRPC: \`${name}\` (${entry.kind}).`,
    security,
    ...(entry.host === 'deposit' ? { servers: [depositServer(origin)] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    requestBody: {
      required: hasRequired(input),
      content: { [JSON_TYPE]: { schema: input, ...(recorded ? { example: recorded.request } : {}) } },
    },
    responses: {
      '200': {
        description: 'Success envelope',
        headers: {
          ...requestIdHeader,
          ...(idempotent
            ? {
                [IDEMPOTENT_REPLAYED_HEADER]: {
                  description:
                    '`true` when this is the stored answer of an earlier call (the same Idempotency-Key, or a repeated purchase within 10 seconds): nothing moved this time; `false` when this call moved the money.',
                  schema: { type: 'string', enum: ['true', 'false'] },
                },
              }
            : {}),
        },
        content: { [JSON_TYPE]: { schema: output, ...(recorded ? { example: recorded.response } : {}) } },
      },
      ...errorResponses(statuses),
    },
    // Who made the examples' call in the demo world (its bearer token's member): docs/api.md, "Examples".
    ...(recorded ? { 'x-example-as': recorded.as } : {}),
    // The call the example needs first (it mails the code the example confirms), as the session made it.
    ...(recorded?.after ? { 'x-example-after': recorded.after } : {}),
    ...(idempotent ? { 'x-idempotent': true } : {}),
    'x-trpc-procedure': name,
    'x-trpc-kind': entry.kind,
    'x-host': entry.host,
    'x-auth': entry.auth,
    ...(tokenField ? { 'x-token-field': tokenField } : {}),
    ...(extension ? { 'x-extension': extension } : {}),
  };
}

function queryParameters(
  query: z.ZodObject | undefined,
  schemas: SchemaConverter,
  examples: Record<string, string> = {},
): Parameter[] {
  if (!query) return [];
  return Object.entries(query.shape).map(([name, field]) => {
    const schema = schemas.convert(field as z.ZodType, 'input');
    const { description, ...rest } = schema;
    return {
      name,
      in: 'query' as const,
      required: !(field as z.ZodType).safeParse(undefined).success,
      schema: rest,
      ...(description ? { description } : {}),
      // A query's text as the schema types it (a recorded `limit=3` is the integer 3).
      ...(examples[name] !== undefined
        ? {
            example:
              rest.type === 'integer' || rest.type === 'number' ? Number(examples[name]) : examples[name],
          }
        : {}),
    };
  });
}

/** What a world file is served as (modules/worlds/world-file.ts). */
const WORLD_FILE_TYPE = 'application/vnd.sqlite3';

function qaOperation(
  route: QaRoute,
  schemas: SchemaConverter,
  qaToken: boolean,
  recorded: RecordedQaCall | undefined,
): Operation {
  const params: Parameter[] = Object.entries(route.params ?? {}).map(([name, { description }]) => ({
    name,
    in: 'path',
    required: true,
    description,
    schema: { type: 'string' },
    ...(recorded?.params[name] !== undefined ? { example: recorded.params[name] } : {}),
  }));
  // The recorded answer, on the status it came with (the success, or 202 for a job).
  const answered = (status: number) =>
    recorded?.status === status && recorded.response !== undefined ? { example: recorded.response } : {};
  const body = route.body ? schemas.convert(route.body, 'input') : undefined;
  const worldFile = { type: 'string', contentMediaType: WORLD_FILE_TYPE } as const;
  return {
    operationId: `qa.${route.method.toLowerCase()}.${route.path.replace(/^\/__qa\//, '').replace(/[/:]+/g, '.')}`,
    tags: [QA_TAG],
    summary: route.summary,
    description: route.description,
    security: qaToken ? [{ qaToken: [] }] : [],
    parameters: [...params, ...queryParameters(route.query, schemas, recorded?.query)],
    ...(route.worldFile === 'body'
      ? {
          requestBody: {
            required: true,
            description: 'A world file, as GET /__qa/worlds/{id}/export answers it',
            content: {
              'application/octet-stream': { schema: worldFile },
              [WORLD_FILE_TYPE]: { schema: worldFile },
            },
          },
        }
      : {}),
    ...(body
      ? {
          requestBody: {
            required: hasRequired(body),
            content: {
              [JSON_TYPE]: {
                schema: body,
                ...(recorded?.request === undefined ? {} : { example: recorded.request }),
              },
            },
          },
        }
      : {}),
    responses: {
      [String(route.status ?? 200)]:
        route.status === 303
          ? {
              description: 'Redirect to the app (Location: /), with the qa_world cookie set or cleared',
              headers: {
                Location: { schema: { type: 'string' } },
                'Set-Cookie': { schema: { type: 'string' } },
              },
            }
          : route.worldFile === 'answer'
            ? {
                description: 'The world file (a SQLite database), as an attachment',
                headers: { 'Content-Disposition': { schema: { type: 'string' } } },
                content: { [WORLD_FILE_TYPE]: { schema: worldFile } },
              }
            : {
                description: 'Plain JSON (not the provider envelope)',
                content: {
                  [JSON_TYPE]: {
                    schema: schemas.convert(route.response, 'output'),
                    ...answered(route.status ?? 200),
                  },
                },
              },
      ...(route.accepted
        ? {
            '202': {
              description: 'Still working: the job (GET its url for state and progress)',
              headers: { Location: { schema: { type: 'string' }, description: 'The job’s url' } },
              content: {
                [JSON_TYPE]: { schema: schemas.convert(route.accepted, 'output'), ...answered(202) },
              },
            },
          }
        : {}),
      ...errorResponses(route.errors ?? []),
      ...(qaToken ? { '401': { $ref: `#/components/responses/${QA_UNAUTHORIZED.name}` } } : {}),
    },
  };
}

/**
 * Hosts. The API host is first this server, relative to the document (what /docs' "Try it out"
 * calls), then any origin as a variable. The deposit host is an absolute URL with a variable only:
 * an operation's relative `/` server made generated clients call `http:////deposit/make_payment`.
 */
// The variables default to this server's public origin (PUBLIC_URL, else http://localhost:PORT):
// the viewer's Content-Security-Policy lets "Try it out" call only its own origin, and generated
// collections call the port the server listens on.
// The variables carry no `description`: the OpenAPI 3.1 JSON schema swagger-parser validates
// against misspells that field (`descriptions`) and refuses it. The server's description says it.
const apiServers = (origin: string): Server[] => [
  { url: '/', description: 'API host: this server (the stand-in), relative to this document' },
  {
    url: '{apiBaseUrl}',
    description: `API host at another origin (apiBaseUrl in /config.json, e.g. the real provider); the variable defaults to ${origin}, this server`,
    variables: { apiBaseUrl: { default: origin } },
  },
];
const depositServer = (origin: string): Server => ({
  url: '{depositBaseUrl}',
  description: `Deposit host (depositBaseUrl in /config.json; this server’s own origin when that is empty, as in stand-in mode); the variable defaults to ${origin}, this server`,
  variables: { depositBaseUrl: { default: origin } },
});

export interface DocumentOptions {
  /** Include the QA control API (only when it is enabled). */
  qaControl: boolean;
  /** The QA calls require X-QA-Token (the server has a QA_TOKEN). */
  qaToken?: boolean;
  /** This server's public origin (config.publicUrl): the default of the host variables. */
  origin: string;
  /** The calls under a rate limit (transport/rate-limit.ts): a 429 each, besides EXTRA_STATUSES'. */
  rateLimited?: readonly ProcedureName[];
  /** The example session the build recorded (example-session.ts): each operation's first call is its example. */
  examples?: RecordedSession | null;
}

// The document depends only on the contract, the QA switches, the origin and the recording: built once per variant (~50 ms).
const built = new Map<string, OpenApiDocument>();

export function buildOpenApiDocument({
  qaControl,
  qaToken = false,
  origin,
  rateLimited = [],
  examples = null,
}: DocumentOptions): OpenApiDocument {
  const key = `${qaControl}:${qaControl && qaToken}:${origin}:${rateLimited.join(',')}:${examples?.at ?? ''}`;
  let document = built.get(key);
  if (!document)
    built.set(
      key,
      (document = generate(
        qaControl,
        qaControl && qaToken,
        new URL(origin).origin,
        new Set(rateLimited),
        firstCalls(examples?.calls ?? [], (call) => call.name),
        firstCalls(examples?.qa ?? [], (call) => `${call.method} ${call.path}`),
      )),
    );
  return document;
}

function generate(
  qaControl: boolean,
  qaToken: boolean,
  origin: string,
  rateLimited: ReadonlySet<ProcedureName>,
  examples: ReadonlyMap<ProcedureName, RecordedCall>,
  qaExamples: ReadonlyMap<string, RecordedQaCall>,
): OpenApiDocument {
  const schemas = createSchemaConverter(sharedSchemaNames());
  const paths: OpenApiDocument['paths'] = {};
  for (const name of procedureNames)
    paths[contract[name].path] = {
      post: contractOperation(name, schemas, qaControl, origin, rateLimited.has(name), examples.get(name)),
    };
  Object.assign(paths, HEALTH_PATHS);
  if (qaControl) {
    for (const route of QA_ROUTES) {
      const path = openApiPath(route.path);
      const method = route.method.toLowerCase() as Method;
      paths[path] = {
        ...paths[path],
        [method]: qaOperation(route, schemas, qaToken, qaExamples.get(`${route.method} ${route.path}`)),
      };
    }
  }
  const parameters: OpenApiDocument['components']['parameters'] = {
    IdempotencyKey: {
      name: IDEMPOTENCY_KEY_HEADER,
      in: 'header',
      required: false,
      description: `Names one money move (capability \`idempotency_keys\`): a retry with the same key and parameters is answered with the first answer (\`${IDEMPOTENT_REPLAYED_HEADER}: true\`) and moves nothing. 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters, e.g. a UUID made when the member confirms.`,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
    },
  };
  if (qaControl) {
    const { name, description, schema } = QA_FAULT_HEADER;
    // A plain string whose JSON shape is the QaFaultRule component: with `content` (or
    // contentMediaType) Swagger UI prefills an example (or a file picker) into "Try it out" and
    // would send a fault with every call.
    schemas.components.QaFaultRule = schemas.convert(schema, 'input');
    parameters.QaFault = {
      name,
      in: 'header',
      required: false,
      description: `${description} Shape: the QaFaultRule schema.${qaToken ? ' This server has a QA_TOKEN: the header counts only with X-QA-Token, and is ignored without it.' : ''}`,
      schema: { type: 'string', 'x-content-schema': { $ref: '#/components/schemas/QaFaultRule' } },
    };
    parameters.QaWorld = {
      name: QA_WORLD_HEADER.name,
      in: 'header',
      required: false,
      description: QA_WORLD_HEADER.description,
      schema: { type: 'string' },
    };
  }
  const tags = [...new Set(procedureNames.map((name) => tagOf(contract[name].path)))].map((name): Tag => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `The \`/${name}\` endpoints`,
  }));
  tags.push({ name: HEALTH_TAG, description: HEALTH_TAG_DESCRIPTION });
  if (qaControl)
    tags.push({
      name: QA_TAG,
      description: `QA control API (\`/__qa\`, DESIGN §5): only while QA control is enabled (\`QA_CONTROL\`, off in production). Plain JSON in and out; errors are \`{ Error }\`.${qaToken ? ' Every call requires the X-QA-Token header (the server’s QA_TOKEN).' : ''}`,
    });

  // Only the responses some operation names (409 is QA's alone): linters flag unused components.
  const usedResponses = new Set(
    [...JSON.stringify(paths).matchAll(/#\/components\/responses\/(\w+)/g)].map((match) => match[1]),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Member dashboard provider API', version: '1.0.0', description: DESCRIPTION },
    servers: apiServers(origin),
    tags,
    paths,
    components: {
      schemas: { Error: errorSchema, ...schemas.components },
      responses: Object.fromEntries(
        [...Object.values(STATUS_RESPONSES), ...(qaToken ? [QA_UNAUTHORIZED] : [])]
          .filter(({ name }) => usedResponses.has(name))
          .map(({ name, description }) => [
            name,
            {
              description,
              headers: {
                ...requestIdHeader,
                ...(RETRY_NAMES.has(name)
                  ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } }
                  : {}),
              },
              content: { [JSON_TYPE]: { schema: { $ref: '#/components/schemas/Error' } } },
            },
          ]),
      ),
      parameters,
      headers: ANSWER_HEADERS,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'The JWT from /user/login or /user/register. The provider also reads it from the body field in `x-token-field` (`jwt` or `token`); the header wins. OpenAPI has no scheme for a body field: the operations that take one list the empty requirement `{}` as the alternative to this header.',
        },
        ...(qaToken ? { qaToken: QA_TOKEN_SCHEME } : {}),
      },
    },
  };
}
