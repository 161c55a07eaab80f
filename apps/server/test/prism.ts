/** Prism (Stoplight's mock and validation proxy) on loopback, as an integrator runs it on the served document. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * `prism mock <document>` or `prism proxy <document> <upstream>` (`args` after the document), on a
 * free port. Answers once Prism says it listens: it reads and compiles the document first, up to a
 * minute on a busy machine.
 */
export async function startPrism(mode: 'mock' | 'proxy', document: unknown, args: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'md-prism-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const port = await freePort();
  const prism = spawn(
    join(REPO, 'node_modules/.bin/prism'),
    [mode, file, ...args, '--host', '127.0.0.1', '--port', String(port), '--errors=false'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let output = '';
  prism.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  prism.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = () => {
    prism.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 600 && !output.includes('Prism is listening'); i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  if (!output.includes('Prism is listening')) {
    stop();
    throw new Error(`Prism did not start:\n${output}`);
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
