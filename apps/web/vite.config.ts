import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

/** Everything the dev server does not serve itself goes to the local mock server (one port in production). */
const SERVER = process.env.MD_SERVER_URL ?? 'http://localhost:3000';
const PROXIED_PREFIXES = [
  '/trpc',
  '/config.json',
  '/__qa',
  '/__mock',
  '/captcha',
  '/docs',
  // Provider REST paths (contract.ts), used by provider mode.
  '/user',
  '/user_analytics',
  '/wallet',
  '/direct',
  '/notification',
  '/table',
  '/subscription',
  '/level',
  '/transfer_to_user',
  '/binary',
  '/rank',
  '/withdraw',
  '/deposit',
  '/earning',
];

/**
 * Brotli and gzip copies of every text file of the build, served by the server as they are
 * (@fastify/static preCompressed): the best compression levels, without CPU per request.
 */
function precompress(): Plugin {
  let outDir = '';
  const filesUnder = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
  return {
    name: 'md-precompress',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    closeBundle() {
      for (const file of filesUnder(outDir).filter((f) => /\.(js|css|html|svg|json|txt)$/.test(f) && !f.includes('.vite'))) {
        const bytes = readFileSync(file);
        if (bytes.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  // '@/…' is src: features reach lib and components by it (relative '../../' paths are linted away).
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    port: 5173,
    proxy: Object.fromEntries(PROXIED_PREFIXES.map((prefix) => [prefix, { target: SERVER, changeOrigin: true }])),
  },
  // The manifest tells scripts/bench/bundle.ts which chunks each route loads.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      output: {
        // Everything the first screen imports statically goes in one chunk: left to itself the
        // bundler cut it into ~30 files shared with the lazy routes, and a phone on slow 4G pays a
        // round trip per wave of 6 requests before the first paint (Lighthouse mobile, issue 17).
        // Likewise the dashboard's frame and home with what they import (46 kB gzipped, was 15
        // files): every dashboard route loads the frame, and a stored session starts loading both
        // at boot (router.tsx). The price: registration and password reset share modules with them
        // and so load this chunk too (+~46 kB there, then cached for the dashboard after sign-in).
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            { name: 'dashboard', test: /src\/(components\/shell\/dashboard-layout|features\/dashboard-home\/dashboard-home)\.tsx$/, priority: 1 },
          ],
        },
      },
    },
  },
});
