/**
 * World fixation: the doors of the QA worlds (modules/worlds/doors.ts) open only for navigations
 * from this server (`Sec-Fetch-Site: same-origin`), typed or pasted URLs (`none`) and clients that
 * send no `Sec-Fetch-Site`; a cross-site or sibling-subdomain (`same-site`) link is refused with 403
 * and no cookie. Driven on a bare Fastify with a real worlds registry (its world apps stubbed).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../src/core/services.ts';
import { registerWorldDoors, WORLD_DOOR_MESSAGES } from '../src/modules/worlds/doors.ts';
import { createWorlds, WORLD_MESSAGES, type Worlds } from '../src/modules/worlds/registry.ts';
import { createTestApp, type TestApp } from './helpers.ts';

type Site = 'cross-site' | 'same-site' | 'same-origin' | 'none' | undefined;

async function door(app: FastifyInstance, url: string, site: Site) {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: { 'sec-fetch-mode': 'navigate', ...(site ? { 'sec-fetch-site': site } : {}) },
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.body ? (JSON.parse(response.body) as { Error?: string }) : null,
  };
}

describe('the world doors (bare Fastify, a real registry)', () => {
  let app: FastifyInstance;
  let worlds: Worlds;
  let id: string;
  const enter = () => `/__qa/worlds/${id}/enter`;
  beforeAll(async () => {
    // A real registry whose world apps are stubs: the doors only ask it `info(id)`.
    worlds = createWorlds(
      {
        build: async () => ({
          services: {} as Services,
          settings: {},
          route: () => undefined,
          close: async () => {},
        }),
        template: async () => Buffer.alloc(0),
        state: async () => Buffer.alloc(0),
        log: { warn: () => undefined, info: () => undefined },
      },
      { databasePath: ':memory:' },
    );
    id = (await worlds.create({ from: 'empty' })).id;
    app = Fastify();
    registerWorldDoors(app, worlds);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await worlds.close();
  });

  it.each(['cross-site', 'same-site'] as const)(
    'refuses a %s enter: 403 with its message, no cookie, no entry recorded',
    async (site) => {
      const before = worlds.info(id)!.entered;
      const reply = await door(app, enter(), site);
      expect(reply.status).toBe(403);
      expect(worlds.info(id)!.entered).toBe(before);
      expect(reply.body).toMatchObject({ Error: WORLD_DOOR_MESSAGES.enter });
      expect(reply.headers['set-cookie']).toBeUndefined();
      expect(reply.headers.location).toBeUndefined();
      expect(reply.headers['cache-control']).toBe('no-store');
      expect(reply.headers.vary).toMatch(/Sec-Fetch-Site/i);
    },
  );

  it('refuses a value it does not know, and a cross-site enter of an unknown world (403, not 404)', async () => {
    expect((await door(app, enter(), 'cross-site-ish' as Site)).status).toBe(403);
    const unknown = await door(app, '/__qa/worlds/w-nosuchworldnosuchworl/enter', 'cross-site');
    expect(unknown.status).toBe(403);
    expect(unknown.body).toMatchObject({ Error: WORLD_DOOR_MESSAGES.enter });
  });

  it.each(['same-origin', 'none', undefined] as const)(
    'lets a %s enter in: 303 to / naming the world, with the cookie, the entry recorded',
    async (site) => {
      const before = worlds.info(id)!.entered;
      const reply = await door(app, enter(), site);
      expect(reply.status).toBe(303);
      expect(worlds.info(id)!.entered).toBe(before + 1);
      expect(reply.headers.location).toBe(`/?qa_world=${id}`);
      expect(reply.headers['cache-control']).toBe('no-store');
      expect(reply.headers.vary).toMatch(/Sec-Fetch-Site/i);
      const setCookie = String(reply.headers['set-cookie']);
      expect(setCookie).toContain(`qa_world=${id}`);
      expect(setCookie).toMatch(/HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Strict/i);
      expect(setCookie).toMatch(/Path=\//);
    },
  );

  it('still answers 404 for an unknown world from this server', async () => {
    for (const site of ['same-origin', 'none', undefined] as const) {
      const reply = await door(app, '/__qa/worlds/w-nosuchworldnosuchworl/enter', site);
      expect(reply.status).toBe(404);
      expect(reply.headers['set-cookie']).toBeUndefined();
    }
  });

  it('leaves by the same rule: refused cross-site and same-site, the cookie cleared otherwise', async () => {
    for (const site of ['cross-site', 'same-site'] as const) {
      const reply = await door(app, '/__qa/worlds/leave', site);
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({ Error: WORLD_DOOR_MESSAGES.leave });
      expect(reply.headers['set-cookie']).toBeUndefined();
    }
    for (const site of ['same-origin', 'none', undefined] as const) {
      const reply = await door(app, '/__qa/worlds/leave', site);
      expect(reply.status).toBe(303);
      expect(reply.headers.location).toBe('/?qa_world=default');
      expect(String(reply.headers['set-cookie'])).toMatch(/qa_world=;.*Max-Age=0/i);
    }
  });

  it("a fake registry is enough: the doors ask only for a world's info and record an entry", async () => {
    const info = worlds.info(id)!;
    const entries: string[] = [];
    const bare = Fastify();
    registerWorldDoors(bare, {
      info: (asked) => (asked === id ? info : undefined),
      entered: (world, client) => void entries.push(`${world} ${client}`),
    });
    try {
      expect((await door(bare, enter(), 'cross-site')).status).toBe(403);
      expect(entries).toEqual([]);
      expect((await door(bare, enter(), 'same-origin')).status).toBe(303);
      expect(entries).toEqual([`${id} 127.0.0.1`]);
    } finally {
      await bare.close();
    }
  });
});

describe('the server refuses a cross-site enter, and a same-origin one works', () => {
  let t: TestApp;
  let id: string;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'empty' });
    const made = await t.fastify.inject({
      method: 'POST',
      url: '/__qa/worlds',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ from: 'empty' }),
    });
    expect(made.statusCode).toBe(201);
    id = (made.json() as { id: string }).id;
  });
  afterAll(() => t.close());

  it('answers 403 to a cross-site enter, 303 with the cookie to a same-origin one', async () => {
    const refused = await door(t.fastify, `/__qa/worlds/${id}/enter`, 'cross-site');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ Error: WORLD_DOOR_MESSAGES.enter });
    expect(refused.headers['set-cookie']).toBeUndefined();
    const entered = await door(t.fastify, `/__qa/worlds/${id}/enter`, 'same-origin');
    expect(entered.status).toBe(303);
    expect(String(entered.headers['set-cookie'])).toContain(`qa_world=${id}`);
    const unknown = await door(t.fastify, '/__qa/worlds/w-nosuchworldnosuchworl/enter', 'same-origin');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ Error: WORLD_MESSAGES.unknown('w-nosuchworldnosuchworl') });
  });
});
