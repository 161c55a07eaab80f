/**
 * Fault and latency rules of the QA surface (DESIGN §5): which contract calls misbehave and how.
 * A rule names an endpoint (or '*'), optionally a member, and one effect; the store picks the rule
 * that applies to a call. The effects themselves are carried out by the interceptor (surface.ts),
 * which owns the HTTP exchange.
 */
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { contract, endpointByPath, firstIssueMessage, procedureNames, type ProcedureName } from '@md/shared';
import { badRequest } from '../../core/errors.ts';

/** What a malformed answer looks like: JSON cut off mid-way, as a broken proxy would send it. */
export const MALFORMED_BODY = '{"Success": [{"Username": "demo", "Amount": 12.5';

const MAX_DELAY_MS = 300_000;
const delayMs = z
  .number({ error: 'delays are numbers of milliseconds' })
  .int({ error: 'delays are whole milliseconds' })
  .min(0, { error: 'delays cannot be negative' })
  .max(MAX_DELAY_MS, { error: `delays are at most ${MAX_DELAY_MS} ms` });
/** The object's own message for a non-object; other issues (unknown keys) keep theirs. */
export const objectError = (message: string) => (issue: { code: string }) =>
  issue.code === 'invalid_type' ? message : undefined;
const flag = (name: string) => z.boolean({ error: `${name} must be true or false` }).optional();

/** The fields of a rule besides its endpoint: also the shape of the one-request X-QA-Fault header. */
const effectShape = {
  member: z
    .string({ error: 'member must be a username' })
    .trim()
    .min(1, { error: 'member must be a username' })
    .max(64)
    .transform((v) => v.toLowerCase())
    .optional(),
  status: z
    .number({ error: 'status must be an HTTP status code' })
    .int({ error: 'status must be an HTTP status code' })
    .min(200, { error: 'status must be 200–599' })
    .max(599, { error: 'status must be 200–599' })
    .optional(),
  error: z
    .string({ error: 'error must be a message (a string)' })
    .min(1, { error: 'error must not be empty' })
    .max(1000)
    .optional(),
  body: z.json({ error: 'body must be JSON' }).optional(),
  delayMs: delayMs.optional(),
  delay: z
    .object(
      { min: delayMs, max: delayMs },
      { error: objectError('delay must be { min, max } in milliseconds') },
    )
    .strict()
    .refine((d) => d.min <= d.max, { error: 'delay.min must not be above delay.max' })
    .optional(),
  hang: flag('hang'),
  malformed: flag('malformed'),
  empty: flag('empty'),
  drop: flag('drop'),
  probability: z
    .number({ error: 'probability must be a number from 0 to 1' })
    .min(0, { error: 'probability must be from 0 to 1' })
    .max(1, { error: 'probability must be from 0 to 1' })
    .default(1),
};

type EffectFields = z.output<z.ZodObject<typeof effectShape>>;

/** One effect per rule; `status` may go with error, body, empty or malformed. Null when coherent. */
function incoherence(rule: EffectFields): string | null {
  const answers: string[] = (['hang', 'drop', 'empty', 'malformed'] as const).filter((k) => rule[k]);
  if (rule.body !== undefined) answers.push('body');
  if (rule.error !== undefined) answers.push('error');
  if (answers.length > 1)
    return `Choose one of hang, drop, empty, malformed, body or error (got ${answers.join(', ')})`;
  if (rule.delayMs !== undefined && rule.delay)
    return 'Give either delayMs (fixed) or delay { min, max } (random), not both';
  if (rule.hang && (rule.delayMs !== undefined || rule.delay))
    return 'hang never answers: a delay has no meaning with it';
  if (rule.status !== undefined && (rule.hang || rule.drop))
    return `status has no meaning with ${rule.hang ? 'hang' : 'drop'}: nothing is answered`;
  if (
    rule.status !== undefined &&
    rule.status < 400 &&
    rule.body === undefined &&
    !rule.empty &&
    !rule.malformed
  )
    return 'A status below 400 needs body, empty or malformed; alone (or with error) status answers { Error } and must be 400–599';
  const hasEffect =
    answers.length > 0 || rule.status !== undefined || rule.delayMs !== undefined || rule.delay !== undefined;
  if (!hasEffect)
    return 'A rule needs an effect: status, error, body, delayMs, delay, hang, malformed, empty or drop';
  return null;
}

const coherent = <T extends EffectFields>(rule: T, ctx: z.RefinementCtx) => {
  const problem = incoherence(rule);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

/** Endpoint of a rule or filter: the provider path, its procedure name, or '*' (every endpoint). */
export function resolveEndpoint(value: string): ProcedureName | '*' | null {
  const v = value.trim();
  if (v === '*') return '*';
  const byPath = endpointByPath.get(v) ?? endpointByPath.get(`/${v.replace(/^\/+/, '')}`);
  if (byPath) return byPath;
  return (procedureNames as readonly string[]).includes(v) ? (v as ProcedureName) : null;
}

/** A rule's, a filter's or a routing entry's `path`, resolved to its procedure (or '*'). */
export const endpointField = z
  .string({
    error:
      "path is required: an endpoint path such as '/user/view_profile', its procedure name 'user.view_profile', or '*'",
  })
  .transform((v, ctx) => {
    const name = resolveEndpoint(v);
    if (!name) {
      ctx.addIssue({
        code: 'custom',
        message: `Unknown endpoint '${v.slice(0, 100)}': use a contract path such as '/user/view_profile', its procedure name 'user.view_profile', or '*'`,
      });
      return z.NEVER;
    }
    return name;
  });

export const ruleInput = z
  .object(
    {
      path: endpointField,
      ...effectShape,
      times: z
        .number({ error: 'times must be a whole number' })
        .int({ error: 'times must be a whole number' })
        .min(1, { error: 'times must be at least 1' })
        .max(1_000_000)
        .optional(),
    },
    { error: objectError('The body must be a JSON object (a fault rule)') },
  )
  .strict()
  .superRefine(coherent);
export type RuleInput = z.output<typeof ruleInput>;

/** The X-QA-Fault header: a rule for the request that carries it (no path, no times). */
export const headerRuleInput = z
  .object(effectShape, { error: objectError('X-QA-Fault must be a JSON object') })
  .strict()
  .superRefine(coherent);
export type HeaderRule = z.output<typeof headerRuleInput>;

/** What a picked rule does to one call (random delays already drawn). */
export type Effect =
  | { kind: 'pass' }
  | { kind: 'error'; status: number; message: string }
  | { kind: 'body'; status: number; body: unknown }
  | { kind: 'raw'; status: number; text: string; what: 'empty' | 'malformed' }
  | { kind: 'drop' }
  | { kind: 'hang' };

export interface AppliedFault {
  /** The rule's id, or 'header' for an X-QA-Fault rule. */
  id: string;
  delayMs: number;
  effect: Effect;
}

export interface StoredRule extends RuleInput {
  id: string;
  /** How many more times the rule applies; absent: until deleted. */
  remaining?: number;
  applied: number;
  createdAt: string;
}

export const defaultErrorMessage = (status: number) => STATUS_CODES[status] ?? `HTTP ${status}`;

/** mulberry32: a tiny seeded generator, so probabilities and random delays replay in tests. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createFaultStore(random: () => number = Math.random) {
  let rules: StoredRule[] = [];
  let nextId = 1;
  let draw = random;

  const effectOf = (rule: EffectFields): Effect => {
    if (rule.drop) return { kind: 'drop' };
    if (rule.hang) return { kind: 'hang' };
    if (rule.empty) return { kind: 'raw', status: rule.status ?? 200, text: '', what: 'empty' };
    if (rule.malformed)
      return { kind: 'raw', status: rule.status ?? 200, text: MALFORMED_BODY, what: 'malformed' };
    if (rule.body !== undefined) return { kind: 'body', status: rule.status ?? 200, body: rule.body };
    if (rule.error !== undefined || rule.status !== undefined) {
      const status = rule.status ?? 500;
      return { kind: 'error', status, message: rule.error ?? defaultErrorMessage(status) };
    }
    return { kind: 'pass' };
  };

  const delayOf = (rule: EffectFields) =>
    rule.delayMs ??
    (rule.delay ? rule.delay.min + Math.floor(draw() * (rule.delay.max - rule.delay.min + 1)) : 0);

  // Only a probability below 1 draws a number, so a seeded sequence is not consumed by sure rules.
  const fires = (rule: EffectFields) =>
    rule.probability >= 1 || (rule.probability > 0 && draw() < rule.probability);
  const matches = (rule: StoredRule | HeaderRule, member: string | null) =>
    rule.member === undefined || rule.member === member;

  return {
    list: (): StoredRule[] => rules.map((r) => ({ ...r })),
    /** Whether any stored rule could apply to a call. */
    get active() {
      return rules.length > 0;
    },

    add(input: RuleInput): StoredRule {
      const rule: StoredRule = {
        ...input,
        id: `f${nextId++}`,
        applied: 0,
        createdAt: new Date().toISOString(),
      };
      if (input.times !== undefined) rule.remaining = input.times;
      rules.push(rule);
      return { ...rule };
    },

    remove(id: string): boolean {
      const before = rules.length;
      rules = rules.filter((r) => r.id !== id);
      return rules.length < before;
    },

    clear(): number {
      const n = rules.length;
      rules = [];
      return n;
    },

    seed(seed: number) {
      draw = seededRandom(seed);
    },

    /**
     * The fault for one call: the request's header rule first, then the stored rules in the
     * order they were added; the first that matches the endpoint and member and whose
     * probability fires applies. `times` counts applications; a rule used up is removed.
     */
    pick(name: ProcedureName, member: string | null, header: HeaderRule | null): AppliedFault | null {
      if (header && matches(header, member) && fires(header))
        return { id: 'header', delayMs: delayOf(header), effect: effectOf(header) };
      for (const rule of rules) {
        if ((rule.path !== '*' && rule.path !== name) || !matches(rule, member) || !fires(rule)) continue;
        rule.applied += 1;
        if (rule.remaining !== undefined && --rule.remaining <= 0) rules = rules.filter((r) => r !== rule);
        return { id: rule.id, delayMs: delayOf(rule), effect: effectOf(rule) };
      }
      return null;
    },
  };
}
export type FaultStore = ReturnType<typeof createFaultStore>;

/** A rule as the API shows it: the endpoint as its provider path, plus its procedure name. */
export const ruleView = (rule: StoredRule) => {
  const { id, path, ...rest } = rule;
  return { id, path: path === '*' ? '*' : contract[path].path, procedure: path, ...rest };
};

/** Parses the X-QA-Fault header; a bad one is a 400 and the request does nothing else. */
export function parseHeaderRule(raw: string | string[] | undefined): HeaderRule | null {
  if (raw === undefined) return null;
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest('X-QA-Fault is not valid JSON: send a rule such as {"status":500,"error":"Boom"}');
  }
  const parsed = headerRuleInput.safeParse(json);
  if (!parsed.success) throw badRequest(`X-QA-Fault: ${firstIssueMessage(parsed.error)}`);
  return parsed.data;
}
