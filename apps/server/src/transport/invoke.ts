/**
 * One call of a contract endpoint, whatever the transport: authenticate, validate the input
 * with the contract's schema, run the handler, check the answer against the output schema.
 */
import {
  contract,
  firstIssueMessage,
  IDEMPOTENT_REPLAYED_HEADER,
  MSG,
  procedureNames,
  type ProcedureName,
} from '@md/shared';
import type { z } from 'zod';
import { AppError, badRequest, ContractError, unauthorized } from '../core/errors.ts';
import {
  enterFlight,
  fingerprintOf,
  idempotencyKeyOf,
  recordAnswer,
  replayOf,
  storedAnswer,
  type IdempotencyClaim,
} from '../core/idempotency.ts';
import { createReadCache } from '../core/read-cache.ts';
import type { Caller, Ctx, Services } from '../core/services.ts';
import type { Handlers } from './handlers.ts';
import { checkOutput } from './output-check.ts';
import { checkRateLimit } from './rate-limit.ts';

const bearer = (authorization: string | undefined) => {
  const match = authorization?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The session token of a call: the bearer header first, then the body field the provider reads. */
export function callToken(name: ProcedureName, body: unknown, caller: Caller): string | undefined {
  const field = contract[name].tokenField;
  const bodyToken = field && isPlainObject(body) ? body[field] : undefined;
  return bearer(caller.authorization) ?? (typeof bodyToken === 'string' && bodyToken ? bodyToken : undefined);
}

/** The first issue's message; zod's own wording ('Invalid input: expected string…') does not say which field, so it gets the path. */
const ZOD_WORDING = /^(Invalid input|Invalid option|Too big|Too small|Unrecognized key)/;
const inputIssueMessage = (error: z.ZodError) => {
  const message = firstIssueMessage(error);
  const path = error.issues[0]?.path.join('.');
  return path && ZOD_WORDING.test(message) ? `${path}: ${message}` : message;
};

/**
 * Reads whose answer depends only on the database, the caller and the input (never the clock):
 * the paged tables, their page counts, the profile, the notices (two index ranges merged since
 * daily ROI's are read from its credits) and the recent activity (notices, ledger legs and support
 * messages merged). Their answers are kept per member until a write touches that member
 * (core/read-cache.ts), unless `config.readCache` is false.
 */
const tableInput = contract['table.view_deposit_transaction'].input;
const READ_CACHED = new Set<ProcedureName>([
  ...procedureNames.filter((name) => contract[name].input === tableInput),
  'user.view_profile',
  'notification.view_notification',
  'notification.total_view_notification',
  'activity.view_recent',
]);
const answers = createReadCache<unknown>(5_000);

/** The parsed input without the body token: what a call asks, whoever's token carries it. */
function parametersOf(name: ProcedureName, input: unknown): Record<string, unknown> {
  const rest = { ...(input as Record<string, unknown>) };
  const field = contract[name].tokenField;
  if (field) delete rest[field];
  return rest;
}

/** The cache key of a member's read: procedure and its parameters. */
const readKey = (name: ProcedureName, input: unknown) =>
  `${name}|${JSON.stringify(parametersOf(name, input))}`;

/** What a call tells its transport besides its answer. */
export interface CallReport {
  /** Sets a header of the call's answer (the transport's reply). */
  header(name: string, value: string): void;
  /** The member the call's token authenticated: the QA journal names the call by it, so it looks up no token of its own. */
  authenticated?(username: string): void;
}
const NO_REPORT: CallReport = { header: () => undefined };

/*
 * A call's context is its own fields, then the world's services spread after them. Not the other
 * way round: Node 20's V8 builds `{ ...services, caller }` by cloning the services' shape and then
 * adding each further field through the runtime, ~3 µs and ~1.4 kB of new hidden classes a call
 * (they outlive the call, so the young-generation collector promotes them); spread last it is
 * ~0.1 µs. Services has none of the call's fields, so the order changes nothing else.
 */
export async function invoke(
  services: Services,
  handlers: Handlers,
  name: ProcedureName,
  rawInput: unknown,
  caller: Caller,
  report: CallReport = NO_REPORT,
): Promise<unknown> {
  const entry = contract[name];
  const handler = handlers[name] as ((ctx: Ctx, input: unknown) => unknown) | undefined;
  if (!handler) throw new AppError(501, MSG.notImplemented);

  const body = rawInput === undefined || rawInput === null ? {} : rawInput;
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object');

  let member: Ctx['member'] = null;
  let sessionId: string | null = null;
  if (entry.auth !== 'none') {
    const token = callToken(name, body, caller);
    if (token) {
      ({ member, sessionId } = services.tokens.authenticate(token, caller));
      report.authenticated?.(member.username);
    } else if (entry.auth === 'required') throw unauthorized(MSG.invalidAuthentication);
  }
  const parse = () => {
    const parsed = entry.input.safeParse(body);
    if (!parsed.success)
      throw badRequest(
        inputIssueMessage(parsed.error),
        parsed.error.issues[0]?.code === 'unrecognized_keys' ? 'UNKNOWN_FIELD' : undefined,
      );
    return parsed.data;
  };
  const replayed = () => report.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  // Every answer of a money move says whether it is a replay: `false` until the store answers.
  if (entry.idempotent) report.header(IDEMPOTENT_REPLAYED_HEADER, 'false');

  const key = entry.idempotent && member ? idempotencyKeyOf(caller.idempotencyKey) : undefined;
  if (member && key !== undefined) {
    // Before the rate limits: a retry that learns its first answer spends no attempt.
    const input = parse();
    const claim: IdempotencyClaim = {
      memberId: member.id,
      key,
      procedure: name,
      fingerprint: fingerprintOf(name, parametersOf(name, input)),
      recorded: false,
    };
    const leave = enterFlight(services.inFlightKeys, member.id, key);
    try {
      const stored = storedAnswer(services.sqlite, member.id, key, services.clock.now());
      if (stored) {
        const replay = replayOf(stored, claim.fingerprint);
        replayed();
        return replay.body;
      }
      checkRateLimit(services, name, caller, body, member.id);
      const ctx: Ctx = { caller, member, sessionId, idempotency: claim, replayed, ...services };
      const output = await handler(ctx, input);
      if (services.config.validateOutput) checkOutput(name, output);
      if (!claim.recorded) {
        // A money handler answers through moneyAnswer, which stores the answer in the move's
        // transaction; one that did not is a server bug (tests and development say so loudly).
        if (services.config.validateOutput)
          throw new ContractError(`${name} answered a keyed call without moneyAnswer`);
        recordAnswer(services.sqlite, claim, 200, output, services.clock.now());
      }
      return output;
    } finally {
      leave();
    }
  }

  checkRateLimit(services, name, caller, body, member?.id);
  const input = parse();
  const run = () => handler({ caller, member, sessionId, replayed, ...services }, input);
  const output =
    member && services.config.readCache !== false && READ_CACHED.has(name)
      ? answers.get(services.sqlite, member.id, readKey(name, input), run)
      : await run();
  if (services.config.validateOutput) checkOutput(name, output);
  return output;
}
