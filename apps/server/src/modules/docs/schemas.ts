/**
 * zod → JSON Schema 2020-12 (the dialect of OpenAPI 3.1) for the docs, with z.toJSONSchema.
 * Named schemas of @md/shared become `components.schemas` entries referenced by `$ref`; checks
 * JSON Schema cannot express (refinements) are listed in `x-checks` with their messages, and
 * unrepresentable types become an open schema with a note instead of failing the document.
 */
import { z } from 'zod';

/** A JSON Schema 2020-12 object, as OpenAPI 3.1 Schema Objects are. */
export type JsonSchema = z.core.JSONSchema.BaseSchema;
type Io = 'input' | 'output';

const COMPONENT_PREFIX = '#/components/schemas/';
const DEFS_PREFIX = '#/$defs/';

/**
 * Metadata for the conversion: the descriptions set with `.describe()` live in zod's global
 * registry, so a plain custom registry of ids would drop them; this one answers both.
 */
class NamingRegistry extends z.core.$ZodRegistry<z.core.GlobalMeta> {
  constructor(private readonly names: ReadonlyMap<z.core.$ZodType, string>) {
    super();
  }
  override get<S extends z.core.$ZodType>(schema: S) {
    const base = z.globalRegistry.get(schema);
    const id = this.names.get(schema);
    return (id ? { ...base, id } : base) as ReturnType<z.core.$ZodRegistry<z.core.GlobalMeta>['get']>;
  }
}

/** Messages of a schema's refinements (custom checks): the rules JSON Schema cannot carry. */
function refinementMessages(schema: z.core.$ZodType): string[] {
  const messages: string[] = [];
  for (const check of schema._zod.def.checks ?? []) {
    const def = check._zod.def as { check: string; error?: (issue: unknown) => unknown };
    if (def.check !== 'custom' || typeof def.error !== 'function') continue;
    try {
      const message = def.error({ code: 'custom', input: undefined, path: [] });
      if (typeof message === 'string' && !messages.includes(message)) messages.push(message);
    } catch {
      // A message computed from the input cannot be shown without one: leave it out.
    }
  }
  return messages;
}

/** `#/$defs/X` → `#/components/schemas/<rename[X] ?? X>`, everywhere in a converted schema. */
const rewriteRefs = (value: unknown, rename: Readonly<Record<string, string>>): unknown => {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rename));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string' && inner.startsWith(DEFS_PREFIX)) {
      const id = inner.slice(DEFS_PREFIX.length);
      out[key] = COMPONENT_PREFIX + (rename[id] ?? id);
    } else if (key === '$ref' && inner === '#' && rename[ROOT_ID]) {
      out[key] = COMPONENT_PREFIX + rename[ROOT_ID];
    } else out[key] = rewriteRefs(inner, rename);
  }
  return out;
};

/** zod's own ids for recursive schemas without a name (counted from 0 in every conversion). */
const AUTO_ID = /^__schema\d+$/;
/** A recursive root refers to itself as `#`: inside the document it needs a component too. */
const ROOT_ID = '#';
const selfRef = (id: string) => JSON.stringify(id === ROOT_ID ? ROOT_ID : `${DEFS_PREFIX}${id}`);
/** A recursive def with its own id written as `<self>`, to recognise one shape across conversions. */
const shapeKey = (id: string, def: unknown) =>
  JSON.stringify(def).replaceAll(`"$ref":${selfRef(id)}`, '"$ref":"<self>"');
const JSON_VALUE_KEY = shapeKey(
  ROOT_ID,
  (({ $schema: _dialect, ...rest }) => rest)(z.toJSONSchema(z.json()) as Record<string, unknown>),
);

/**
 * What z.json() becomes: any JSON value, said without recursion. The recursive form (an array or
 * object of JsonValue) breaks Portman and makes openapi-typescript's output fail `tsc --strict`
 * (TS2502), and an open schema allows exactly the same values.
 */
const JSON_VALUE_SCHEMA: JsonSchema = {
  description: 'Any JSON value: string, number, boolean, null, array or object',
};
const JSON_VALUE_NAME = 'JsonValue';

/**
 * A tuple as `items` + `minItems`/`maxItems` instead of `prefixItems` + `items: false`, which Prism,
 * Postman/newman and Spectral do not take: the item schemas are merged (one schema when they agree,
 * else `anyOf`); the order of the positions stays in the tuple's description.
 */
function tupleAsArray(json: JsonSchema) {
  const prefix = json.prefixItems;
  if (!Array.isArray(prefix)) return;
  const rest = json.items;
  const closed = rest === undefined || rest === false;
  const kinds = [
    ...new Map(
      [...prefix, ...(closed ? [] : [rest])].map((item) => [JSON.stringify(item), item as JsonSchema]),
    ).values(),
  ];
  delete json.prefixItems;
  json.items = kinds.length === 1 ? kinds[0] : { anyOf: kinds };
  json.minItems ??= prefix.length;
  if (closed) json.maxItems ??= prefix.length;
}

export interface SchemaConverter {
  /** JSON Schema of `schema` as a request body reads it (`input`) or as a response carries it (`output`). */
  convert(schema: z.core.$ZodType, io: Io): JsonSchema;
  /** The named schemas met so far, for `components.schemas`. */
  readonly components: Record<string, JsonSchema>;
  /** Where a type had no JSON Schema form (none in the contract today). */
  readonly unrepresentable: string[];
}

/** `names`: schema → component name; a schema with a name is emitted once and referenced. */
export function createSchemaConverter(names: ReadonlyMap<z.core.$ZodType, string>): SchemaConverter {
  const metadata = new NamingRegistry(names);
  const components: Record<string, JsonSchema> = {};
  const unrepresentable: string[] = [];
  const autoNames = new Map<string, string>();

  const convert = (schema: z.core.$ZodType, io: Io): JsonSchema => {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      metadata,
      // Transforms on the output side, custom types: an open schema that says why, not a crash.
      unrepresentable: ({ message, path }) => {
        unrepresentable.push(`${path.join('.') || '(root)'}: ${message}`);
        return { description: `No JSON Schema form: ${message}.`, 'x-unrepresentable': message };
      },
      override: ({ zodSchema, jsonSchema }) => {
        // A plain z.object strips unknown keys rather than refusing them; zod's output side says
        // `additionalProperties: false` because the parsed value has none. On the wire a response
        // may carry more (the client tolerates it), so only strict objects keep the `false`.
        const def = zodSchema._zod.def;
        if (def.type === 'tuple') tupleAsArray(jsonSchema);
        if (
          io === 'output' &&
          def.type === 'object' &&
          !def.catchall &&
          jsonSchema.additionalProperties === false
        )
          delete jsonSchema.additionalProperties;
        const messages = refinementMessages(zodSchema);
        if (messages.length === 0) return;
        jsonSchema['x-checks'] = messages;
        const note = `Also checked: ${messages.map((m) => `“${m}”`).join('; ')}.`;
        jsonSchema.description = jsonSchema.description ? `${jsonSchema.description}. ${note}` : note;
      },
    }) as Record<string, unknown>;
    const { $schema: _dialect, $defs, ...root } = json;
    const defs = ($defs ?? {}) as Record<string, unknown>;
    let rest: Record<string, unknown> = root;
    if (JSON.stringify(root).includes(`"$ref":${selfRef(ROOT_ID)}`)) {
      defs[ROOT_ID] = root;
      rest = { $ref: ROOT_ID };
    }
    // Auto ids get one stable name per distinct shape (z.json() → JsonValue), so two conversions
    // neither collide on `__schema0` nor repeat one shape under two names.
    const rename: Record<string, string> = {};
    for (const [id, def] of Object.entries(defs)) {
      if (!AUTO_ID.test(id) && id !== ROOT_ID) continue;
      const key = shapeKey(id, def);
      let name = autoNames.get(key);
      if (!name)
        autoNames.set(
          key,
          (name =
            key === JSON_VALUE_KEY
              ? JSON_VALUE_NAME
              : `Recursive${[...autoNames.values()].filter((n) => n !== JSON_VALUE_NAME).length + 1}`),
        );
      rename[id] = name;
    }
    for (const [id, def] of Object.entries(defs)) {
      const name = rename[id] ?? id;
      const rewritten =
        name === JSON_VALUE_NAME ? JSON_VALUE_SCHEMA : (rewriteRefs(def, rename) as JsonSchema);
      const known = components[name];
      // One name must mean one shape; an input and an output reading that differ would need two names.
      if (known && JSON.stringify(known) !== JSON.stringify(rewritten))
        throw new Error(`Schema component ${name} has two different shapes (${io})`);
      components[name] = rewritten;
    }
    return rewriteRefs(rest, rename) as JsonSchema;
  };

  return { convert, components, unrepresentable };
}
