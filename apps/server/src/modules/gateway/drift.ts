/**
 * Drift detection: what the real provider answers that the contract does not describe.
 * Each answer is walked against its endpoint's output schema (and the `{ Error }` envelope for
 * failures) by hand, not with `safeParse`: zod objects strip unknown keys silently and stop at the
 * first union that fails, while drift must name every field the contract does not know, once per
 * endpoint, field path and kind. An array counts as one path ('Success[].Side'); a map's entries
 * are named by their key ('Success.Deposit.Total': the maps of the contract are keyed by a few
 * names, wallets, sides, plans, ranks), cut to MAP_KEY_MAX characters. Only a sample of rows and
 * entries is walked, so a long table costs no more than a short one. The store is memory only and
 * bounded (entries and example sizes).
 */
import type { z } from 'zod';
import { contract, type ProcedureName } from '@md/shared';
import { isSecretField, REDACTED } from '../qa/journal.ts';

export type DriftKind = 'missing' | 'extra' | 'type' | 'value' | 'envelope';

export interface DriftEntry {
  /** The endpoint's provider path, e.g. '/user/view_profile'. */
  path: string;
  /** Where in the answer: 'Success[].Side'; '(body)' for an answer that is not a JSON object. */
  field: string;
  kind: DriftKind;
  /** What the contract says belongs there: 'number', '"0" | "1"', 'absent (not in the contract)'. */
  expected: string;
  /** One example of what the provider sent (the first seen), secrets redacted, cut to a small size. */
  seen: unknown;
  /** How many answers showed it. */
  count: number;
  firstSeen: string;
  lastSeen: string;
}

/** One finding of one answer, before it is counted. */
export interface DriftIssue {
  field: string;
  kind: DriftKind;
  expected: string;
  seen: unknown;
}

/** Distinct (endpoint, field, kind) findings kept; later new ones are counted in `overflow` only. */
export const DRIFT_CAPACITY = 500;
/** Rows of an array (and entries of a map) walked per answer: the first ones and the last few. */
const SAMPLE_HEAD = 20;
const SAMPLE_TAIL = 5;
/** Findings of one answer at most: an answer unlike its schema everywhere still costs little. */
const ISSUES_PER_ANSWER = 100;
// Bounds of an example: strings, items per array, keys per object, depth.
const EXAMPLE_STRING = 120;
const EXAMPLE_ITEMS = 3;
const EXAMPLE_KEYS = 8;
const EXAMPLE_DEPTH = 3;
/** Secrets recognised by their value wherever they sit: JWTs, bearer headers, otpauth URIs. */
const SECRET_VALUE = /^(?:eyJ[\w-]*\.[\w-]*\.[\w-]*|Bearer\s+\S+|otpauth:\/\/.*)$/is;

type Schema = z.core.$ZodType;
type Def = z.core.$ZodTypeDef & Record<string, unknown>;
const defOf = (schema: Schema) => schema._zod.def as Def;

/**
 * A bounded, redacted copy of `value` to show as an example: a secret-named field's value (or a
 * secret-looking string) becomes '[redacted]'; booleans and null stay, they give nothing away.
 */
export function exampleOf(value: unknown, secret = false, depth = 0): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (secret && value !== undefined && typeof value !== 'object') return REDACTED;
  if (typeof value === 'string') {
    if (SECRET_VALUE.test(value)) return REDACTED;
    return value.length > EXAMPLE_STRING
      ? `${value.slice(0, EXAMPLE_STRING)}… (${value.length} characters)`
      : value;
  }
  if (typeof value !== 'object' || value === undefined) return value;
  if (depth >= EXAMPLE_DEPTH) return Array.isArray(value) ? `[… ${value.length} items]` : '{…}';
  if (Array.isArray(value)) {
    const items = value.slice(0, EXAMPLE_ITEMS).map((item) => exampleOf(item, secret, depth + 1));
    if (value.length > EXAMPLE_ITEMS) items.push(`… ${value.length - EXAMPLE_ITEMS} more items`);
    return items;
  }
  const entries = Object.entries(value);
  const shown = entries
    .slice(0, EXAMPLE_KEYS)
    .map(([key, item]) => [key, exampleOf(item, secret || isSecretField(key), depth + 1)]);
  if (entries.length > EXAMPLE_KEYS) shown.push(['…', `${entries.length - EXAMPLE_KEYS} more fields`]);
  // From entries, so a provider's own `__proto__` key stays a key of the copy.
  return Object.fromEntries(shown);
}

const kindOfValue = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Drops optional/nullable/default wrappers (and pipes to what comes in): the schema that describes a present value. */
function unwrap(schema: Schema): Schema {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if (
      def.type === 'optional' ||
      def.type === 'nullable' ||
      def.type === 'default' ||
      def.type === 'prefault' ||
      def.type === 'catch' ||
      def.type === 'readonly' ||
      def.type === 'nonoptional'
    )
      current = def.innerType as Schema;
    else if (def.type === 'pipe') current = def.in as Schema;
    else if (def.type === 'lazy') current = (def.getter as () => Schema)();
    else return current;
  }
  return current;
}

/** The JSON kinds ('string', 'array', 'object', 'null', …) a schema accepts at the top. */
function jsonKindsOf(schema: Schema): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      return jsonKindsOf(def.innerType as Schema);
    case 'nullable':
      return [...jsonKindsOf(def.innerType as Schema), 'null'];
    case 'record':
      return ['object'];
    case 'tuple':
      return ['array'];
    case 'enum':
      return [...new Set(Object.values(def.entries as Record<string, unknown>).map(kindOfValue))];
    case 'literal':
      return [...new Set((def.values as unknown[]).map(kindOfValue))];
    case 'union':
      return (def.options as Schema[]).flatMap(jsonKindsOf);
    default: {
      const inner = unwrap(schema);
      return inner === schema ? [def.type] : jsonKindsOf(inner);
    }
  }
}

const isInteger = (schema: Schema) =>
  ((defOf(schema).checks ?? []) as { _zod: { def: { check: string; format?: string } } }[]).some(
    (check) => check._zod.def.check === 'number_format' && /int/.test(check._zod.def.format ?? ''),
  );

/** The contract's expectation in a few words: 'integer', '"0" | "1"', 'string | null', 'object'. */
export function describeSchema(schema: Schema, depth = 0): string {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
    case 'boolean':
    case 'null':
    case 'object':
      return def.type;
    case 'number':
      return isInteger(schema) ? 'integer' : 'number';
    case 'enum':
      return Object.values(def.entries as Record<string, string | number>)
        .map((v) => JSON.stringify(v))
        .join(' | ');
    case 'literal':
      return (def.values as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
    case 'nullable':
      return `${describeSchema(def.innerType as Schema, depth)} | null`;
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return describeSchema(def.innerType as Schema, depth);
    case 'pipe':
      return describeSchema(def.in as Schema, depth);
    case 'array':
      return depth > 1 ? 'array' : `array of ${describeSchema(def.element as Schema, depth + 1)}`;
    case 'record':
      return 'object (map)';
    case 'tuple':
      return `[${(def.items as Schema[]).map((item) => describeSchema(item, depth + 1)).join(', ')}]`;
    case 'union':
      return (def.options as Schema[]).map((option) => describeSchema(option, depth + 1)).join(' | ');
    case 'unknown':
    case 'any':
      return 'any';
    default:
      return def.type;
  }
}

/** Collects the findings of one answer, each (field, kind) once. */
class Findings {
  readonly issues: DriftIssue[] = [];
  private readonly seen = new Set<string>();
  add(field: string, kind: DriftKind, expected: string, value: unknown) {
    const key = `${field}\u0000${kind}`;
    if (this.seen.has(key) || this.issues.length >= ISSUES_PER_ANSWER) return;
    this.seen.add(key);
    const last = /([^.[\]{}]+)[[\]{}]*$/.exec(field)?.[1] ?? '';
    this.issues.push({ field, kind, expected, seen: exampleOf(value, isSecretField(last)) });
  }
  /** A finding made elsewhere (a union's option), its example already made. */
  push(issue: DriftIssue) {
    const key = `${issue.field}\u0000${issue.kind}`;
    if (this.seen.has(key) || this.issues.length >= ISSUES_PER_ANSWER) return;
    this.seen.add(key);
    this.issues.push(issue);
  }
  get full() {
    return this.issues.length >= ISSUES_PER_ANSWER;
  }
}

const join = (base: string, key: string) => (base ? `${base}.${key}` : key);
/** Characters of a map key kept in a field path (the provider chooses the keys). */
const MAP_KEY_MAX = 64;
const mapKey = (key: string) => (key.length > MAP_KEY_MAX ? `${key.slice(0, MAP_KEY_MAX)}…` : key);
/** Indices walked of a list of `length`: the head and the tail. */
function sampled(length: number): number[] {
  if (length <= SAMPLE_HEAD + SAMPLE_TAIL) return Array.from({ length }, (_, i) => i);
  const head = Array.from({ length: SAMPLE_HEAD }, (_, i) => i);
  return head.concat(Array.from({ length: SAMPLE_TAIL }, (_, i) => length - SAMPLE_TAIL + i));
}

/** Walks `value` against `schema` at `field`, adding what differs to `out`. */
function walk(schema: Schema, value: unknown, field: string, out: Findings): void {
  if (out.full) return;
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      if (value !== undefined) walk(def.innerType as Schema, value, field, out);
      return;
    case 'nullable':
      if (value !== null) walk(def.innerType as Schema, value, field, out);
      return;
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      walk(def.innerType as Schema, value, field, out);
      return;
    case 'pipe':
      walk(def.in as Schema, value, field, out);
      return;
    case 'lazy':
      walk((def.getter as () => Schema)(), value, field, out);
      return;
    case 'unknown':
    case 'any':
      return;
    case 'string':
    case 'boolean':
      if (typeof value !== def.type) out.add(field, 'type', def.type, value);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        out.add(field, 'type', describeSchema(schema), value);
      else if (isInteger(schema) && !Number.isInteger(value)) out.add(field, 'value', 'integer', value);
      return;
    case 'null':
      if (value !== null) out.add(field, 'type', 'null', value);
      return;
    case 'enum': {
      const allowed = Object.values(def.entries as Record<string, string | number>);
      if (!allowed.includes(value as string | number)) {
        const sameKind = allowed.some((option) => typeof option === typeof value);
        out.add(field, sameKind ? 'value' : 'type', describeSchema(schema), value);
      }
      return;
    }
    case 'literal': {
      const allowed = def.values as unknown[];
      if (!allowed.includes(value))
        out.add(
          field,
          allowed.some((option) => typeof option === typeof value) ? 'value' : 'type',
          describeSchema(schema),
          value,
        );
      return;
    }
    case 'object': {
      if (!isPlainObject(value)) return out.add(field, 'type', 'object', value);
      const shape = def.shape as Record<string, Schema>;
      for (const [key, child] of Object.entries(shape)) {
        const present = Object.hasOwn(value, key) && value[key] !== undefined;
        if (!present) {
          if (!child._zod.optin) out.add(join(field, key), 'missing', describeSchema(child), undefined);
        } else walk(child, value[key], join(field, key), out);
      }
      const catchall = def.catchall as Schema | undefined;
      for (const key of Object.keys(value)) {
        if (Object.hasOwn(shape, key)) continue;
        if (catchall) walk(catchall, value[key], join(field, key), out);
        else out.add(join(field, key), 'extra', 'absent (not in the contract)', value[key]);
      }
      return;
    }
    case 'array': {
      if (!Array.isArray(value)) return out.add(field, 'type', describeSchema(schema), value);
      for (const i of sampled(value.length)) walk(def.element as Schema, value[i], `${field}[]`, out);
      return;
    }
    case 'record': {
      if (!isPlainObject(value)) return out.add(field, 'type', 'object (map)', value);
      const keys = Object.keys(value);
      for (const i of sampled(keys.length))
        walk(def.valueType as Schema, value[keys[i]!], join(field, mapKey(keys[i]!)), out);
      return;
    }
    case 'tuple': {
      const items = def.items as Schema[];
      if (!Array.isArray(value)) return out.add(field, 'type', describeSchema(schema), value);
      items.forEach((item, i) => {
        if (i >= value.length) {
          if (!item._zod.optin) out.add(`${field}[${i}]`, 'missing', describeSchema(item), undefined);
        } else walk(item, value[i], `${field}[${i}]`, out);
      });
      for (let i = items.length; i < Math.min(value.length, items.length + 5); i++)
        out.add(`${field}[${i}]`, 'extra', 'absent (not in the contract)', value[i]);
      return;
    }
    case 'union': {
      // The option the value fits without a finding; else the one of its kind that differs least.
      let closest: DriftIssue[] | null = null;
      for (const option of def.options as Schema[]) {
        const trial = new Findings();
        walk(option, value, field, trial);
        if (trial.issues.length === 0) return;
        if (
          jsonKindsOf(option).includes(kindOfValue(value)) &&
          (closest === null || trial.issues.length < closest.length)
        )
          closest = trial.issues;
      }
      if (closest) for (const issue of closest) out.push(issue);
      else out.add(field, 'type', describeSchema(schema), value);
      return;
    }
    default: {
      // A schema kind the walk does not know: zod decides, and the finding names the kind.
      const parsed = (schema as z.ZodType).safeParse(value);
      if (!parsed.success) out.add(field, 'type', describeSchema(schema), value);
    }
  }
}

/**
 * The findings of one answer of endpoint `name` with HTTP `status`. `body` is the parsed JSON, or
 * undefined when the answer was empty or not JSON. A failure (non-2xx, or a 2xx carrying `Error`,
 * which the provider may send and the client reads as a failure) must be `{ Error: string }`; a
 * success must be a JSON object as the endpoint's output schema says.
 */
export function findDrift(name: ProcedureName, status: number, body: unknown): DriftIssue[] {
  const out = new Findings();
  const isSuccess = status >= 200 && status < 300;
  if (!isSuccess || (isPlainObject(body) && 'Error' in body)) {
    if (!isPlainObject(body) || typeof body.Error !== 'string')
      out.add('Error', 'envelope', '{ Error: string }', body === undefined ? '(no JSON body)' : body);
    return out.issues;
  }
  if (!isPlainObject(body)) {
    out.add(
      '(body)',
      'envelope',
      'a JSON object such as { Success: … }',
      body === undefined ? '(no JSON body)' : body,
    );
    return out.issues;
  }
  const output = contract[name].output as unknown as Schema;
  const shape = defOf(unwrap(output)).shape as Record<string, Schema> | undefined;
  if (shape && 'Success' in shape && !Object.hasOwn(body, 'Success')) {
    // Without Success (or Error) the answer is neither envelope: the field-by-field walk would say little more.
    out.add('Success', 'envelope', '{ Success: … } or { Error: string }', body);
    return out.issues;
  }
  walk(output, body, '', out);
  return out.issues;
}

export interface DriftStore {
  /** Records the drift of one provider answer (called after the answer went out). */
  check(name: ProcedureName, status: number, body: unknown): void;
  /** The findings so far, by endpoint path, field and kind. */
  list(): DriftEntry[];
  /** Forgets every finding; answers how many there were. */
  clear(): number;
  /** New findings not kept because the store was full (reset by clear). */
  readonly overflow: number;
}

/** `now`: epoch ms of a finding (the QA clock when the server passes it; the wall clock by default). */
export function createDriftStore(options: { now?: () => number; capacity?: number } = {}): DriftStore {
  const now = options.now ?? Date.now;
  const capacity = options.capacity ?? DRIFT_CAPACITY;
  const entries = new Map<string, DriftEntry>();
  let overflow = 0;

  return {
    check(name, status, body) {
      const entry = contract[name];
      if (!entry) return;
      let issues: DriftIssue[];
      try {
        issues = findDrift(name, status, body);
      } catch {
        // The check runs after the answer went out: it must never take the server down.
        return;
      }
      if (issues.length === 0) return;
      const at = new Date(now()).toISOString();
      for (const issue of issues) {
        const key = `${entry.path}\u0000${issue.field}\u0000${issue.kind}`;
        const known = entries.get(key);
        if (known) {
          known.count += 1;
          known.lastSeen = at;
        } else if (entries.size < capacity) {
          entries.set(key, { path: entry.path, ...issue, count: 1, firstSeen: at, lastSeen: at });
        } else overflow += 1;
      }
    },
    list() {
      return [...entries.values()]
        .map((entry) => ({ ...entry }))
        .sort(
          (a, b) =>
            a.path.localeCompare(b.path) || a.field.localeCompare(b.field) || a.kind.localeCompare(b.kind),
        );
    },
    clear() {
      const n = entries.size;
      entries.clear();
      overflow = 0;
      return n;
    },
    get overflow() {
      return overflow;
    },
  };
}
