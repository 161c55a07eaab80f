/**
 * The source of src/generated/qa-paths.ts: openapi-typescript's types for the `/__qa` paths of the
 * server's OpenAPI document, built in this process exactly as the server builds it, with only the
 * components those paths reach. generate.ts writes it; test/generated.test.ts checks it is current.
 */
import { join } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { buildOpenApiDocument, type OpenApiDocument } from '../../../apps/server/src/modules/docs/openapi.ts';

export const GENERATED_FILE = join(import.meta.dirname, '../src/generated/qa-paths.ts');

const QA_PREFIX = '/__qa/';
const COMPONENT_REF = /^#\/components\/(\w+)\/([^/]+)$/;

/** Every `$ref` inside `value`, however deep. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
  );
}

/** The document cut to its `/__qa` paths and the components they reach, directly or through others. */
export function qaDocument(document: OpenApiDocument): OpenAPI3 {
  const paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => path.startsWith(QA_PREFIX)),
  );
  const all = document.components as unknown as Record<string, Record<string, unknown>>;
  const reached = new Map<string, Set<string>>();
  const pending = refsIn(paths);
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    const [, kind, name] = COMPONENT_REF.exec(ref) ?? [];
    if (!kind || !name) throw new Error(`A /__qa path refers to ${ref}, outside the document's components`);
    const names = reached.get(kind) ?? reached.set(kind, new Set()).get(kind)!;
    if (names.has(name)) continue;
    names.add(name);
    pending.push(...refsIn(all[kind]?.[name]));
  }
  // In the document's own order, so the output changes only when the document does.
  const components = Object.fromEntries(
    Object.entries(all)
      .filter(([kind]) => reached.has(kind))
      .map(([kind, entries]) => [
        kind,
        Object.fromEntries(Object.entries(entries).filter(([name]) => reached.get(kind)!.has(name))),
      ]),
  );
  return { openapi: document.openapi, info: document.info, paths, components } as OpenAPI3;
}

const HEADER = `${COMMENT_HEADER.trimEnd()}
// Made by packages/qa-client/scripts/generate.ts (npm run generate -w @md/qa-client) from the /__qa
// paths of the server's OpenAPI document; test/generated.test.ts fails when it is out of date.

`;

/** The generated module's text, formatted as the repository formats TypeScript. */
export async function qaPathsSource(): Promise<string> {
  const document = buildOpenApiDocument({
    qaControl: true,
    qaToken: false,
    origin: 'http://localhost',
    rateLimited: [],
  });
  const types = astToString(await openapiTS(qaDocument(document), { silent: true }));
  const prettier = await resolveConfig(GENERATED_FILE);
  return format(HEADER + types, { ...prettier, filepath: GENERATED_FILE });
}
