/**
 * Writes the first screen's stylesheet (apps/web/src/components/first-screen/first-screen.css) from
 * the app's Chakra system: `npm run first-screen:css` after changing the system or
 * first-screen-styles.ts. Loaded through Vite with the web app's configuration, which resolves the
 * '@chakra-theme/…' modules the system is made of.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer } from 'vite';
import type * as FirstScreenStyles from '../src/components/first-screen/first-screen-styles.ts';
import type * as System from '../src/components/ui/system.ts';

const root = resolve(import.meta.dirname, '../../..');
const server = await createServer({
  configFile: resolve(root, 'apps/web/vite.config.ts'),
  root: resolve(root, 'apps/web'),
  server: { middlewareMode: true, hmr: false },
  appType: 'custom',
  logLevel: 'error',
});
try {
  const { firstScreenCss, FIRST_SCREEN_CSS_FILE } = (await server.ssrLoadModule(
    '/src/components/first-screen/first-screen-styles.ts',
  )) as typeof FirstScreenStyles;
  const { system } = (await server.ssrLoadModule('/src/components/ui/system.ts')) as typeof System;
  writeFileSync(resolve(root, FIRST_SCREEN_CSS_FILE), firstScreenCss(system));
  console.log(`wrote ${FIRST_SCREEN_CSS_FILE}`);
} finally {
  await server.close();
}
