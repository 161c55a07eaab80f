/** Debian's nginx for the tests that put the app behind a real web server (deployment, fleet). */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

/** Debian's nginx, or NGINX_PATH: the tests need a real web server. */
export function nginxPath(): string {
  const candidates = [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/bin/nginx'].filter(
    Boolean,
  ) as string[];
  const found = candidates.find((path) => existsSync(path));
  if (!found)
    throw new Error(
      'No nginx found for the deployment test. Install one (Debian: apt-get update && apt-get install -y nginx-light) or set NGINX_PATH.',
    );
  return found;
}

/** A port free on loopback now (for a process the test starts). */
export const freePort = () =>
  new Promise<number>((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
