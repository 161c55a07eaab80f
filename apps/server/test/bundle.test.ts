/**
 * `npm start` runs apps/server/dist/main.js, an esbuild bundle (build.mjs). A dependency that reads
 * files beside itself, or a path resolved from import.meta.url, can work from the sources and break
 * in the bundle: build it and use it as a client would.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const serverDir = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'bundle-'));
let child: ChildProcessWithoutNullStreams | undefined;
let url = '';

beforeAll(async () => {
  // Built for this run by the suite's set-up (global-setup.ts), as `npm start` builds it.
  child = spawn(process.execPath, [inject('serverBundle')], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_PATH: join(dir, 'app.sqlite'),
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
    },
  });
  let output = '';
  url = await new Promise<string>((done, fail) => {
    child!.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const port = /Member dashboard on http:\/\/localhost:(\d+)/.exec(output)?.[1];
      if (port) done(`http://127.0.0.1:${port}`);
    });
    child!.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child!.on('exit', (code, signal) =>
      fail(new Error(`the bundle exited (${code ?? signal}) before listening: ${output}`)),
    );
  });
}, 60_000);
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child!.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('the bundled server', () => {
  it('migrates and seeds a new database, and signs the demo member in', async () => {
    const response = await fetch(`${url}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'Demo@1234' }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { JWT?: string }).JWT).toMatch(/^ey/);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('serves /config.json, tRPC and the docs viewer with its own assets', async () => {
    expect(((await (await fetch(`${url}/config.json`)).json()) as { mode: string }).mode).toBe('mock');
    expect((await fetch(`${url}/trpc/user.view_country?input=%7B%7D`)).status).toBe(200);
    const docs = await fetch(`${url}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger-ui-bundle.js');
    const bundle = await fetch(`${url}/docs/static/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    const openapi = (await (await fetch(`${url}/docs/openapi.json`)).json()) as { openapi: string };
    expect(openapi.openapi).toBe('3.1.0');
  });

  it('runs the daily runs in its worker thread (dist/engine-worker.js) and answers what ran', async () => {
    const response = await fetch(`${url}/__qa/clock?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance: 'P1D' }),
    });
    expect(response.status).toBe(200);
    const { ran } = (await response.json()) as { ran: { job: string; date: string; summary: string }[] };
    // Any 24 hours hold one 11:00 London: binary matching, then ranks (and ROI on a weekday).
    expect(ran.filter((r) => r.job === 'binary')).toHaveLength(1);
    expect(ran.filter((r) => r.job === 'ranks')).toHaveLength(1);
    expect(ran.every((r) => /members/.test(r.summary))).toBe(true);
    const check = (await (await fetch(`${url}/__qa/ledger/check`)).json()) as {
      balanced: boolean;
      mismatchedWallets: unknown[];
    };
    expect(check).toMatchObject({ balanced: true, mismatchedWallets: [] });
  });
});
