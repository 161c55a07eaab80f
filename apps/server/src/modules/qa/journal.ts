/**
 * The request journal of the QA surface: the latest contract calls with their requests and
 * answers, secrets redacted, in a bounded ring buffer (memory only; a restart or DELETE clears it).
 * A call records references to its input and answer, never copies (copying every answer made
 * development reads twice as dear); its headers and body are copied with secret fields blanked
 * only when they hold one, so the buffer holds no token; redaction happens when the journal is
 * listed, so no listing ever shows a secret. Recorded objects are never changed: answers from the read cache are shared by every caller.
 */
import type { ProcedureName } from '@md/shared';
import { WrittenAnswer } from '../../core/answer-json.ts';

export const REDACTED = '[redacted]';
export const JOURNAL_CAPACITY = 500;

// Field names compared lower-case without '_' / '-': 'new_password', 'JWT', 'Authorization'.
const SECRET_FIELDS = new Set([
  'password',
  'conpassword',
  'newpassword',
  'oldpassword',
  'confirmpassword',
  'transactionpassword',
  'otp',
  'totp',
  'jwt',
  'token',
  'accesstoken',
  'refreshtoken',
  'authorization',
  'cookie',
  'setcookie',
  'secret',
  'totpsecret',
  'key',
  'apikey',
  'privatekey',
]);
const SECRET_SUFFIXES = ['password', 'token', 'secret', 'otp'];
// Secrets recognised by their value wherever they sit: JWTs, bearer headers, otpauth URIs.
const SECRET_VALUE = /^(?:eyJ[\w-]*\.[\w-]*\.[\w-]*|Bearer\s+\S+|otpauth:\/\/.*)$/is;

const MAX_DEPTH = 12;
const MAX_ITEMS = 100;
const MAX_STRING = 2_000;

// Field names repeat on every row of every answer: each is classified once.
const classified = new Map<string, boolean>();
export function isSecretField(name: string): boolean {
  let secret = classified.get(name);
  if (secret === undefined) {
    const key = name.toLowerCase().replace(/[-_]/g, '');
    secret = SECRET_FIELDS.has(key) || SECRET_SUFFIXES.some((suffix) => key.endsWith(suffix));
    if (classified.size < 10_000) classified.set(name, secret);
  }
  return secret;
}

/**
 * A copy of `value` fit for the journal: secret fields and secret-looking strings become
 * '[redacted]' at any depth; long arrays and strings are cut so the buffer stays small.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    if (SECRET_VALUE.test(value)) return REDACTED;
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} characters)` : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  // An answer written as JSON is listed as the object it sends.
  if (value instanceof WrittenAnswer) return redact(value.toJSON(), depth);
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => redact(item, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`… ${value.length - MAX_ITEMS} more items`);
    return items;
  }
  // Built from entries, so a client's own `__proto__` key stays a key of the copy (assigning it would set the copy's prototype).
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      isSecretField(key) && item !== undefined && item !== null && item !== ''
        ? REDACTED
        : redact(item, depth + 1),
    ]),
  );
}

/**
 * What a record keeps of a request body: the body itself, or, when a top-level field holds what
 * `redact` hides by its name (a body's `jwt`), a shallow copy with '[redacted]' in its place. The
 * listing is the same either way, and the buffer does not hold on to every call's token.
 */
export function keptBody(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const body = value as Record<string, unknown>;
  // First only looked at: most bodies hold no secret, and a token-only body needs no copy of its own.
  let keys = 0;
  let secrets = 0;
  let secret = '';
  for (const key in body) {
    if (!Object.hasOwn(body, key)) continue;
    keys++;
    if (isHeldSecret(key, body[key])) {
      secrets++;
      secret = key;
    }
  }
  if (secrets === 0) return value;
  // A body of its token alone (most REST reads send `{ jwt }`) is kept as one shared copy.
  if (keys === 1) return tokenOnly(secret);
  // A spread defines a client's own `__proto__` key as a key (assigning it would set the prototype).
  const copy: Record<string, unknown> = { ...body };
  for (const key in copy) if (Object.hasOwn(copy, key) && isHeldSecret(key, copy[key])) copy[key] = REDACTED;
  return copy;
}
const isHeldSecret = (key: string, item: unknown) =>
  isSecretField(key) && item !== undefined && item !== null && item !== '' && item !== REDACTED;
const tokenOnlyBodies = new Map<string, Readonly<Record<string, unknown>>>();
const tokenOnly = (key: string): Readonly<Record<string, unknown>> => {
  let shared = tokenOnlyBodies.get(key);
  if (shared) return shared;
  shared = Object.freeze(Object.fromEntries([[key, REDACTED]]) as Record<string, unknown>);
  if (tokenOnlyBodies.size < 100) tokenOnlyBodies.set(key, shared);
  return shared;
};

/**
 * The request headers a record keeps: the headers themselves when none is secret, or a copy with
 * a secret header's value (Authorization, Cookie) as '[redacted]', which the listing shows anyway.
 */
export function keptHeaders(headers: Readonly<Record<string, string | string[] | undefined>>) {
  let secret = false;
  for (const name in headers) {
    if (headers[name] && isSecretField(name)) {
      secret = true;
      break;
    }
  }
  if (!secret) return headers;
  const kept: Record<string, string | string[] | undefined> = {};
  for (const name in headers) {
    const value = headers[name];
    const shown = value && isSecretField(name) ? REDACTED : value;
    // Defined, not assigned: a client's own `__proto__` header would set the copy's prototype.
    if (name === '__proto__') Object.defineProperty(kept, name, { value: shown, enumerable: true });
    else kept[name] = shown;
  }
  return kept;
}

export interface JournalEntry {
  /** Increasing per call; newest first in listings. */
  id: number;
  /** Server clock (the QA clock) when the call arrived. */
  time: string;
  /** Fastify's request id: the calls of one tRPC batch share it. */
  requestId: string;
  method: string;
  /** The HTTP path without its query string (a tRPC GET carries its input there). */
  url: string;
  /** The endpoint's provider path, e.g. '/user/view_profile'. */
  path: string;
  procedure: ProcedureName;
  transport: 'rest' | 'trpc';
  /** HTTP status of this call's answer; null while it runs or when nothing was answered. */
  status: number | null;
  durationMs: number | null;
  /** Username of the token's member (or, for sign-in style calls, the one the body names). */
  member: string | null;
  requestHeaders: unknown;
  requestBody: unknown;
  /** The provider envelope answered (over tRPC: the procedure's result, or { Error }); raw text for empty/malformed. */
  responseBody: unknown;
  /**
   * Who answered: 'mock' (the stand-in's handlers), 'provider' (forwarded in gateway mode) or
   * 'recording:<name>'; null when a fault rule answered without anyone being asked.
   */
  source: 'mock' | 'provider' | `recording:${string}` | null;
  /** How long the provider took (gateway mode, source 'provider'); null otherwise. */
  providerMs: number | null;
  /** The fault rule that shaped the answer: its id ('header' for X-QA-Fault), effect and delay. */
  fault: { id: string; effect: string; delayMs: number } | null;
  pending: boolean;
  /** Set when no answer went out: 'dropped', 'client closed', 'server closing'. */
  outcome?: string | undefined;
}

/**
 * An entry as recorded: `at` is the epoch ms the call arrived, `url` may still carry its query
 * string, and headers and bodies are the call's own objects, unredacted (see `listed`).
 */
export interface JournalRecord extends Omit<JournalEntry, 'time'> {
  at: number;
  /** `performance.now()` when the call arrived, for its duration; not listed. */
  started: number;
}

/** A record as the journal lists it: its time as ISO text, the query string gone, secrets redacted. */
function listed(record: JournalRecord): JournalEntry {
  const { at, started: _started, url, requestHeaders, requestBody, responseBody, outcome, ...rest } = record;
  return {
    ...rest,
    ...(outcome === undefined ? {} : { outcome }),
    time: new Date(at).toISOString(),
    url: url.split('?', 1)[0]!,
    requestHeaders: redact(requestHeaders),
    requestBody: redact(requestBody),
    responseBody: redact(responseBody),
  };
}

/** A record before its call is written in: the shape every slot of the buffer keeps. */
const blankRecord = (): JournalRecord => ({
  id: 0,
  at: 0,
  started: 0,
  requestId: '',
  method: '',
  url: '',
  path: '',
  procedure: 'user.login',
  transport: 'rest',
  status: null,
  durationMs: null,
  member: null,
  requestHeaders: null,
  requestBody: null,
  responseBody: null,
  source: null,
  providerMs: null,
  fault: null,
  pending: true,
  outcome: undefined,
});

export function createJournal(capacity = JOURNAL_CAPACITY) {
  // The records are slots used in turn, not an object per call: what a scavenge finds alive in the
  // buffer is the calls' own headers and bodies alone.
  const ring: (JournalRecord | undefined)[] = new Array(capacity);
  let next = 0;
  let size = 0;
  let nextId = 1;

  /** The oldest slot as a new call's record: emptied, with its id, pending; the caller writes the call in. */
  const start = (): JournalRecord => {
    let record = ring[next];
    // A record still pending stays with its call, which completes it later: the slot gets a new one.
    if (!record || record.pending) record = ring[next] = blankRecord();
    else {
      record.status = null;
      record.durationMs = null;
      record.member = null;
      record.responseBody = null;
      record.source = null;
      record.providerMs = null;
      record.fault = null;
      record.pending = true;
      record.outcome = undefined;
    }
    record.id = nextId++;
    next = (next + 1) % capacity;
    size = Math.min(size + 1, capacity);
    return record;
  };

  return {
    capacity,
    start,
    /** Adds a record written whole (a call refused before its handler) and answers it; its `id` is set here. */
    add(fields: Omit<JournalRecord, 'id' | 'started'>): JournalRecord {
      const record = start();
      const { id } = record;
      return Object.assign(record, fields, { id });
    },
    /** Newest first, optionally only one endpoint's or one member's calls; redacted here. */
    list(filter: { procedure?: ProcedureName | '*'; member?: string; limit: number }): JournalEntry[] {
      const out: JournalEntry[] = [];
      for (let i = 1; i <= size && out.length < filter.limit; i++) {
        const entry = ring[(next - i + capacity) % capacity]!;
        if (filter.procedure && filter.procedure !== '*' && entry.procedure !== filter.procedure) continue;
        if (filter.member && entry.member !== filter.member) continue;
        out.push(listed(entry));
      }
      return out;
    },
    clear(): number {
      const n = size;
      ring.fill(undefined);
      next = 0;
      size = 0;
      return n;
    },
    get size() {
      return size;
    },
  };
}
export type Journal = ReturnType<typeof createJournal>;
