/** Writes src/generated/qa-paths.ts from the server's OpenAPI document (scripts/qa-paths.ts). */
import { writeFileSync } from 'node:fs';
import { GENERATED_FILE, qaPathsSource } from './qa-paths.ts';

writeFileSync(GENERATED_FILE, await qaPathsSource());
console.log(`Wrote ${GENERATED_FILE}`);
