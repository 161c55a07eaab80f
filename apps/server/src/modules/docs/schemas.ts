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

const rewriteRefs = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof inner === 'string' && inner.startsWith(DEFS_PREFIX) ? COMPONENT_PREFIX + inner.slice(DEFS_PREFIX.length) : rewriteRefs(inner);
  }
  return out;
};

export interface SchemaConverter {
  /** JSON Schema of `schema` as a request body reads it (`input`) or as a response carries it (`output`). */
  convert(schema: z.core.$ZodType, io: Io): JsonSchema;
  /** The named schemas met so far, for `components.schemas`. */
  readonly components: Record<string, JsonSchema>;
  /** Notes about types that have no JSON Schema form (none today; kept visible for tests). */
  readonly unrepresentable: string[];
}

/** `names`: schema → component name; a schema with a name is emitted once and referenced. */
export function createSchemaConverter(names: ReadonlyMap<z.core.$ZodType, string>): SchemaConverter {
  const metadata = new NamingRegistry(names);
  const components: Record<string, JsonSchema> = {};
  const unrepresentable: string[] = [];

  const convert = (schema: z.core.$ZodType, io: Io): JsonSchema => {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      metadata,
      // Transforms on the output side, custom types: an open schema that says why, not a crash.
      unrepresentable: ({ message, path }) => {
        unrepresentable.push(`${path.join('.') || '(root)'}: ${message}`);
        return { description: `Checked by the server; no JSON Schema form (${message}).` };
      },
      override: ({ zodSchema, jsonSchema }) => {
        // A plain z.object strips unknown keys rather than refusing them; zod's output side says
        // `additionalProperties: false` because the parsed value has none. On the wire a response
        // may carry more (the client tolerates it), so only strict objects keep the `false`.
        const def = zodSchema._zod.def;
        if (io === 'output' && def.type === 'object' && !def.catchall && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
        const messages = refinementMessages(zodSchema);
        if (messages.length === 0) return;
        jsonSchema['x-checks'] = messages;
        const note = `Also checked: ${messages.map((m) => `“${m}”`).join('; ')}.`;
        jsonSchema.description = jsonSchema.description ? `${jsonSchema.description}. ${note}` : note;
      },
    }) as Record<string, unknown>;
    const { $schema: _dialect, $defs, ...rest } = json;
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
      const rewritten = rewriteRefs(def) as JsonSchema;
      const known = components[name];
      // One name must mean one shape; an input and an output reading that differ would need two names.
      if (known && JSON.stringify(known) !== JSON.stringify(rewritten)) throw new Error(`Schema component ${name} has two different shapes (${io})`);
      components[name] = rewritten;
    }
    return rewriteRefs(rest) as JsonSchema;
  };

  return { convert, components, unrepresentable };
}
