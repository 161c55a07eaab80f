/** The server bundle (`npm start`'s dist/main.js, built by global-setup.ts) as a child process on a database file. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { inject } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Its base URL on loopback. */
  url: string;
  /** Settles when the process has ended, however. */
  exited: Promise<void>;
}

/** Starts the bundle on `databasePath`; resolves once it listens. `children` collects it for the file's clean-up. */
export async function startServerProcess(
  databasePath: string,
  children: ChildProcessWithoutNullStreams[],
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [inject('serverBundle')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_PATH: databasePath,
      PORT: '0',
      HOST: '127.0.0.1',
      JWT_SECRET: 'server-process-test-secret',
      NODE_ENV: 'development',
      LOG: '0',
      ...env,
    },
  });
  children.push(child);
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  let output = '';
  const url = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const port = /Member dashboard on http:\/\/localhost:(\d+)/.exec(output)?.[1];
      if (port) done(`http://127.0.0.1:${port}`);
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code, signal) =>
      fail(new Error(`server exited (${code ?? signal}) before listening: ${output}`)),
    );
  });
  return { child, url, exited };
}

/** Kills every child still running (a file's afterAll). */
export function killChildren(children: ChildProcessWithoutNullStreams[]) {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
