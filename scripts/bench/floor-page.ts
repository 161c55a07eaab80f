/**
 * The floor of the client benchmarks: a minimal Vite + React page with one sign-in form (two
 * labelled fields and a button, React state, no UI library), built with the Vite, React plugin and
 * React the web app uses, and served compressed the way the server sends the app (brotli q11).
 * What Lighthouse gives this page on the same machine in the same minutes is the best the app's
 * stack can score there; the app's figures are read beside it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { repoRoot } from './build-web.ts';

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="description" content="Floor page: one form" />
    <title>Sign in</title>
  </head>
  <body style="margin:0;font-family:system-ui,sans-serif">
    <div id="root"></div>
    <script type="module" src="/main.jsx"></script>
  </body>
</html>
`;

const MAIN_JSX = `import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function SignIn() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [sent, setSent] = useState(false);
  return (
    <main style={{ maxWidth: 360, margin: '4rem auto', padding: '0 1rem' }}>
      <h1>Sign in</h1>
      <form onSubmit={(event) => { event.preventDefault(); setSent(true); }} style={{ display: 'grid', gap: 12 }}>
        <label>Username <input value={username} onChange={(e) => setUsername(e.target.value)} required style={{ display: 'block', width: '100%' }} /></label>
        <label>Password <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} required style={{ display: 'block', width: '100%' }} /></label>
        <button type="submit">Sign In</button>
        {sent ? <p role="status">Signed in as {username}</p> : null}
      </form>
    </main>
  );
}

createRoot(document.getElementById('root')).render(<StrictMode><SignIn /></StrictMode>);
`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) =>
    statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)],
  );

export interface FloorPage {
  origin: string;
  /** gzipped JavaScript of the page (the unit of scripts/bench/bundle.ts). */
  jsGzip: number;
  close: () => Promise<void>;
}

/** Builds the floor page in a temporary directory under node_modules/.cache (where react resolves) and serves it on loopback. */
export async function startFloorPage(): Promise<FloorPage> {
  const cache = join(repoRoot, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const root = mkdtempSync(join(cache, 'md-floor-'));
  writeFileSync(join(root, 'index.html'), INDEX_HTML);
  writeFileSync(join(root, 'main.jsx'), MAIN_JSX);
  // Vite and its React plugin are dependencies of apps/web, not of the repository's root.
  const fromWeb = createRequire(join(repoRoot, 'apps/web/package.json'));
  // Typed by hand for the same reason (the scripts' typecheck cannot see apps/web's packages).
  const vite = (await import(pathToFileURL(fromWeb.resolve('vite')).href)) as {
    build: (config: Record<string, unknown>) => Promise<unknown>;
  };
  const react = (
    (await import(pathToFileURL(fromWeb.resolve('@vitejs/plugin-react')).href)) as { default: () => unknown }
  ).default;
  const previousEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await vite.build({
      root,
      configFile: false,
      logLevel: 'error',
      plugins: [react()],
      build: { outDir: join(root, 'dist'), emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = previousEnv;
  }

  const dist = join(root, 'dist');
  const files = new Map<string, { raw: Buffer; br: Buffer; type: string }>();
  let jsGzip = 0;
  for (const file of filesUnder(dist)) {
    const raw = readFileSync(file);
    const path = file.slice(dist.length);
    if (path.endsWith('.js')) jsGzip += gzipSync(raw).length;
    files.set(path, {
      raw,
      br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      type: TYPES[extname(file)] ?? 'application/octet-stream',
    });
  }
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://floor').pathname;
    const file = files.get(path === '/' ? '/index.html' : path);
    if (!file) return void response.writeHead(404).end();
    const br = /\bbr\b/.test(String(request.headers['accept-encoding'] ?? ''));
    response.writeHead(200, {
      'content-type': file.type,
      ...(br ? { 'content-encoding': 'br' } : {}),
      vary: 'accept-encoding',
    });
    response.end(br ? file.br : file.raw);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    jsGzip,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
