/**
 * Writes the declared world state's JSON Schema (packages/shared/world-state.schema.json) from the
 * zod schema: run after changing packages/shared/src/world-state.ts (a test fails while the file
 * is stale). `npm run world-state:schema`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'prettier';
import { WORLD_STATE_SCHEMA_FILE, worldStateJsonSchema } from '../packages/shared/src/world-state.ts';

const file = join(import.meta.dirname, '..', WORLD_STATE_SCHEMA_FILE);
writeFileSync(file, await format(JSON.stringify(worldStateJsonSchema()), { filepath: file }));
console.log(`wrote ${WORLD_STATE_SCHEMA_FILE}`);
