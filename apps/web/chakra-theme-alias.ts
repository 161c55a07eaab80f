/**
 * '@chakra-theme/…' names Chakra's theme modules one by one (tokens, global CSS, a recipe):
 * its package exports only the whole theme, whose module imports every recipe of the library,
 * and what the entry imports that way counts as the first screen's (vite.config.ts). Used by the
 * Vite and vitest configurations; tsconfig.json maps the same name to the modules' types.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const chakra = dirname(createRequire(import.meta.url).resolve('@chakra-ui/react/package.json'));

export const chakraThemeAlias = { '@chakra-theme': join(chakra, 'dist/esm/theme') };
