/**
 * Recordings of provider exchanges, as HAR 1.2 files beside the database
 * (`<database>.recordings/<name>.har`; an in-memory database gets a temporary folder), redacted
 * (the strings of passwords, codes, OTPs, tokens, JWTs, keys and secrets, the Authorization
 * header). Routing an endpoint to `recording:<name>` answers from the file: the first recorded
 * exchange with the same method, path and body (token fields ignored, secrets compared as
 * redacted) answers, then the next one recorded for that request, the last one repeating.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, type ProcedureName } from '@md/shared';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import { isSecretField, REDACTED } from '../qa/journal.ts';

export const RECORDING_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const NAME_RULE = "Recording names are 1–64 letters, digits, '-' or '_'";
const HAR_MIME = 'application/json';

export interface RecordingInfo {
  name: string;
  /** Exchanges recorded so far. */
  entries: number;
  /** True while provider exchanges are being added to it. */
  recording: boolean;
  /** Bytes of the HAR file. */
  size: number;
  createdAt: string;
}

interface HarHeader {
  name: string;
  value: string;
}
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: HarHeader[];
    queryString: HarHeader[];
    cookies: unknown[];
    headersSize: number;
    bodySize: number;
    postData: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HarHeader[];
    cookies: unknown[];
    content: { size: number; mimeType: string; text: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** HAR's custom field: the contract procedure, so a replay need not parse URLs. */
  _procedure: ProcedureName;
}
export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; pages?: unknown[]; entries: HarEntry[] };
}

/** One exchange to record: what was sent and what the provider answered. */
export interface Exchange {
  name: ProcedureName;
  url: string;
  at: number;
  requestBody: unknown;
  authorization: boolean;
  status: number;
  responseText: string;
  contentType: string | undefined;
  providerMs: number;
}

/** A replayed answer: as the provider gave it (redacted). */
export interface Replayed {
  status: number;
  text: string;
  contentType: string | undefined;
}

export function checkRecordingName(name: unknown): string {
  if (typeof name !== 'string' || !RECORDING_NAME.test(name)) throw badRequest(NAME_RULE);
  return name;
}

// Secrets recognised by their value wherever they sit (as the journal's): JWTs, bearer headers, otpauth URIs.
const SECRET_VALUE = /^(?:eyJ[\w-]*\.[\w-]*\.[\w-]*|Bearer\s+\S+|otpauth:\/\/.*)$/is;

/**
 * A copy with every secret string redacted: the strings of secret fields (journal.ts's list:
 * passwords, codes, OTPs, tokens, JWTs, keys, secrets) and secret-looking strings anywhere.
 * Unlike the journal's listing nothing is cut short, and a boolean or number stays (a
 * `Transaction_Password: true` flag is no secret, and a replay must keep its type).
 */
export function redactSecrets(value: unknown, secret = false): unknown {
  if (typeof value === 'string')
    return value !== '' && (secret || SECRET_VALUE.test(value)) ? REDACTED : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, secret));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, redactSecrets(item, secret || isSecretField(key))]),
  );
}

/** The request body as a replay compares it: without the token field, secrets as '[redacted]', keys sorted. */
export function matchKey(name: ProcedureName, body: unknown): string {
  const rest =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? { ...(body as Record<string, unknown>) }
      : body;
  const field = contract[name].tokenField;
  if (field && rest && typeof rest === 'object') delete (rest as Record<string, unknown>)[field];
  return stableJson(redactSecrets(rest ?? {}));
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** The answer's text redacted: JSON through redactSecrets(); anything else kept (it holds no field names to judge by). */
function redactText(text: string): string {
  try {
    return JSON.stringify(redactSecrets(JSON.parse(text)));
  } catch {
    return text;
  }
}

function toEntry(exchange: Exchange): HarEntry {
  const requestText = JSON.stringify(redactSecrets(exchange.requestBody ?? {}));
  const responseText = redactText(exchange.responseText);
  return {
    startedDateTime: new Date(exchange.at).toISOString(),
    time: exchange.providerMs,
    request: {
      method: 'POST',
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      headers: [
        { name: 'content-type', value: HAR_MIME },
        ...(exchange.authorization ? [{ name: 'authorization', value: REDACTED }] : []),
      ],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: Buffer.byteLength(requestText),
      postData: { mimeType: HAR_MIME, text: requestText },
    },
    response: {
      status: exchange.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: exchange.contentType ? [{ name: 'content-type', value: exchange.contentType }] : [],
      cookies: [],
      content: {
        size: Buffer.byteLength(responseText),
        mimeType: exchange.contentType ?? '',
        text: responseText,
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: Buffer.byteLength(responseText),
    },
    cache: {},
    timings: { send: 0, wait: exchange.providerMs, receive: 0 },
    _procedure: exchange.name,
  };
}

const emptyHar = (): Har => ({
  log: { version: '1.2', creator: { name: 'member-dashboard gateway', version: '1' }, entries: [] },
});

/** How often, at most, a recording being made is written to its file. */
const FLUSH_MS = 500;

/** A recording's POST entries by `procedure|matchKey`, in recorded order; rebuilt when entries were added. */
const indexes = new WeakMap<Har, { entries: number; byKey: Map<string, HarEntry[]> }>();
function indexOf(har: Har): Map<string, HarEntry[]> {
  const known = indexes.get(har);
  if (known && known.entries === har.log.entries.length) return known.byKey;
  const byKey = new Map<string, HarEntry[]>();
  for (const entry of har.log.entries) {
    // A file edited by hand may name what the contract does not: such entries match nothing.
    if (entry.request.method !== 'POST' || !Object.hasOwn(contract, entry._procedure)) continue;
    const key = `${entry._procedure}|${matchKey(entry._procedure, safeParse(entry.request.postData?.text))}`;
    const list = byKey.get(key);
    if (list) list.push(entry);
    else byKey.set(key, [entry]);
  }
  indexes.set(har, { entries: har.log.entries.length, byKey });
  return byKey;
}

/** `directory`: where the files go; null for a temporary folder (an in-memory database), removed by close(). */
export function createRecordings(directory: string | null) {
  let dir = directory;
  let temporary = false;
  const folder = () => {
    if (!dir) {
      dir = mkdtempSync(join(tmpdir(), 'md-recordings-'));
      temporary = true;
    }
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const fileOf = (name: string) => join(folder(), `${name}.har`);
  /** Recordings being made: name → the HAR in memory (written at most every FLUSH_MS, and at stop and close). */
  const active = new Map<string, Har>();
  /** Recordings with exchanges their file does not hold yet. */
  const dirty = new Set<string>();
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** Replay positions: `recording|procedure|body` → how many matches were answered. */
  const replayed = new Map<string, number>();
  /** Loaded files (replays read often): name → entries and the file's mtime when read. */
  const loaded = new Map<string, { har: Har; mtimeMs: number }>();

  const write = (name: string, har: Har) => {
    const file = fileOf(name);
    const partial = `${file}.partial`;
    writeFileSync(partial, JSON.stringify(har, null, 1));
    renameSync(partial, file);
  };

  const flush = () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    for (const name of dirty) {
      const har = active.get(name);
      if (har) write(name, har);
    }
    dirty.clear();
  };
  /** One write of each recording per FLUSH_MS, whatever the number of exchanges: the whole file is rewritten each time. */
  const flushSoon = () => {
    if (flushTimer) return;
    flushTimer = setTimeout(flush, FLUSH_MS);
    flushTimer.unref();
  };

  const read = (name: string): Har => {
    const live = active.get(name);
    if (live) return live;
    const file = fileOf(name);
    if (!existsSync(file)) throw notFound(`No recording named '${name}'`);
    const mtimeMs = statSync(file).mtimeMs;
    const cached = loaded.get(name);
    if (cached && cached.mtimeMs === mtimeMs) return cached.har;
    let har: Har;
    try {
      har = JSON.parse(readFileSync(file, 'utf8')) as Har;
      if (!Array.isArray(har?.log?.entries)) throw new Error('no log.entries');
    } catch (error) {
      throw new AppError(409, `Recording '${name}' cannot be read as HAR: ${(error as Error).message}`);
    }
    loaded.set(name, { har, mtimeMs });
    return har;
  };

  const info = (name: string): RecordingInfo => {
    const file = fileOf(name);
    const stat = existsSync(file) ? statSync(file) : null;
    return {
      name,
      entries: read(name).log.entries.length,
      recording: active.has(name),
      size: stat?.size ?? 0,
      createdAt: (stat?.birthtime ?? new Date()).toISOString(),
    };
  };

  return {
    exists: (name: string) => active.has(name) || existsSync(fileOf(name)),

    list(): RecordingInfo[] {
      const names = readdirSync(folder())
        .filter((f) => f.endsWith('.har') && RECORDING_NAME.test(f.slice(0, -'.har'.length)))
        .map((f) => f.slice(0, -'.har'.length));
      return names.sort().map(info);
    },

    /** Starts recording under `name` (a new, empty recording: an existing one of that name is replaced). */
    start(name: string): RecordingInfo {
      checkRecordingName(name);
      const har = emptyHar();
      active.set(name, har);
      loaded.delete(name);
      write(name, har);
      return info(name);
    },

    stop(name: string): RecordingInfo {
      checkRecordingName(name);
      if (!active.has(name)) throw notFound(`No recording named '${name}' is being made`);
      write(name, active.get(name)!);
      active.delete(name);
      dirty.delete(name);
      return info(name);
    },

    remove(name: string) {
      checkRecordingName(name);
      if (!this.exists(name)) throw notFound(`No recording named '${name}'`);
      active.delete(name);
      dirty.delete(name);
      loaded.delete(name);
      for (const key of replayed.keys()) if (key.startsWith(`${name}|`)) replayed.delete(key);
      rmSync(fileOf(name), { force: true });
    },

    /** Whether anything is being recorded (cheap: checked on every provider answer). */
    get recording() {
      return active.size > 0;
    },

    /** Adds a provider exchange to every recording being made. */
    add(exchange: Exchange) {
      if (active.size === 0) return;
      const entry = toEntry(exchange);
      for (const [name, har] of active) {
        har.log.entries.push(entry);
        dirty.add(name);
      }
      flushSoon();
    },

    /** Forgets where replays stand, so each recorded sequence starts over (a new routing to it). */
    rewind(name?: string) {
      if (name === undefined) replayed.clear();
      else for (const key of replayed.keys()) if (key.startsWith(`${name}|`)) replayed.delete(key);
    },

    /**
     * The recorded answer for a call, or an AppError naming what was not recorded: the
     * endpoint and the fields of the body (values of secret fields redacted).
     */
    replay(recording: string, name: ProcedureName, body: unknown): Replayed {
      const har = read(recording);
      const key = matchKey(name, body);
      const matches = indexOf(har).get(`${name}|${key}`) ?? [];
      if (matches.length === 0) {
        const sameEndpoint = har.log.entries.filter((entry) => entry._procedure === name).length;
        throw new AppError(
          502,
          `Recording '${recording}' holds no ${contract[name].path} call with the body ${key}` +
            (sameEndpoint > 0
              ? ` (it holds ${sameEndpoint} with other bodies)`
              : ' (it holds none of that endpoint)'),
        );
      }
      const position = `${recording}|${name}|${key}`;
      const used = replayed.get(position) ?? 0;
      replayed.set(position, used + 1);
      const entry = matches[Math.min(used, matches.length - 1)]!;
      return {
        status: entry.response.status,
        text: entry.response.content.text,
        contentType: entry.response.content.mimeType || undefined,
      };
    },

    close() {
      clearTimeout(flushTimer);
      for (const [name, har] of active) write(name, har);
      active.clear();
      dirty.clear();
      if (temporary && dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type Recordings = ReturnType<typeof createRecordings>;

function safeParse(text: string | undefined): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : {};
  } catch {
    return text;
  }
}
