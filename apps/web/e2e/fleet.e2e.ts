/**
 * A fleet of worlds: two server processes behind Debian's nginx, configured as docs/deployment.md
 * shows (`fleetNginxConf`). Each server names its worlds' ids after itself (FLEET_NODE); nginx
 * sends a request naming a world (the lifecycle path, X-QA-World, or the qa_world cookie) to the
 * server whose name the id carries, a creation to either, and everything else to the first, which
 * holds the default world. A browser enters worlds on both through the proxy; one server stopped
 * answers 502 for its own worlds only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePort, nginxPath } from './nginx.ts';
import { freshPagePerTest, signIn } from './support.ts';
import type { E2eServer } from './global-setup.ts';

const root = resolve(import.meta.dirname, '../../..');
const NODES = ['a', 'b'] as const;
type Node = (typeof NODES)[number];

/**
 * The fleet's nginx configuration (docs/deployment.md, "A fleet of QA worlds"): `nodes` maps each
 * server's FLEET_NODE to its address, the first holding the default world. Self-contained for the
 * test: its pid, logs and temp files in `dir`, in the foreground.
 */
export function fleetNginxConf(dir: string, port: number, nodes: Record<string, string>): string {
  const names = Object.keys(nodes);
  const upstreams = names
    .map((name) => `  upstream fleet_${name} { server ${nodes[name]}; }`)
    .concat(`  upstream fleet_any { ${names.map((name) => `server ${nodes[name]};`).join(' ')} }`)
    .join('\n');
  const routes = names.map((name) => `    "~^${name}/" fleet_${name};`).join('\n');
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${upstreams}
  # The server a request's world lives on: the name its id carries (w-<node>.<random>), read from the
  # lifecycle path, else the X-QA-World header ('default' names the default world), else the cookie.
  map $uri $fleet_by_path { "~^/__qa/worlds/w-([a-z0-9]+)\\." $1; default ""; }
  map $http_x_qa_world $fleet_by_header { "~^w-([a-z0-9]+)\\." $1; default "-"; "" ""; }
  map $cookie_qa_world $fleet_by_cookie { "~^w-([a-z0-9]+)\\." $1; default ""; }
  map "$fleet_by_path:$fleet_by_header:$fleet_by_cookie" $fleet_node {
    "~^([a-z0-9]+):" $1;
    "~^:-:" "";
    "~^:([a-z0-9]+):" $1;
    "~^::([a-z0-9]+)$" $1;
    default "";
  }
  # A new world (made or imported) may go to any server: it names its id after itself.
  map "$request_method $uri" $fleet_creates {
    "POST /__qa/worlds" 1;
    "POST /__qa/worlds/import" 1;
    default 0;
  }
  map "$fleet_node/$fleet_creates" $fleet_upstream {
${routes}
    "/1" fleet_any;
    default fleet_${names[0]};
  }
  server {
    listen 127.0.0.1:${port};
    # World files (imports) are up to 2 GiB, streamed on to the server as they arrive.
    client_max_body_size 2g;
    proxy_request_buffering off;
    location / {
      proxy_pass http://$fleet_upstream;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      # A creation refused by a stopped server is made on the other.
      proxy_next_upstream error timeout;
    }
  }
}
`;
}

interface FleetServer {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

/** A server process (the sources through tsx, as npm run dev) named `node`, listening on `port`. */
async function startNode(dir: string, node: Node, port: number): Promise<FleetServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      FLEET_NODE: node,
      DATABASE_PATH: join(dir, `${node}.sqlite`),
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET: 'fleet-test-secret',
      NODE_ENV: 'development',
      SEED: node === NODES[0] ? 'demo' : 'empty',
      LOG: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let output = '';
  await new Promise<void>((done, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('Member dashboard on')) done();
    });
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code, signal) =>
      fail(new Error(`server ${node} exited (${code ?? signal}): ${output}`)),
    );
  });
  return { child, url: `http://127.0.0.1:${port}`, exited };
}

describe('a fleet: two servers behind nginx, each world on one of them', () => {
  let dir: string;
  let nginx: ChildProcess | undefined;
  let proxy: string;
  const servers = {} as Record<Node, FleetServer>;
  let page!: Page;

  const create = async () => {
    const response = await fetch(`${proxy}/__qa/worlds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'demo' }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; enter: string };
  };
  const nodeOf = (id: string) => /^w-([a-z0-9]+)\./.exec(id)?.[1];
  /** New worlds through the proxy until there is one on each server (it takes turns): one per server. */
  async function oneOnEach() {
    const found = new Map<string, { id: string; enter: string }>();
    for (let i = 0; i < 8 && found.size < NODES.length; i++) {
      const world = await create();
      if (!found.has(nodeOf(world.id)!)) found.set(nodeOf(world.id)!, world);
    }
    expect([...found.keys()].sort()).toEqual([...NODES]);
    return NODES.map((node) => found.get(node)!);
  }
  const listed = async (node: Node) =>
    (
      (await (await fetch(`${servers[node].url}/__qa/worlds`)).json()) as { worlds: { id: string }[] }
    ).worlds.map((w) => w.id);
  const login = (world: string) =>
    fetch(`${proxy}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-qa-world': world },
      body: JSON.stringify({ username: 'demo', password: 'Demo@1234' }),
    });

  beforeAll(async () => {
    const nginxBin = nginxPath();
    dir = mkdtempSync(join(tmpdir(), 'md-fleet-'));
    const [portA, portB, proxyPort] = [await freePort(), await freePort(), await freePort()];
    [servers.a, servers.b] = await Promise.all([startNode(dir, 'a', portA), startNode(dir, 'b', portB)]);
    proxy = `http://127.0.0.1:${proxyPort}`;
    for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp));
    const conf = join(dir, 'nginx.conf');
    writeFileSync(conf, fleetNginxConf(dir, proxyPort, { a: `127.0.0.1:${portA}`, b: `127.0.0.1:${portB}` }));
    nginx = spawn(nginxBin, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    nginx.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const log = () =>
      `${output}${existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''}`;
    for (let i = 0; ; i++) {
      if (nginx.exitCode !== null) throw new Error(`nginx exited (${nginx.exitCode}):\n${log()}`);
      if (
        await fetch(`${proxy}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i >= 100) throw new Error(`nginx did not answer on ${proxy}:\n${log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((done) => nginx!.once('exit', done));
      nginx.kill('SIGQUIT');
      await exited;
    }
    for (const server of Object.values(servers))
      if (server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  freshPagePerTest(null, { width: 375, height: 800 }, (fresh) => (page = fresh));

  it('makes worlds on both servers through the proxy, and every call of each reaches its own', async () => {
    const made = [await create(), await create(), await create(), await create()];
    const byNode = (node: Node) => made.filter((w) => nodeOf(w.id) === node).map((w) => w.id);
    expect(byNode('a').length).toBeGreaterThan(0);
    expect(byNode('b').length).toBeGreaterThan(0);
    // Each server has its own, and only its own.
    for (const node of NODES) expect((await listed(node)).sort()).toEqual(byNode(node).sort());
    for (const world of made) {
      // By the header: the world's own server answers (its sign-in, its /config.json).
      expect((await login(world.id)).status).toBe(200);
      const config = await fetch(`${proxy}/config.json`, { headers: { 'x-qa-world': world.id } });
      expect(((await config.json()) as { qaWorld?: string }).qaWorld).toBe(world.id);
      // By the cookie, as a browser's first page does.
      const byCookie = await fetch(`${proxy}/config.json`, { headers: { cookie: `qa_world=${world.id}` } });
      expect(((await byCookie.json()) as { qaWorld?: string }).qaWorld).toBe(world.id);
      // By the lifecycle path: an export comes from its server.
      const exported = await fetch(`${proxy}/__qa/worlds/${world.id}/export`);
      expect(exported.status).toBe(200);
      await exported.arrayBuffer();
    }
    // The default world lives on the first server; 'default' in the header names it over a cookie.
    const plain = await fetch(`${proxy}/config.json`, {
      headers: { 'x-qa-world': 'default', cookie: `qa_world=${byNode('b')[0]}` },
    });
    expect((await plain.json()) as object).not.toHaveProperty('qaWorld');
    expect((await fetch(`${proxy}/__qa/worlds`).then((r) => r.json())) as object).toMatchObject({
      worlds: (await listed('a')).map((id) => expect.objectContaining({ id })),
    });
  });

  it('lets a browser enter a world on either server through the proxy, sign in and leave', async () => {
    for (const world of await oneOnEach()) {
      await page.goto(`${proxy}${world.enter}`);
      await expect.poll(() => page.getByTestId('qa-world-badge').innerText()).toContain(world.id);
      await signIn(page, { mode: 'mock', url: proxy } satisfies E2eServer, 'demo', 'Demo@1234');
      await page.goto(`${proxy}/dashboard/wallets`);
      await expect.poll(() => page.getByTestId('wallet-available-ROI').innerText()).toMatch(/\$/);
      await page.getByTestId('qa-world-badge').getByRole('link', { name: 'Leave' }).click();
      await page.getByLabel('Username').waitFor();
    }
  });

  it('answers 502 for the worlds of a stopped server only', async () => {
    const [onA, onB] = (await oneOnEach()).map((world) => world.id) as [string, string];
    servers.b.child.kill('SIGTERM');
    await servers.b.exited;
    expect((await login(onB)).status).toBe(502);
    expect((await fetch(`${proxy}/__qa/worlds/${onB}/export`)).status).toBe(502);
    expect((await login(onA)).status).toBe(200);
    expect((await fetch(`${proxy}/config.json`)).status).toBe(200);
    // A new world is made on the server still running.
    expect(nodeOf((await create()).id)).toBe('a');
  });
});
