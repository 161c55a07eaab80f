import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { chakraThemeAlias } from './chakra-theme-alias.ts';
import { icuCatalogs } from './icu-catalogs.ts';
import { FIRST_NAMESPACES, LOCALES } from './src/lib/i18n/locales.ts';
import { STORAGE_KEYS } from './src/lib/storage.ts';

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

/** A navigation to one of these is the server's (API docs, QA control), never the app shell from the worker's cache. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SERVER_NAVIGATIONS = new RegExp(`^(${PROXIED_PREFIXES.map(escapeRegExp).join('|')})(/|\\?|$)`);

/** Light and dark browser-chrome colours: Chakra's bg in each colour mode (index.html carries both). */
const THEME_COLORS = { light: '#ffffff', dark: '#09090b' } as const;

/**
 * The installable app: the web app manifest, and a Workbox service worker that precaches the
 * app shell (index.html) and the build's files (hashed names under /assets/, icons) and nothing
 * else: no runtime caching, so no API answer (REST, /trpc, /__qa, the deposit host) and no
 * /config.json is ever answered from its cache. A new build's worker waits until the member
 * accepts the 'A new version is available' prompt (app/app-update.tsx), which then takes over
 * and reloads.
 */
const installableApp = () =>
  VitePWA({
    registerType: 'prompt',
    // Registered by app/app-update.tsx after the first screen, not by an injected script (the CSP allows no inline script).
    injectRegister: false,
    // The manifest's icons are added by the plugin; these are the page's own (favicon, iOS home screen).
    includeAssets: ['icons/icon.svg', 'icons/apple-touch-icon-180.png'],
    manifest: {
      id: '/',
      name: 'Member Dashboard',
      short_name: 'Members',
      description: 'Member dashboard: packages, wallets, network and earnings',
      start_url: '/dashboard',
      scope: '/',
      display: 'standalone',
      theme_color: THEME_COLORS.light,
      background_color: THEME_COLORS.light,
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html}'],
      // Source maps and the precompressed copies are not the app (the server picks .br/.gz itself);
      // the QA panel is fetched when QA asks for it, never by a member's browser.
      globIgnores: ['**/*.map', '**/*.br', '**/*.gz', '.vite/**', 'assets/qa-panel-*.js'],
      navigateFallback: '/index.html',
      navigateFallbackDenylist: [SERVER_NAVIGATIONS],
      // Hashed names need no revision query: the name changes with the content.
      dontCacheBustURLsMatching: /^assets\//,
      runtimeCaching: [],
      cleanupOutdatedCaches: true,
      // The first install controls the open page at once (nothing to replace); updates wait for the prompt.
      clientsClaim: true,
      // One file: no workbox-*.js beside it for the static host to cache wrongly.
      inlineWorkboxRuntime: true,
      // Web Push: shows the server's pushes and opens their screen on a click (public/push-sw.js).
      importScripts: ['/push-sw.js'],
    },
  });

/**
 * `<meta name="app-build">`: which build a page runs (support, and the update test). MD_BUILD_ID
 * sets it (a deployment can pass its commit); by default a hash of the bundle's file names, so an
 * unchanged rebuild keeps it, and the service worker sees no new version.
 */
function buildLabel(): Plugin {
  return {
    name: 'md-build-label',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const names = Object.keys(ctx.bundle ?? {})
          .sort()
          .join('\n');
        const id = process.env.MD_BUILD_ID ?? createHash('sha256').update(names).digest('hex').slice(0, 12);
        return [{ tag: 'meta', attrs: { name: 'app-build', content: id }, injectTo: 'head' }];
      },
    },
  };
}

/**
 * Brotli and gzip copies of every text file of the build, served by the server as they are
 * (@fastify/static preCompressed): the best compression levels, without CPU per request.
 */
function precompress(): Plugin {
  let outDir = '';
  const filesUnder = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) =>
      statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)],
    );
  return {
    name: 'md-precompress',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    closeBundle() {
      for (const file of filesUnder(outDir).filter(
        (f) => /\.(js|css|html|svg|json|txt)$/.test(f) && !f.includes('.vite'),
      )) {
        const bytes = readFileSync(file);
        if (bytes.length < 1024) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/**
 * A member with a stored session who opens a dashboard URL needs the dashboard chunk, yet the app
 * chunk asks for it only once it has loaded and run (router.tsx preloadScreen): on slow 4G
 * that is a second round trip and download after the first (Lighthouse mobile). A tiny
 * script in <head> (a file: the CSP allows no inline script) starts that download beside the app
 * chunk's, for dashboard URLs with a stored session only, so sign-in pays nothing for it. The frame
 * and home need nothing else: they are drawn without Chakra's runtime.
 */
function sessionPreload(): Plugin {
  let outDir = '';
  let script: { file: string; code: string } | undefined;
  return {
    name: 'md-session-preload',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        // The dashboard's frame and home.
        const chunks = Object.values(ctx.bundle ?? {}).filter(
          (chunk) => chunk.type === 'chunk' && chunk.name === 'dashboard',
        );
        if (chunks.length === 0) return [];
        const links = chunks
          .map(
            (chunk) =>
              `l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='anonymous';l.href=${JSON.stringify(`/${chunk.fileName}`)};document.head.appendChild(l);`,
          )
          .join('');
        const code =
          `try{if((location.pathname+'/').indexOf('/dashboard/')===0&&localStorage.getItem(${JSON.stringify(STORAGE_KEYS.jwt)})){` +
          `var l;${links}}}catch(e){}\n`;
        script = {
          file: `assets/session-preload-${createHash('sha256').update(code).digest('hex').slice(0, 8)}.js`,
          code,
        };
        return [{ tag: 'script', attrs: { async: true, src: `/${script.file}` }, injectTo: 'head' }];
      },
    },
    // Written beside the bundle (hashed: /assets is cached as immutable); before precompress, which skips files this small.
    writeBundle() {
      if (script) writeFileSync(join(outDir, script.file), script.code);
    },
  };
}

export default defineConfig({
  plugins: [react(), icuCatalogs(), sessionPreload(), buildLabel(), installableApp(), precompress()],
  // '@/…' is src: features reach lib and components by it (relative '../../' paths are linted away).
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)), ...chakraThemeAlias } },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      PROXIED_PREFIXES.map((prefix) => [prefix, { target: SERVER, changeOrigin: true }]),
    ),
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
        // round trip per wave of 6 requests before the first paint (Lighthouse mobile).
        // Likewise the dashboard's frame and home with what they import (46 kB gzipped, was 15
        // files): every dashboard route loads the frame, and a stored session starts loading both
        // at boot (router.tsx). The price: registration and password reset share modules with them
        // and so load this chunk too (+~46 kB there, then cached for the dashboard after sign-in).
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            // Chakra's styling runtime and the app's system: every screen but sign-in draws with
            // them, so they are one chunk of their own, loaded beside the first such screen's, with the
            // layout and text components every screen draws (the others and their state machines
            // stay with the screens that use them).
            {
              name: 'chakra',
              test: /node_modules\/(@emotion|stylis|@pandacss|react-is|hoist-non-react-statics)\/|node_modules\/@chakra-ui\/react\/dist\/esm\/(styled-system|utils|theme|create-context\.js|merge-props\.js|merge-refs\.js|components\/(box|flex|stack|grid|center|text|heading|button|icon|link|spinner|separator|group|portal|visually-hidden)\/)|src\/components\/ui\/(system\.ts|chakra-root\.tsx)$/,
              priority: 1,
            },
            {
              name: 'dashboard',
              test: /src\/(components\/shell\/dashboard-layout|features\/dashboard-home\/dashboard-home)\.tsx$/,
              priority: 1,
            },
            // A language's catalogs in two chunks (lib/i18n/catalogs.ts): the namespaces sign-in
            // reads, loaded beside /config.json at boot (English's stay in the app's first file),
            // and the rest, loaded with the first screen past sign-in.
            ...LOCALES.filter((locale) => locale !== 'en').map((locale) => ({
              name: `catalog-${locale}-first`,
              test: new RegExp(`src/locales/${locale}/(first\\.ts|(${FIRST_NAMESPACES.join('|')})\\.json)$`),
              priority: 3,
            })),
            ...LOCALES.map((locale) => ({
              name: `catalog-${locale}`,
              test: new RegExp(
                `src/locales/${locale}/(rest\\.ts|(?!(${FIRST_NAMESPACES.join('|')})\\.json$)[^/]+\\.json)$`,
              ),
              priority: 3,
            })),
          ],
        },
      },
    },
  },
});
