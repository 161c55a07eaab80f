/**
 * The provider gateway: an interceptor on the one path every contract call takes
 * (transport/call.ts), inside the QA surface's, so faults, latency rules and the journal apply
 * whatever answers. Per endpoint (routing.ts) it forwards the call to the real provider
 * (forward.ts), answers from a recording of it (recordings.ts), or lets the stand-in's handlers
 * answer, acting for a member signed in at the provider through a shadow member (shadow.ts).
 *
 * A gateway never edits an answer: over REST the provider's status, content type and bytes go
 * out as they came; over tRPC its JSON is the procedure's result, and an error status becomes
 * the error /trpc gives for that status. Only what is no answer (a timeout, a refused
 * connection, a body that is not JSON) is replaced, by a provider-shaped { Error } with 502/504.
 */
import { contract, type ProcedureName } from '@md/shared';
import { AppError, errorBody, logServerError } from '../../core/errors.ts';
import type { Services } from '../../core/services.ts';
import type { Call, Interceptor, Source } from '../../transport/call.ts';
import { callToken } from '../../transport/invoke.ts';
import { defaultErrorMessage } from '../qa/faults.ts';
import { parseAnswer, providerUrlOf, sendToProvider, type ProviderTarget } from './forward.ts';
import { createRecordings } from './recordings.ts';
import { createRouting, recordingOf } from './routing.ts';
import { createShadowMembers, vouchedBy } from './shadow.ts';
import { JSON_TYPE } from '../../core/answer-headers.ts';

/** What the drift checker (drift.ts) needs: every provider answer, after it went out. */
export interface DriftChecker {
  check(name: ProcedureName, status: number, body: unknown): void;
}

export interface GatewayOptions {
  /** The real provider; absent: nothing is forwarded (routing defaults to mock, recordings still replay). */
  provider?: ProviderTarget;
  /** Folder of the HAR recordings; null: a temporary one (an in-memory database). */
  recordingsDir: string | null;
  drift?: DriftChecker;
}

/** Tokens the provider refused when asked (a profile read): not asked again. */
const MAX_REFUSED = 1_000;

/** The failure text of a provider body, as the client reads it (spec §8): Error, error, or message. */
function failureText(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['Error', 'error', 'message'])
    if (typeof record[key] === 'string' && record[key]) return record[key];
  return undefined;
}

export function createGateway(services: Services, options: GatewayOptions) {
  const { provider, drift } = options;
  const routing = createRouting(provider ? 'provider' : 'mock');
  const recordings = createRecordings(options.recordingsDir);
  const shadow = createShadowMembers(services);
  const refused = new Set<string>();

  /**
   * Sends an answer out as the transport expects it: REST the status and bytes as they came,
   * tRPC the parsed result or the error of that status. A body that is not JSON becomes a 502.
   */
  const deliver = (
    call: Call,
    source: Source,
    status: number,
    text: string,
    contentType: string | undefined,
    providerMs: number | null,
  ): unknown => {
    let json = parseAnswer(text);
    if (json === undefined) {
      const what =
        text.trim() === ''
          ? 'an empty body'
          : `a body that is not JSON (${contentType ?? 'no content type'}, ${Buffer.byteLength(text)} bytes)`;
      const message = `The provider answered ${contract[call.name].path} with HTTP ${status} and ${what}`;
      status = 502;
      json = errorBody(status, message);
      text = JSON.stringify(json);
      contentType = JSON_TYPE;
    }
    call.answered = { source, status, body: json, providerMs };
    const { exchange } = call;
    if (exchange.transport === 'rest') {
      // Logged here (the app's closing hook would otherwise call a forwarded 5xx unexplained); tRPC logs its own.
      if (status >= 500)
        logServerError(
          exchange.request,
          undefined,
          `${source} answered ${status}: ${failureText(json) ?? defaultErrorMessage(status)}`,
          { procedure: call.name },
          'warn',
        );
      exchange.reply.code(status).header('content-type', contentType ?? JSON_TYPE);
      return text;
    }
    if (status >= 400) throw new AppError(status, failureText(json) ?? defaultErrorMessage(status));
    return json;
  };

  const fromProvider = async (call: Call): Promise<unknown> => {
    if (!provider)
      return deliver(
        call,
        'provider',
        502,
        JSON.stringify(errorBody(502, 'PROVIDER_URL is not set: there is no provider to forward to')),
        JSON_TYPE,
        null,
      );
    const answer = await sendToProvider(
      provider,
      call.name,
      JSON.stringify(call.input ?? {}),
      call.caller.authorization,
      call.caller.userAgent,
    );
    if (!answer.failure) {
      const json = parseAnswer(answer.text);
      const vouched = vouchedBy(
        call.name,
        call.input,
        callToken(call.name, call.input, call.caller),
        answer.status,
        json,
      );
      if (vouched) shadow.learn(vouched.token, vouched.username);
      if (recordings.recording)
        recordings.add({
          name: call.name,
          url: providerUrlOf(provider, call.name),
          at: services.clock.now(),
          requestBody: call.input ?? {},
          authorization: call.caller.authorization !== undefined,
          status: answer.status,
          responseText: answer.text,
          contentType: answer.contentType,
          providerMs: answer.providerMs,
        });
      // After the answer has gone out: the check costs the caller nothing.
      if (drift && json !== undefined) setImmediate(() => drift.check(call.name, answer.status, json));
    }
    return deliver(call, 'provider', answer.status, answer.text, answer.contentType, answer.providerMs);
  };

  const fromRecording = (call: Call, name: string): unknown => {
    const source: Source = `recording:${name}`;
    try {
      const replayed = recordings.replay(name, call.name, call.input);
      return deliver(call, source, replayed.status, replayed.text, replayed.contentType, null);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Unmatched, or the recording is gone or unreadable: what a provider would say, 502.
      return deliver(call, source, 502, JSON.stringify(errorBody(502, error.message)), JSON_TYPE, null);
    }
  };

  /** The username of a provider token the stand-in never saw, asked of the provider (one profile read), or null. */
  const askProvider = async (token: string): Promise<string | null> => {
    if (!provider || refused.has(token)) return null;
    const answer = await sendToProvider(provider, 'user.view_profile', '{}', `Bearer ${token}`);
    const vouched = answer.failure
      ? null
      : vouchedBy('user.view_profile', {}, token, answer.status, parseAnswer(answer.text));
    if (vouched) {
      shadow.learn(token, vouched.username);
      return vouched.username;
    }
    // Only a refusal is remembered: a timeout may pass.
    if (!answer.failure) {
      if (refused.size >= MAX_REFUSED) refused.clear();
      refused.add(token);
    }
    return null;
  };

  /** The stand-in answers; a provider token the provider vouched for acts as its (shadow) member. */
  const fromMock = async (call: Call, next: () => Promise<unknown>): Promise<unknown> => {
    const token = callToken(call.name, call.input, call.caller);
    if (token) {
      const username =
        shadow.usernameOf(token) ?? (shadow.isStandinToken(token) ? null : await askProvider(token));
      if (username) {
        const standin = shadow.standinTokenFor(username);
        // Not `{ ...caller, field }`: see transport/invoke.ts.
        call.caller = Object.assign({}, call.caller, { authorization: `Bearer ${standin}` });
        call.input = shadow.withToken(call.name, call.input, standin);
      }
    }
    return next();
  };

  /** Whether the gateway only passes the call on: the stand-in answers it, with no provider to ask about its token. */
  const passes = (call: Call) => !provider && routing.targetOf(call.name) === 'mock';

  const intercept: Interceptor = (call, next) => {
    // No promise of the gateway's own per call.
    if (passes(call)) return next();
    const target = routing.targetOf(call.name);
    if (target === 'mock') return fromMock(call, next);
    const recording = recordingOf(target);
    return recording ? Promise.resolve().then(() => fromRecording(call, recording)) : fromProvider(call);
  };

  return {
    intercept,
    passes,
    routing,
    recordings,
    /** The username of a provider token the provider vouched for (the journal and fault rules name members by it). */
    memberOfToken: (token: string) => shadow.usernameOf(token),
    hasProvider: provider !== undefined,
    provider,
    close: () => recordings.close(),
  };
}
export type Gateway = ReturnType<typeof createGateway>;
