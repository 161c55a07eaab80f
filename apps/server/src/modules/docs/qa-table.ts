/**
 * The QA control API (DESIGN §5, docs/qa-control.md) as a table for the OpenAPI document.
 * These are plain Fastify routes, not contract entries, so their shapes are written here from the
 * route code (modules/qa/*.ts): the QA module's own zod schemas where it exports them, and
 * `shaped<T>()` to make the compiler hold a schema to the type a route returns.
 */
import { z } from 'zod';
import { DEPOSIT_STATUSES } from '@md/db';
import { moneyAmount, procedureNames, worldStateSchema, type ProcedureName } from '@md/shared';
import type { currentTotp } from '../../core/totp.ts';
import type { ScenarioInfo } from '../../seed/index.ts';
import type { depositView } from '../deposits/deposits.ts';
import type { JobRun } from '../jobs/index.ts';
import type { DriftEntry } from '../gateway/drift.ts';
import type { RecordingInfo } from '../gateway/recordings.ts';
import { recordingBody } from '../gateway/routes.ts';
import { routingInput, type RoutingView } from '../gateway/routing.ts';
import type { LedgerCheck } from '../ledger/ledger.ts';
import { headerRuleInput, ruleInput, type ruleView } from '../qa/faults.ts';
import type { JournalEntry } from '../qa/journal.ts';
import { rejectBody } from '../qa/money-routes.ts';
import { exampleCodesBody, type nextRuns } from '../qa/routes.ts';
import { EXAMPLE_CODE } from '../../core/example-codes.ts';
import { SNAPSHOT_NAME, type SnapshotInfo } from '../qa/snapshots.ts';
import type { withdrawalView } from '../withdrawals/withdrawals.ts';
import type { PushView } from '../push/push.ts';
import type { WorldEvent, WorldInfo } from '../worlds/registry.ts';
import { MAX_WAIT_SECONDS, type JobView } from '../../core/jobs.ts';
import { worldCreateInput, worldImportQuery } from '../worlds/routes.ts';
import { WORLD_FILE_MAX_BYTES } from '../worlds/world-file.ts';

export interface QaRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify form (`:param`); the document turns it into `{param}`. */
  path: string;
  summary: string;
  /** What the call does and when to use it (every QA operation has one). */
  description: string;
  /** Path parameters: what each is (the document's examples are recorded: qa-example-session.ts). */
  params?: Record<string, { description: string }>;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  /** Success status when not 200 (303: a redirect with no body; `response` is then unused). */
  status?: 201 | 303;
  /** The call may answer 202 with this job instead (core/jobs.ts). */
  accepted?: z.ZodType;
  /** Error statuses besides 400 and 5XX. */
  errors?: readonly number[];
  /** A world file (modules/worlds/world-file.ts) is the request's body, or the answer. */
  worldFile?: 'body' | 'answer';
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The schema, checked at compile time to describe exactly `T` (what the route returns). */
const shaped =
  <T>() =>
  <S extends z.ZodType>(
    schema: S & (Same<z.output<S>, T> extends true ? unknown : { __mismatch: z.output<S> }),
  ) =>
    schema;

const isoDateTime = z.string().describe('ISO-8601 date-time');
const notObject = 'The body must be a JSON object';

const depositSchema = shaped<ReturnType<typeof depositView>>()(
  z.object({
    id: z.number(),
    TransID: z.string(),
    username: z.string().optional().describe('Present in lists'),
    amount: z.number().describe('USDT asked for'),
    paidAmount: z.number().describe('USDT reported paid'),
    currency: z.string(),
    address: z.string(),
    status: z.enum(DEPOSIT_STATUSES),
    createdAt: isoDateTime,
    expiresAt: isoDateTime,
    paidAt: isoDateTime.nullable(),
  }),
);
const withdrawalSchema = shaped<ReturnType<typeof withdrawalView>>()(
  z.object({
    id: z.number(),
    TransID: z.string(),
    username: z.string().optional().describe('Present in lists'),
    amount: z.number(),
    fee: z.number(),
    netAmount: z.number(),
    address: z.string(),
    status: z.enum(['PENDING', 'APPROVED', 'REJECTED']),
    createdAt: isoDateTime,
    decidedAt: isoDateTime.nullable(),
    txHash: z.string().nullable().describe('The BEP20 transaction that paid an APPROVED withdrawal'),
    reason: z
      .string()
      .nullable()
      .describe(
        'Why a REJECTED withdrawal was rejected (null otherwise, and for rejections made before reasons were kept)',
      ),
  }),
);
const ledgerProblem = z.object({
  accountId: z.number(),
  username: z.string().nullable(),
  wallet: z.string(),
  balance: z.number().describe('Micro-units'),
  fromTransfers: z.number().describe('Sum of the account’s transfers (in − out), micro-units'),
  debitsPosted: z.number().describe('Running total kept on the account: transfers out, micro-units'),
  debitsFromTransfers: z.number().describe('Sum of the account’s transfers out, micro-units'),
  creditsPosted: z.number().describe('Running total kept on the account: transfers in, micro-units'),
  creditsFromTransfers: z.number().describe('Sum of the account’s transfers in, micro-units'),
  monthsMismatched: z
    .number()
    .describe('UTC months whose kept credits differ from the account’s transfers in'),
});
const ledgerCheckSchema = shaped<LedgerCheck>()(
  z.object({
    balanced: z.boolean().describe('The sum of every balance is 0'),
    total: z.number(),
    negativeWallets: z.array(ledgerProblem),
    mismatchedWallets: z
      .array(ledgerProblem)
      .describe('Accounts whose balance or running totals differ from the sums of their transfers'),
  }),
);
const jobRunSchema = shaped<JobRun>()(
  z.object({
    job: z.string(),
    date: z.string().describe('Business date, YYYY-MM-DD'),
    summary: z.string().optional(),
  }),
);
const scenarioSchema = shaped<ScenarioInfo>()(z.object({ name: z.string(), description: z.string() }));
const totpSchema = shaped<{ username: string } & ReturnType<typeof currentTotp>>()(
  z.object({ username: z.string(), code: z.string(), expiresInSeconds: z.number() }),
);
const clockSchema = z.object({ now: isoDateTime });
const clockReadSchema = shaped<{ now: string; nextRuns: ReturnType<typeof nextRuns> }>()(
  clockSchema.extend({
    nextRuns: z
      .array(
        z.object({
          job: z.string(),
          date: z.string().describe('Business date, YYYY-MM-DD'),
          at: isoDateTime,
        }),
      )
      .describe('The next due run of each job, in time order'),
  }),
);
const pushSchema = shaped<PushView>()(
  z.object({
    to: z.string().describe('The member (username)'),
    event: z.string().describe('The notice’s event type (payouts, transfers, deposits, withdrawals)'),
    title: z.string(),
    body: z.string().describe('The notice’s text'),
    url: z.string().describe('The screen the notification opens'),
    transId: z.string().nullable(),
    createdAt: isoDateTime,
    delivery: z
      .enum(['pending', 'sent', 'failed', 'gone'])
      .describe(
        "'pending' while attempts remain, 'sent' once the push service accepted it, 'failed' after the last attempt or a refusal, 'gone' when the subscription expired (404/410) or was removed",
      ),
    attempts: z.number().int(),
    status: z.number().int().nullable().describe('The push service’s HTTP status of the last attempt'),
    lastError: z.string().nullable(),
    sentAt: isoDateTime.nullable(),
    service: z.string().nullable().describe('The origin of the push service the device is subscribed at'),
  }),
);
const mailSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  otp: z.string().nullable(),
  sentAt: isoDateTime,
  delivery: z
    .enum(['outbox-only', 'pending', 'sent', 'failed'])
    .describe(
      "SMTP delivery: 'outbox-only' without SMTP_URL, else 'pending' while attempts remain, then 'sent' or 'failed'",
    ),
  attempts: z.number().int().describe('SMTP attempts made'),
  lastError: z
    .string()
    .nullable()
    .describe("Why the last attempt failed (the SMTP server's answer or the connection error)"),
  deliveredAt: isoDateTime.nullable().describe('When the SMTP server accepted it'),
  replyTo: z.string().nullable().describe('Reply-To (the member, on mail to support)'),
});

const procedure = z.enum(procedureNames as [ProcedureName, ...ProcedureName[]]);
const delay = z.object({ min: z.number(), max: z.number() });
const ruleViewSchema = shaped<ReturnType<typeof ruleView>>()(
  z.object({
    id: z.string(),
    path: z.string().describe("The endpoint's provider path, or '*'"),
    procedure: z.union([procedure, z.literal('*')]),
    member: z.string().optional(),
    status: z.number().optional(),
    error: z.string().optional(),
    body: z.json().optional(),
    delayMs: z.number().optional(),
    delay: delay.optional(),
    hang: z.boolean().optional(),
    malformed: z.boolean().optional(),
    empty: z.boolean().optional(),
    drop: z.boolean().optional(),
    probability: z.number(),
    times: z.number().optional(),
    remaining: z.number().optional().describe('How many more times the rule applies; absent: until deleted'),
    applied: z.number(),
    createdAt: isoDateTime,
  }),
);
const journalEntrySchema = shaped<JournalEntry>()(
  z.object({
    id: z.number(),
    time: isoDateTime.describe('Server (QA) clock when the call arrived'),
    requestId: z.string().describe('The calls of one tRPC batch share it'),
    method: z.string(),
    url: z.string(),
    path: z.string().describe("The endpoint's provider path"),
    procedure,
    transport: z.enum(['rest', 'trpc']),
    status: z.number().nullable(),
    durationMs: z.number().nullable(),
    member: z.string().nullable(),
    requestHeaders: z.unknown(),
    requestBody: z.unknown().describe('Secrets shown as [redacted]'),
    responseBody: z.unknown(),
    source: z
      .union([z.enum(['mock', 'provider']), z.templateLiteral(['recording:', z.string()])])
      .nullable()
      .describe(
        "Who answered: the stand-in ('mock'), the provider (gateway mode) or 'recording:<name>'; null when a fault rule answered alone",
      ),
    providerMs: z.number().nullable().describe('How long the provider took (source provider)'),
    fault: z.object({ id: z.string(), effect: z.string(), delayMs: z.number() }).nullable(),
    pending: z.boolean(),
    outcome: z
      .string()
      .optional()
      .describe("Set when no answer went out: 'dropped', 'client closed', 'server closing'"),
  }),
);
const snapshotSchema = shaped<SnapshotInfo>()(
  z.object({ name: z.string(), size: z.number().describe('Bytes'), createdAt: isoDateTime }),
);
const deleted = z.object({ deleted: z.number() });
const driftEntrySchema = shaped<DriftEntry>()(
  z.object({
    path: z.string().describe("The endpoint's provider path, e.g. '/user/view_profile'"),
    field: z
      .string()
      .describe(
        "Where in the answer: 'Success[].Side' ([] any row of a list, {} any entry of a map); '(body)' for an answer that is not a JSON object",
      ),
    kind: z.enum(['missing', 'extra', 'type', 'value', 'envelope']),
    expected: z
      .string()
      .describe(
        "What the contract says: 'number', '\"0\" | \"1\"', 'absent (not in the contract)', '{ Error: string }'",
      ),
    seen: z.unknown().describe('The first example the provider sent, secrets redacted and cut short'),
    count: z.number().describe('How many answers showed it'),
    firstSeen: isoDateTime,
    lastSeen: isoDateTime,
  }),
);
const target = z.union([z.enum(['provider', 'mock']), z.templateLiteral(['recording:', z.string()])]);
const routingSchema = shaped<RoutingView>()(
  z.object({
    default: z.enum(['provider', 'mock']).describe('provider when PROVIDER_URL is set, else mock'),
    endpoints: z.array(z.object({ path: z.string(), procedure, target })),
  }),
);
const recordingSchema = shaped<RecordingInfo>()(
  z.object({
    name: z.string(),
    entries: z.number().describe('Exchanges recorded'),
    recording: z.boolean().describe('Still recording'),
    size: z.number().describe('Bytes of the HAR file'),
    createdAt: isoDateTime,
  }),
);
const endpointRef = z
  .string()
  .describe("A contract path such as '/user/view_profile', or its procedure name");

/** The X-QA-Fault request header: a fault rule for that one contract call. */
export const QA_FAULT_HEADER = {
  name: 'X-QA-Fault',
  description:
    'QA only: a fault rule for this one request, as JSON (the fields of POST /__qa/faults without `path` and `times`), e.g. {"status":500,"error":"Boom"}.',
  schema: headerRuleInput,
} as const;

/** The X-QA-World request header: the world a call is for (modules/worlds). */
export const QA_WORLD_HEADER = {
  name: 'X-QA-World',
  description:
    'QA only: the id of the QA world this call is for (POST /__qa/worlds); absent, the default world. An unknown or expired world is a 404 naming it. A browser uses the qa_world cookie instead (GET /__qa/worlds/{id}/enter).',
} as const;

const worldSchema = shaped<WorldInfo>()(
  z.object({
    id: z.string().describe('The world id: what X-QA-World and the qa_world cookie carry'),
    name: z.string().optional().describe('What QA called it, when named'),
    from: z
      .string()
      .describe(
        "What it was made from: a scenario, 'snapshot:<name>', 'empty' (a declared state) or 'import (<from>)' (a world file)",
      ),
    clientMode: z.enum(['mock', 'provider']).optional().describe('The mode its /config.json announces'),
    createdBy: z.string().describe("Who made it: the caller's address"),
    entered: z.number().int().describe('Times a browser entered it by its link'),
    lastEnteredAt: isoDateTime.nullable(),
    busy: z
      .number()
      .int()
      .describe('Requests working in it now (it does not expire meanwhile, nor while a job works in it)'),
    createdAt: isoDateTime,
    lastUsedAt: isoDateTime,
    expiresAt: isoDateTime.describe('lastUsedAt + ttlMinutes: every call naming the world moves it'),
    ttlMinutes: z.number().int(),
  }),
);
const worldEventSchema = shaped<WorldEvent>()(
  z.object({
    at: isoDateTime,
    world: z.string(),
    event: z.enum(['created', 'entered', 'expired', 'deleted']),
    client: z.string().optional().describe('Who made, entered or deleted it'),
    from: z.string().optional().describe('What a created world was made from'),
  }),
);
const progressSchema = z.object({ done: z.number().int(), total: z.number().int() });
/** A long operation (core/jobs.ts): what a 202 answers, and GET /__qa/jobs/{id}. */
const exampleCodesView = z.object({
  on: z.boolean().describe('Whether example codes are on in this world'),
  code: z.string().describe('The example code'),
});

export const jobSchema = shaped<JobView>()(
  z.object({
    id: z.string(),
    kind: z
      .string()
      .describe("'world' (a world built from a declared state) or 'clock' (a move that owes daily runs)"),
    world: z
      .string()
      .nullable()
      .describe('The world it works on (null: the default world); a build names the world it makes'),
    client: z.string().describe("Who started it: the caller's address"),
    state: z.enum(['running', 'done', 'failed', 'cancelled']),
    progress: z
      .record(z.string(), progressSchema)
      .describe(
        'Done of total by unit: `members` built and `runs` paid (a build), `runs` paid (a clock move)',
      ),
    createdAt: isoDateTime,
    finishedAt: isoDateTime.nullable(),
    result: z
      .unknown()
      .optional()
      .describe('What the call answers when done (the world; the clock and the runs)'),
    error: z
      .object({ status: z.number().int(), Error: z.string() })
      .optional()
      .describe('Why it failed: the status and message the call would have answered'),
    url: z.string().describe('Where to GET it (DELETE cancels it)'),
  }),
);
const waitQuery = z.object({
  wait: z
    .string()
    .optional()
    .describe(
      `'true' (up to ${MAX_WAIT_SECONDS} s) or a number of seconds: answer when the job is done, or 202 with it when the wait runs out`,
    ),
});
const worldId = { description: 'World id' };

const byIdOrTransId = (kind: string) => ({ description: `The ${kind}'s numeric id or its TransID` });

export const QA_ROUTES: readonly QaRoute[] = [
  {
    method: 'POST',
    path: '/__qa/worlds',
    summary: 'Make an isolated world (its own database, clock, faults, mailbox, counters)',
    description:
      "A complete stand-in of its own on this server: a copy of a scenario's template (made once per scenario in a thread of its own, then copied), of a snapshot of the world the call is in, or an empty world built from a declared state. A declared state is built in a thread as a job: 202 with the job at once (GET its url for progress, DELETE it to cancel: a cancelled or failed build leaves no world), or 201 with the world when `wait` is given and the build ends in time. Calls naming the world (X-QA-World, or the qa_world cookie) see only it. 429 past WORLDS_MAX or past the caller's WORLDS_PER_CLIENT; idle worlds expire after ttlMinutes (never while a call or a job works in them).",
    body: worldCreateInput.extend({
      state: worldStateSchema
        .optional()
        .describe(
          'A declared state (docs/qa-control.md; examples in world-states/): built on an empty world through the domain functions; a fault is a 400 naming its JSON path',
        ),
    }),
    query: waitQuery,
    status: 201,
    response: worldSchema.extend({ enter: z.string().describe('The URL that puts a browser in the world') }),
    accepted: jobSchema,
    errors: [404, 409, 429],
  },
  {
    method: 'GET',
    path: '/__qa/worlds',
    summary: 'The live worlds, oldest first, and the latest lifecycle events',
    description:
      'Every world not yet expired or deleted, the caps (WORLDS_MAX, WORLDS_PER_CLIENT) and the latest events of every world (created, entered, expired, deleted; the server log has them all).',
    response: z.object({
      max: z.number().int(),
      perClient: z.number().int(),
      worlds: z.array(worldSchema),
      history: z.array(worldEventSchema).describe('Oldest first, the latest 200'),
    }),
  },
  {
    method: 'GET',
    path: '/__qa/worlds/current',
    summary: 'The world this call names',
    description:
      'The world named by X-QA-World or the qa_world cookie (null for the default world, or when the name is no live world: `named` says what was named).',
    response: z.object({ world: worldSchema.nullable(), named: z.string().nullable() }),
  },
  {
    method: 'DELETE',
    path: '/__qa/worlds/:id',
    summary: 'Delete a world',
    description: 'Closes the world and removes its database; its id is unknown from then on (404).',
    params: { id: worldId },
    response: z.object({ deleted: z.string() }),
    errors: [404],
  },
  {
    method: 'GET',
    path: '/__qa/worlds/:id/export',
    summary: 'A world as one file, to import on another server',
    description:
      "The world's SQLite database (every row, its clock's offset and its mailbox with it) with a `world_file` table holding the format version and the settings kept beside the database: fault rules with their uses left, the gateway's routing off its default, the client mode. Any SQLite tool opens it. `default` exports the default world. Import it with POST /__qa/worlds/import, or keep it as a snapshot with PUT /__qa/snapshots/{name}.",
    params: { id: { description: 'World id, or `default`' } },
    worldFile: 'answer',
    response: z.null(),
    errors: [404],
  },
  {
    method: 'POST',
    path: '/__qa/worlds/import',
    summary: 'Make a world from a world file (an export, from this server or another)',
    description: `The body is a file from GET /__qa/worlds/{id}/export (Content-Type application/octet-stream, at most ${WORLD_FILE_MAX_BYTES / 1024 / 1024} MB). The new world has the file's rows and settings, a new id and this server's token key (its members sign in again); a file of an older schema is migrated as it is imported. Refused with 400 and nothing made: a file that is not a world file, of a newer format or schema, with settings their own routes would refuse, or whose ledger does not balance. \`notCarried\` lists the settings that could not travel (routes to a recording, or to a provider this server does not have). Counted against WORLDS_MAX and WORLDS_PER_CLIENT as a creation is.`,
    query: worldImportQuery,
    worldFile: 'body',
    status: 201,
    response: worldSchema.extend({
      enter: z.string().describe('The URL that puts a browser in the world'),
      exportedAt: isoDateTime.describe('When the file was exported'),
      notCarried: z.array(z.string()).describe('Settings of the file this server could not give the world'),
    }),
    errors: [413, 429],
  },
  {
    method: 'GET',
    path: '/__qa/worlds/:id/enter',
    summary: 'Put this browser in a world (sets the qa_world cookie, redirects to /)',
    description:
      'Sets the qa_world cookie (HttpOnly, SameSite=Strict) and redirects to the app: every page and call of the tab is the world’s from then on. The id is the key: no X-QA-Token is asked (a browser navigating cannot send one). A navigation from another site or subdomain (`Sec-Fetch-Site` cross-site or same-site) is refused with 403 and no cookie (world fixation); same-origin, typed or pasted (`none`) and clients without the header enter. 404 for an unknown world.',
    params: { id: worldId },
    status: 303,
    response: z.null(),
    errors: [403, 404],
  },
  {
    method: 'GET',
    path: '/__qa/worlds/leave',
    summary: 'Take this browser back to the default world (clears the cookie, redirects to /)',
    description:
      'Clears the qa_world cookie; works whether or not the world still exists. By the same rule as entering, a navigation from another site or subdomain is refused with 403.',
    status: 303,
    response: z.null(),
    errors: [403],
  },
  {
    method: 'GET',
    path: '/__qa/mailbox',
    summary: 'Mails sent, newest first',
    description:
      'Every mail the server sent (or tried to), newest first: to read an OTP or a notice in a test instead of a real inbox. `otp` is the 6-digit code a mail carries, if any.',
    query: z.object({
      to: z.string().max(320).optional().describe('Email address or username; all recent mail without it'),
    }),
    response: z.array(mailSchema),
  },
  {
    method: 'GET',
    path: '/__qa/pushes',
    summary: 'Web Push notifications queued for members’ devices, newest first',
    description:
      'Every push of a notice to a member’s subscribed device (payouts, transfers received, deposits paid, withdrawals decided, as the member’s Phone choice says), with how its delivery went: to check in a test what a member’s phone was sent, as the mailbox does for mail. The payload sent is `{ title, body, url, tag }` (tag: the TransID).',
    query: z.object({
      to: z
        .string()
        .max(30)
        .optional()
        .describe('A username; the latest 50 pushes of every member without it'),
    }),
    response: z.array(pushSchema),
  },
  {
    method: 'GET',
    path: '/__qa/clock',
    summary: 'The server clock and the next run of each daily job',
    description:
      'The QA clock every handler and daily job reads (it may run ahead of real time), and when each daily job is next due.',
    response: clockReadSchema,
  },
  {
    method: 'POST',
    path: '/__qa/clock',
    summary: 'Set or advance the clock; runs every daily job that falls due, in order',
    description:
      'Moves the QA clock; when it moves forward, each daily job (ROI, binary, rank…) that falls due on the way runs, in time order. A move that owes no run is answered at once; one that owes runs is a job: 202 with it (GET its url for progress), or the answer when `wait` is given and the runs end in time. The clock steps from one due instant to the next, stored at each only once its runs are done: a kill or a cancel leaves it where everything before is paid.',
    body: z
      .object(
        {
          set: isoDateTime.optional().describe('ISO-8601 date-time, e.g. 2026-11-02T09:00:00Z'),
          advance: z
            .string()
            .optional()
            .describe("ISO-8601 duration, e.g. 'PT1H' or 'P1D' (after `set` when both are given)"),
        },
        { error: notObject },
      )
      .strict(),
    query: waitQuery,
    response: clockSchema.extend({ ran: z.array(jobRunSchema).describe('The runs that fell due') }),
    accepted: jobSchema,
    errors: [409],
  },
  {
    method: 'GET',
    path: '/__qa/jobs',
    summary: 'Long operations, newest first',
    description:
      "The server's jobs (world builds, clock moves that owe runs), running or ended within the last hour, of every world or of one (`world`: an id, or 'default').",
    query: z.object({ world: z.string().optional().describe("A world id, or 'default'") }),
    response: z.object({ jobs: z.array(jobSchema) }),
  },
  {
    method: 'GET',
    path: '/__qa/jobs/:id',
    summary: 'A job: its state, progress and result',
    description:
      'Running, done (with the result the call would have answered), failed (with its status and message) or cancelled. With `wait`, answers when it ends or when the wait runs out. 404 once it ended more than an hour ago, or after a restart.',
    params: { id: { description: 'Job id' } },
    query: waitQuery,
    response: jobSchema,
    errors: [404],
  },
  {
    method: 'DELETE',
    path: '/__qa/jobs/:id',
    summary: 'Cancel a job',
    description:
      'A build stops at once and leaves no world and no files; a clock move stops after the run in progress, the clock at the last instant whose runs are all done. Answers the job as it ended; 409 when it had already ended.',
    params: { id: { description: 'Job id' } },
    response: jobSchema,
    errors: [404, 409],
  },
  {
    method: 'GET',
    path: '/__qa/scenarios',
    summary: 'Seed scenarios',
    description: 'The scenarios POST /__qa/reset can rebuild the database from, with what each holds.',
    response: z.array(scenarioSchema),
  },
  {
    method: 'POST',
    path: '/__qa/reset',
    summary: 'Rebuild the database from a scenario',
    description:
      'Drops every row and seeds the scenario again (demo by default); the clock follows the rebuilt database and the failure counters start afresh.',
    body: z.object(
      { scenario: z.string().default('demo').describe('demo, empty or scale (GET /__qa/scenarios)') },
      { error: notObject },
    ),
    response: z.object({ scenario: z.string(), members: z.number() }),
  },
  {
    method: 'GET',
    path: '/__qa/example-codes',
    summary: "Whether this world replays the document's examples as written",
    description: `With example codes on, every OTP the world mails is \`${EXAMPLE_CODE}\` and the authenticator step accepts \`${EXAMPLE_CODE}\` as the current code, so the request examples of this document (generated from the demo scenario) answer 2xx as written, in a tool such as Postman or newman. Codes stay single use, time-limited and counted against the guess limits. Off unless set; kept in the world's database (an export carries it); counts only while QA control is on.`,
    response: exampleCodesView,
  },
  {
    method: 'PUT',
    path: '/__qa/example-codes',
    summary: 'Turn example codes on or off in this world',
    description: `On: the codes this world mails from now on are \`${EXAMPLE_CODE}\`, and \`${EXAMPLE_CODE}\` passes the authenticator step (docs/api.md, "Examples"). Off: random codes again.`,
    body: exampleCodesBody,
    response: exampleCodesView,
  },
  {
    method: 'GET',
    path: '/__qa/totp',
    summary: "Every 2FA member's current TOTP code",
    description:
      "The code an authenticator app would show now (QA clock) for each member who turned TOTP on, by username (at most 20): demo2fa in the demo scenario, a declared state's own 2FA members. A phone's authenticator shows other codes in a world whose clock was moved.",
    response: z.array(totpSchema),
  },
  {
    method: 'GET',
    path: '/__qa/totp/:username',
    summary: 'The current TOTP code of a member with TOTP on',
    description:
      'The code an authenticator app would show now (QA clock) for a member who turned TOTP on, e.g. demo2fa in the demo scenario; 404 for a member without TOTP.',
    params: { username: { description: 'Member username' } },
    response: totpSchema,
    errors: [404],
  },
  {
    method: 'GET',
    path: '/__qa/deposits',
    summary: 'Deposit windows, newest first (at most 500)',
    description:
      'The deposit windows opened with /deposit/make_payment, of every member, newest first; `status` narrows them.',
    query: z.object({ status: z.enum(DEPOSIT_STATUSES).optional() }),
    response: z.array(depositSchema),
  },
  {
    method: 'POST',
    path: '/__qa/deposits/:transId/pay',
    summary: 'Pay a deposit window',
    description:
      'In full by default (credited once, however often called); a smaller `amount` marks it PARTIAL and credits nothing.',
    params: { transId: byIdOrTransId('deposit') },
    body: z.object(
      { amount: moneyAmount.optional().describe('USDT paid; the full amount when absent') },
      { error: notObject },
    ),
    response: depositSchema.extend({
      credited: z.boolean().describe('True only for the call that credited the Deposit wallet'),
      message: z.string(),
    }),
    errors: [404, 409],
  },
  {
    method: 'POST',
    path: '/__qa/deposits/:transId/expire',
    summary: 'Expire a deposit window that is not paid',
    description:
      'Marks a window that is not paid EXPIRED at once, as its 30 minutes running out would (an expired one stays so); 409 when it is already paid.',
    params: { transId: byIdOrTransId('deposit') },
    response: depositSchema,
    errors: [404, 409],
  },
  {
    method: 'GET',
    path: '/__qa/withdrawals',
    summary: 'Withdrawal requests, newest first (at most 500)',
    description:
      'The withdrawal requests of every member, newest first; `status` narrows them (PENDING ones await a decision).',
    query: z.object({ status: z.enum(['PENDING', 'APPROVED', 'REJECTED']).optional() }),
    response: z.array(withdrawalSchema),
  },
  ...(['approve', 'reject'] as const).map((decision): QaRoute => ({
    method: 'POST',
    path: `/__qa/withdrawals/:id/${decision}`,
    summary:
      decision === 'approve' ? 'Pay a pending withdrawal' : 'Reject a pending withdrawal and refund it',
    description:
      decision === 'approve'
        ? 'Decides a PENDING request as paid out (the reserved amount and the fee leave the member for good); 409 when it is already decided.'
        : 'Decides a PENDING request as rejected: the reserved amount goes back to the member’s Withdrawal wallet, and `reason` (or the default) is kept with it: the member’s notice (and mail, when they have email on) and the withdrawal’s timeline say it. A bad `reason` is a 400 naming the problem and decides nothing; 409 when it is already decided (of concurrent decisions the first wins).',
    params: { id: byIdOrTransId('withdrawal') },
    ...(decision === 'reject' ? { body: rejectBody } : {}),
    response: withdrawalSchema,
    errors: [404, 409],
  })),
  {
    method: 'GET',
    path: '/__qa/ledger/check',
    summary: 'The ledger’s invariants over the whole database',
    description:
      'Double-entry checks: every balance sums to 0, no member wallet is negative, and each balance equals the sum of its transfers.',
    response: ledgerCheckSchema,
  },
  {
    method: 'GET',
    path: '/__qa/faults',
    summary: 'The fault and latency rules in force',
    description: 'The rules added with POST /__qa/faults that still apply, with how often each was applied.',
    response: z.array(ruleViewSchema),
  },
  {
    method: 'POST',
    path: '/__qa/faults',
    summary: 'Add a fault or latency rule for a contract endpoint (REST and tRPC alike)',
    description:
      "`path`: '/user/view_profile', 'user.view_profile' or '*'; `member`: the token's username. One effect per rule: `status`/`error` answers `{ Error }` (default message from the status), `body` answers that JSON, `delayMs`/`delay` waits then answers normally, `hang` never answers, `empty`/`malformed` send no or broken JSON, `drop` destroys the connection. `probability` 0–1 (default 1); `times`: the next N applications.",
    body: ruleInput,
    status: 201,
    response: ruleViewSchema,
  },
  {
    method: 'DELETE',
    path: '/__qa/faults',
    summary: 'Remove every fault rule',
    description: 'Every contract call answers normally again.',
    response: deleted,
  },
  {
    method: 'DELETE',
    path: '/__qa/faults/:id',
    summary: 'Remove one fault rule',
    description: 'Removes the rule with that id (as POST /__qa/faults answered it); 404 when there is none.',
    params: { id: { description: 'Rule id' } },
    response: deleted,
    errors: [404],
  },
  {
    method: 'POST',
    path: '/__qa/faults/seed',
    summary: 'Seed the randomness of `probability` and `delay`',
    description:
      'Makes which calls a rule with `probability` below 1 hits, and the waits a `delay` range draws, the same on every run.',
    body: z.object({ seed: z.number().int() }).strict(),
    response: z.object({ seed: z.number() }),
  },
  {
    method: 'GET',
    path: '/__qa/journal',
    summary: 'The latest contract calls (at most 500), newest first, secrets redacted',
    description:
      'What came in and went out on the contract endpoints (REST and tRPC), with the fault applied if any; passwords, tokens and codes show as [redacted].',
    query: z.object({
      path: endpointRef.optional(),
      member: z.string().max(64).optional(),
      limit: z.number().int().min(1).max(500).default(100),
    }),
    response: z.array(journalEntrySchema),
  },
  {
    method: 'DELETE',
    path: '/__qa/journal',
    summary: 'Clear the journal',
    description: 'Forgets every journal entry.',
    response: deleted,
  },
  {
    method: 'GET',
    path: '/__qa/snapshots',
    summary: 'Saved database snapshots, newest first',
    description: 'The snapshots POST /__qa/snapshots saved, with their size.',
    response: z.array(snapshotSchema),
  },
  {
    method: 'POST',
    path: '/__qa/snapshots',
    summary: 'Save the whole database as a named snapshot',
    description:
      'A consistent copy of the whole database, to put back later with …/restore; saving under a name already used replaces that snapshot.',
    body: z
      .object({ name: z.string().regex(SNAPSHOT_NAME).describe("1–64 letters, digits, '-' or '_'") })
      .strict(),
    status: 201,
    response: snapshotSchema,
  },
  {
    method: 'POST',
    path: '/__qa/snapshots/:name/restore',
    summary: 'Put the database back as saved, in place (the clock takes the saved offset)',
    description:
      'Replaces every row with the snapshot’s; 404 for an unknown name, 409 when the snapshot cannot be read or was saved with another database schema.',
    params: { name: { description: 'Snapshot name' } },
    response: z.object({ restored: snapshotSchema }),
    errors: [404, 409],
  },
  {
    method: 'PUT',
    path: '/__qa/snapshots/:name',
    summary: 'Keep a world file as a snapshot',
    description:
      "The database of a world file (GET /__qa/worlds/{id}/export, from this server or another; an older schema's is migrated) saved as the snapshot `name`, replacing one of that name: restore it, or make worlds from it (`from: 'snapshot:<name>'`). The file's settings stay with the world it came from. A file that is not a world file this server can read is refused with 400.",
    params: { name: { description: 'Snapshot name' } },
    worldFile: 'body',
    status: 201,
    response: snapshotSchema,
    errors: [413],
  },
  {
    method: 'DELETE',
    path: '/__qa/snapshots/:name',
    summary: 'Delete a snapshot',
    description: 'Removes the saved snapshot; 404 for an unknown name.',
    params: { name: { description: 'Snapshot name' } },
    response: z.object({ deleted: z.string() }),
    errors: [404],
  },
  {
    method: 'GET',
    path: '/__qa/drift',
    summary: 'Where the provider’s answers differ from the contract (gateway mode)',
    description:
      'One entry per endpoint, field path and kind (missing, extra, type, value, envelope), with the contract’s expectation, a redacted example, how many answers showed it and when. Filled by provider answers in gateway mode (PROVIDER_URL); empty otherwise.',
    response: z.array(driftEntrySchema),
  },
  {
    method: 'DELETE',
    path: '/__qa/drift',
    summary: 'Forget every drift finding',
    description: 'Clears the list GET /__qa/drift answers.',
    response: deleted,
  },
  {
    method: 'GET',
    path: '/__qa/routing',
    summary: 'Who answers each contract endpoint (gateway mode)',
    description:
      "Every contract endpoint with its target: 'provider' (forwarded to PROVIDER_URL), 'mock' (this stand-in) or 'recording:<name>' (replayed from a recording); the default is provider when PROVIDER_URL is set, else mock.",
    response: routingSchema,
  },
  {
    method: 'POST',
    path: '/__qa/routing',
    summary: 'Route one endpoint (or every one) to the provider, the stand-in or a recording',
    description:
      "`path`: '/user/view_profile', 'user.view_profile' or '*'. A member signed in at the provider is known to the stand-in (a shadow member) once the provider vouched for its token. 400 for an unknown endpoint or target, 'provider' without PROVIDER_URL, or a recording that does not exist.",
    body: routingInput,
    response: routingSchema,
  },
  {
    method: 'GET',
    path: '/__qa/recordings',
    summary: 'The recordings of provider exchanges (HAR 1.2 files)',
    description:
      'The recordings beside the database (<database>.recordings/<name>.har), with how many exchanges each holds and whether it is still recording.',
    response: z.array(recordingSchema),
  },
  {
    method: 'POST',
    path: '/__qa/recordings',
    summary: 'Start recording provider exchanges under a name',
    description:
      'Every provider answer from now on is added to the recording (redacted: passwords, codes, tokens, secrets, the Authorization header) until …/stop; a recording of that name is replaced.',
    body: recordingBody,
    status: 201,
    response: recordingSchema,
  },
  {
    method: 'POST',
    path: '/__qa/recordings/:name/stop',
    summary: 'Stop a recording',
    description:
      'Writes the recording and stops adding to it; 404 when no recording of that name is being made. Route endpoints to recording:<name> to replay it.',
    params: { name: { description: 'Recording name' } },
    response: recordingSchema,
    errors: [404],
  },
  {
    method: 'DELETE',
    path: '/__qa/recordings/:name',
    summary: 'Delete a recording',
    description: 'Removes the HAR file; 404 for an unknown name.',
    params: { name: { description: 'Recording name' } },
    response: z.object({ deleted: z.string() }),
    errors: [404],
  },
];
