/**
 * QA control API under /__qa (DESIGN §5): mailbox, clock, scenarios and reset, TOTP codes, and
 * the surface's faults, journal and snapshots. JSON in and out, bodies validated with zod; bad
 * input is a 400 `{ Error }`.
 */
import type { FastifyInstance } from 'fastify';
import { add } from 'date-fns';
import { desc, eq, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { mailOutbox, members } from '@md/db';
import { firstIssueMessage } from '@md/shared';
import { runAfterAnswerJobs } from '../../core/after-answer.ts';
import { resetGuessLimits } from '../../core/attempts.ts';
import { registerFileUploads } from '../../core/scratch.ts';
import { AppError, sendError } from '../../core/errors.ts';
import { EXAMPLE_CODE, exampleCodesOn, setExampleCodes } from '../../core/example-codes.ts';
import { answerJob, waitSecondsOf } from '../../core/jobs.ts';
import type { Services } from '../../core/services.ts';
import { currentTotp } from '../../core/totp.ts';
import { resetDatabase, SCENARIOS } from '../../seed/index.ts';
import { dueRuns, JOBS } from '../engine/schedule.ts';
import { moveClock, planClockMove } from '../jobs/index.ts';
import { listPushes } from '../push/push.ts';
import { registerMoneyQaRoutes } from './money-routes.ts';
import { appliedMigrations, WORLD_FILE_MAX_BYTES } from '../worlds/world-file.ts';
import { registerSurfaceRoutes } from './surface-routes.ts';
import type { QaSurface } from './surface.ts';
import { qaClientOf } from './token.ts';

const DURATION =
  /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Epoch ms after adding an ISO-8601 duration ('PT1H', 'P1D', 'P1M2DT3H') to `from`; null when malformed. */
export function addIsoDuration(from: number, duration: string): number | null {
  const m = DURATION.exec(duration);
  if (!m) return null;
  const [years, months, weeks, days, hours, minutes] = m
    .slice(1, 7)
    .map((v) => (v ? Number(v) : 0)) as number[];
  const seconds = m[7] ? Number(m[7]) : 0;
  const result =
    add(new Date(from), { years, months, weeks, days, hours, minutes }).getTime() +
    Math.round(seconds * 1000);
  return Number.isFinite(result) ? result : null;
}

// ROI skips weekends, so its next run is at most 3 days (and a DST hour) away: 4 days always finds one.
const NEXT_RUN_HORIZON_MS = 4 * 86_400_000;

/** The first run of each job due after `from`, in time order: `{ job, date, at }` (at as ISO-8601). */
export function nextRuns(from: number): { job: string; date: string; at: string }[] {
  const due = dueRuns(from, from + NEXT_RUN_HORIZON_MS);
  return JOBS.map((job) => due.find((run) => run.job === job))
    .filter((run) => run !== undefined)
    .sort((a, b) => a.at - b.at)
    .map(({ job, date, at }) => ({ job, date, at: new Date(at).toISOString() }));
}

const isoDateTime = z
  .string()
  .refine((v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && Number.isFinite(Date.parse(v)), {
    error: 'set must be an ISO-8601 date-time such as 2026-11-02T09:00:00Z',
  });
const clockBody = z
  .object(
    {
      set: isoDateTime.optional(),
      advance: z
        .string()
        .refine((v) => DURATION.test(v), {
          error: "advance must be an ISO-8601 duration such as 'PT1H' or 'P1D'",
        })
        .optional(),
    },
    { error: 'The body must be a JSON object' },
  )
  .strict();
const resetBody = z.object(
  { scenario: z.string({ error: 'scenario is required' }).default('demo') },
  { error: 'The body must be a JSON object' },
);
/** PUT /__qa/example-codes: whether this world's mailed codes and authenticator step take EXAMPLE_CODE. */
export const exampleCodesBody = z
  .object(
    { on: z.boolean({ error: 'on must be true or false' }) },
    { error: 'The body must be a JSON object' },
  )
  .strict();
const mailboxQuery = z.object({ to: z.string().trim().max(320).optional() });
const pushesQuery = z.object({ to: z.string().trim().max(30).optional() });

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw new AppError(400, firstIssueMessage(result.error));
  return result.data;
}

/** How many 2FA members GET /__qa/totp lists (the first by username). */
export const TOTP_MEMBERS_LISTED = 20;

export function registerQaRoutes(
  app: FastifyInstance,
  services: Services,
  surface: QaSurface,
  options: {
    /** The QA world this app is (its jobs say so); null for the default world. */ world: string | null;
  },
) {
  const { db, clock } = services;

  app.get('/__qa/mailbox', async (request) => {
    const { to } = parse(mailboxQuery, request.query);
    runAfterAnswerJobs(services); // mails an answer has promised are written before the read
    const who = to?.toLowerCase();
    const rows = db
      .select()
      .from(mailOutbox)
      .where(
        who ? or(eq(mailOutbox.toAddress, who), eq(sql`lower(${mailOutbox.toUsername})`, who)) : undefined,
      )
      .orderBy(desc(mailOutbox.sentAt), desc(mailOutbox.id))
      .limit(who ? 500 : 50)
      .all();
    // delivery: 'outbox-only' without SMTP_URL, else 'pending' while attempts remain, then 'sent' or 'failed' (core/mailer.ts).
    return rows.map((row) => ({
      to: row.toAddress,
      subject: row.subject,
      text: row.text,
      otp: row.otp,
      sentAt: new Date(row.sentAt).toISOString(),
      delivery: row.delivery,
      attempts: row.attempts,
      lastError: row.lastError,
      deliveredAt: row.deliveredAt === null ? null : new Date(row.deliveredAt).toISOString(),
      replyTo: row.replyTo,
    }));
  });

  // Web Push: what was queued for members' devices and how each attempt ended (modules/push).
  app.get('/__qa/pushes', async (request) => {
    const { to } = parse(pushesQuery, request.query);
    return listPushes(services, to?.toLowerCase());
  });

  // nextRuns: the QA panel's 'to the next 11:00 UK run' needs London time across DST, which the schedule knows.
  app.get('/__qa/clock', async () => {
    const now = clock.now();
    return { now: new Date(now).toISOString(), nextRuns: nextRuns(now) };
  });

  app.post('/__qa/clock', async (request, reply) => {
    const body = parse(clockBody, request.body);
    const from = clock.now();
    let target = body.set ? Date.parse(body.set) : from;
    if (body.advance) {
      const advanced = addIsoDuration(target, body.advance);
      if (advanced === null) throw new AppError(400, 'advance is not a valid ISO-8601 duration');
      target = advanced;
    }
    if (target < 0 || target > Date.UTC(9999, 0, 1))
      throw new AppError(400, 'The clock must stay between 1970 and 9999');
    const wait = waitSecondsOf(request.query);
    // Only moving forward can make runs due: a move that owes none is answered at once.
    const move = planClockMove(services, target);
    if (move.owed === 0) {
      clock.set(target);
      return { now: new Date(clock.now()).toISOString(), ran: [] };
    }
    // One that owes runs is a job (they execute in a worker on a file): 202, or the answer when waited for.
    const job = services.jobs.start(
      'clock',
      { world: options.world, client: qaClientOf(request) },
      (control) =>
        moveClock(services, move, { signal: control.signal, progress: (runs) => control.progress({ runs }) }),
      { runs: { done: 0, total: move.owed } },
    );
    return answerJob(reply, services.jobs, job, wait, (result) => ({ status: 200, body: result }));
  });

  app.get('/__qa/scenarios', async () => SCENARIOS.map(({ name, description }) => ({ name, description })));

  app.post('/__qa/reset', async (request) => {
    const { scenario } = parse(resetBody, request.body);
    try {
      const summary = resetDatabase(services, scenario);
      return { scenario: summary.scenario, members: summary.members };
    } finally {
      // A reset that failed midway rolled the stored offset back: the clock follows the database.
      clock.reload();
      resetGuessLimits(services); // failure counts and known addresses belong to the old database
    }
  });

  const exampleCodes = () => ({ on: exampleCodesOn(services), code: EXAMPLE_CODE });
  app.get('/__qa/example-codes', async () => exampleCodes());
  app.put('/__qa/example-codes', async (request) => {
    setExampleCodes(services, parse(exampleCodesBody, request.body).on);
    return exampleCodes();
  });

  // Every 2FA member's code (a declared state names its own): the QA panel shows them by the world's clock.
  app.get('/__qa/totp', async () =>
    db
      .select({ username: members.username, secret: members.totpSecret })
      .from(members)
      .where(eq(members.totpEnabled, true))
      .orderBy(members.username)
      .limit(TOTP_MEMBERS_LISTED)
      .all()
      .flatMap(({ username, secret }) => (secret ? [{ username, ...currentTotp(secret, clock) }] : [])),
  );

  app.get<{ Params: { username: string } }>('/__qa/totp/:username', async (request, reply) => {
    const member = db
      .select()
      .from(members)
      .where(eq(members.username, request.params.username.toLowerCase()))
      .get();
    if (!member?.totpEnabled || !member.totpSecret)
      return sendError(reply, 404, 'No member with TOTP enabled has that username');
    return { username: member.username, ...currentTotp(member.totpSecret, clock) };
  });

  registerMoneyQaRoutes(app, services, parse);
  // World files (an export, or one to import) come as they are, up to a large world's size.
  registerFileUploads(app, ['application/octet-stream', 'application/vnd.sqlite3'], WORLD_FILE_MAX_BYTES);
  registerSurfaceRoutes(app, surface, parse, () => appliedMigrations(services.sqlite));
}
