import { defineConfig } from 'vite';
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

export default defineConfig({
  plugins: [react()],
  // '@/…' is src: features reach lib and components by it (relative '../../' paths are linted away).
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    port: 5173,
    proxy: Object.fromEntries(PROXIED_PREFIXES.map((prefix) => [prefix, { target: SERVER, changeOrigin: true }])),
  },
  // The manifest tells scripts/bench/bundle.ts which chunks each route loads.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
});
