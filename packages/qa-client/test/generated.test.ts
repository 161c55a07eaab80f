import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../apps/server/src/modules/docs/openapi.ts';
import { GENERATED_FILE, qaDocument, qaPathsSource } from '../scripts/qa-paths.ts';

describe('the generated QA types', () => {
  it('are what the OpenAPI document makes now (else: npm run generate -w @md/qa-client)', async () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(await qaPathsSource());
  }, 60_000);

  it('come from every /__qa path of the document and only those, with the components they reach', () => {
    const document = buildOpenApiDocument({ qaControl: true, origin: 'http://localhost' });
    const qa = qaDocument(document);
    const qaPaths = Object.keys(document.paths).filter((path) => path.startsWith('/__qa/'));
    expect(Object.keys(qa.paths!)).toEqual(qaPaths);
    expect(qaPaths).toContain('/__qa/worlds');
    // Reached through a path (the declared state) and through another component (a member of it).
    expect(qa.components!.schemas).toHaveProperty('WorldState');
    expect(qa.components!.schemas).toHaveProperty('WorldMember');
    expect(qa.components!.responses).toHaveProperty('NotFound');
    // The contract's own schemas stay out.
    expect(Object.keys(qa.components!.schemas!).length).toBeLessThan(
      Object.keys(document.components.schemas).length,
    );
    const refs = JSON.stringify(qa).match(/#\/components\/\w+\/[^"]+/g) ?? [];
    for (const ref of refs) {
      const [, , kind, name] = ref.split('/');
      expect((qa.components as Record<string, Record<string, unknown>>)[kind!], ref).toHaveProperty([name!]);
    }
  });
});
