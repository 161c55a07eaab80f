/**
 * The QA control API (DESIGN §5, README "QA control API") as a table for the OpenAPI document.
 * These are plain Fastify routes, not contract entries, so their shapes are written here from the
 * route code (modules/qa/*.ts); where a route returns a typed view, `shaped<T>()` makes the
 * compiler hold the schema to that type. Faults, journal and snapshots follow DESIGN §5.
 */
import { z } from 'zod';
import { DEPOSIT_STATUSES } from '@md/db';
import { moneyAmount } from '@md/shared';
import type { currentTotp } from '../../core/totp.ts';
import type { ScenarioInfo } from '../../seed/index.ts';
import type { depositView } from '../deposits/deposits.ts';
import type { JobRun } from '../jobs/index.ts';
import type { LedgerCheck } from '../ledger/ledger.ts';
import type { withdrawalView } from '../withdrawals/withdrawals.ts';

export interface QaRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** Fastify form (`:param`); the document turns it into `{param}`. */
  path: string;
  summary: string;
  description?: string;
  params?: Record<string, string>;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  /** Error statuses besides 400 and 5XX. */
  errors?: readonly number[];
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The schema, checked at compile time to describe exactly `T` (what the route returns). */
const shaped =
  <T>() =>
  <S extends z.ZodType>(schema: S & (Same<z.output<S>, T> extends true ? unknown : { __mismatch: z.output<S> })) =>
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
  }),
);
const ledgerProblem = z.object({
  accountId: z.number(),
  username: z.string().nullable(),
  wallet: z.string(),
  balance: z.number().describe('Micro-units'),
  fromTransfers: z.number().describe('Sum of the account’s transfers (in − out), micro-units'),
});
const ledgerCheckSchema = shaped<LedgerCheck>()(
  z.object({
    balanced: z.boolean().describe('The sum of every balance is 0'),
    total: z.number(),
    negativeWallets: z.array(ledgerProblem),
    mismatchedWallets: z.array(ledgerProblem),
  }),
);
const jobRunSchema = shaped<JobRun>()(z.object({ job: z.string(), date: z.string().describe('Business date, YYYY-MM-DD'), summary: z.string().optional() }));
const scenarioSchema = shaped<ScenarioInfo>()(z.object({ name: z.string(), description: z.string() }));
const totpSchema = shaped<{ username: string } & ReturnType<typeof currentTotp>>()(
  z.object({ username: z.string(), code: z.string(), expiresInSeconds: z.number() }),
);
const clockSchema = z.object({ now: isoDateTime });
const mailSchema = z.object({ to: z.string(), subject: z.string(), text: z.string(), otp: z.string().nullable(), sentAt: isoDateTime });

const faultRule = z
  .object({
    path: z.string().describe('The endpoint the rule applies to, e.g. /user/login'),
    member: z.string().optional().describe('Only calls made by this member'),
    status: z.number().int().optional().describe('HTTP status to answer'),
    error: z.string().optional().describe('Message of the provider-shaped `{ Error: error }` body'),
    body: z.unknown().optional().describe('Answer this body instead of `{ Error }`'),
    delayMs: z.number().int().min(0).optional().describe('Latency added before the answer'),
    hang: z.boolean().optional().describe('Never answer'),
    malformed: z.boolean().optional().describe('Answer a body that is not valid JSON'),
    empty: z.boolean().optional().describe('Answer an empty body'),
    drop: z.boolean().optional().describe('Close the connection without an answer'),
    probability: z.number().min(0).max(1).optional().describe('Share of matching calls the rule hits'),
    times: z.number().int().min(1).optional().describe('Number of calls the rule hits, then it is gone'),
  }, { error: notObject })
  .describe('A fault or latency rule for one endpoint');
// Shapes the QA module owns beyond what DESIGN §5 states: documented as open objects.
const qaRecord = (description: string) => z.object({}).loose().describe(description);

export const QA_ROUTES: readonly QaRoute[] = [
  {
    method: 'GET',
    path: '/__qa/mailbox',
    summary: 'Mails sent, newest first',
    query: z.object({ to: z.string().max(320).optional().describe('Email address or username; all recent mail without it') }),
    response: z.array(mailSchema),
  },
  { method: 'GET', path: '/__qa/clock', summary: 'The server clock', response: clockSchema },
  {
    method: 'POST',
    path: '/__qa/clock',
    summary: 'Set or advance the clock; runs every daily job that falls due, in order',
    body: z
      .object({
        set: isoDateTime.optional().describe('ISO-8601 date-time, e.g. 2026-11-02T09:00:00Z'),
        advance: z.string().optional().describe("ISO-8601 duration, e.g. 'PT1H' or 'P1D' (after `set` when both are given)"),
      }, { error: notObject })
      .strict(),
    response: clockSchema.extend({ ran: z.array(jobRunSchema).describe('The runs that fell due') }),
  },
  { method: 'GET', path: '/__qa/scenarios', summary: 'Seed scenarios', response: z.array(scenarioSchema) },
  {
    method: 'POST',
    path: '/__qa/reset',
    summary: 'Rebuild the database from a scenario',
    body: z.object({ scenario: z.string().default('demo').describe('demo, empty or scale (GET /__qa/scenarios)') }, { error: notObject }),
    response: z.object({ scenario: z.string(), members: z.number() }),
  },
  {
    method: 'GET',
    path: '/__qa/totp/:username',
    summary: 'The current TOTP code of a member with TOTP on',
    params: { username: 'Member username' },
    response: totpSchema,
    errors: [404],
  },
  {
    method: 'GET',
    path: '/__qa/deposits',
    summary: 'Deposit windows, newest first (at most 500)',
    query: z.object({ status: z.enum(DEPOSIT_STATUSES).optional() }),
    response: z.array(depositSchema),
  },
  {
    method: 'POST',
    path: '/__qa/deposits/:transId/pay',
    summary: 'Pay a deposit window',
    description: 'In full by default (credited once, however often called); a smaller `amount` marks it PARTIAL and credits nothing.',
    params: { transId: 'Numeric id or TransID' },
    body: z.object({ amount: moneyAmount.optional().describe('USDT paid; the full amount when absent') }, { error: notObject }),
    response: depositSchema.extend({ credited: z.boolean().describe('True only for the call that credited the Deposit wallet'), message: z.string() }),
    errors: [404, 409],
  },
  {
    method: 'POST',
    path: '/__qa/deposits/:transId/expire',
    summary: 'Expire a deposit window that is not paid',
    params: { transId: 'Numeric id or TransID' },
    response: depositSchema,
    errors: [404, 409],
  },
  {
    method: 'GET',
    path: '/__qa/withdrawals',
    summary: 'Withdrawal requests, newest first (at most 500)',
    query: z.object({ status: z.enum(['PENDING', 'APPROVED', 'REJECTED']).optional() }),
    response: z.array(withdrawalSchema),
  },
  ...(['approve', 'reject'] as const).map(
    (decision): QaRoute => ({
      method: 'POST',
      path: `/__qa/withdrawals/:id/${decision}`,
      summary: decision === 'approve' ? 'Pay a pending withdrawal' : 'Reject a pending withdrawal and refund it',
      params: { id: 'Numeric id or TransID' },
      response: withdrawalSchema,
      errors: [404, 409],
    }),
  ),
  { method: 'GET', path: '/__qa/ledger/check', summary: 'The ledger’s invariants over the whole database', response: ledgerCheckSchema },
  { method: 'GET', path: '/__qa/faults', summary: 'The fault and latency rules in force', response: z.array(faultRule.loose()) },
  {
    method: 'POST',
    path: '/__qa/faults',
    summary: 'Add a fault or latency rule for an endpoint',
    description: 'The endpoint answers a provider-shaped `{ Error: error }` body with `status` unless `body` is given; `delayMs`, `hang`, `malformed`, `empty` and `drop` shape the failure, `probability` and `times` how often it applies.',
    body: faultRule,
    response: qaRecord('The rule added'),
  },
  { method: 'DELETE', path: '/__qa/faults', summary: 'Remove every fault rule', response: qaRecord('The outcome') },
  { method: 'GET', path: '/__qa/journal', summary: 'Recent requests and their responses, secrets redacted', response: z.array(qaRecord('One request and its response')) },
  { method: 'GET', path: '/__qa/snapshots', summary: 'Saved database snapshots', response: z.array(qaRecord('A snapshot')) },
  {
    method: 'POST',
    path: '/__qa/snapshots',
    summary: 'Save the database as a named snapshot',
    body: z.object({ name: z.string().describe('Snapshot name') }, { error: notObject }),
    response: qaRecord('The snapshot saved'),
  },
  {
    method: 'POST',
    path: '/__qa/snapshots/:name/restore',
    summary: 'Restore the database from a snapshot',
    params: { name: 'Snapshot name' },
    response: qaRecord('The outcome'),
    errors: [404],
  },
  {
    method: 'DELETE',
    path: '/__qa/snapshots/:name',
    summary: 'Delete a snapshot',
    params: { name: 'Snapshot name' },
    response: qaRecord('The outcome'),
    errors: [404],
  },
];
