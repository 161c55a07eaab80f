/**
 * A QA world per tab (lib/world.ts): a door's redirect makes the cookie's world the tab's, the tab
 * names it on every call to its own server and nowhere else, and its sign-in is the world's own.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testConfig } from '@/testing/render.tsx';
import { clearLocalStorage, getJwt, setJwt } from './storage.ts';
import {
  cameThroughDoor,
  heldWorld,
  keepDoorWorld,
  keepPageWorld,
  worldFetch,
  worldKey,
  WORLD_HEADER,
} from './world.ts';

const W1 = 'w-AAAAAAAAAAAAAAAAAAAAAA';
const W2 = 'w-BBBBBBBBBBBBBBBBBBBBBB';

/** The tab as a door leaves it: at `/?qa_world=…`, then /config.json served from `served`. */
function throughDoor(param: string, served: string | undefined) {
  window.history.replaceState(null, '', `/dashboard?tab=1&qa_world=${param}#top`);
  expect(cameThroughDoor()).toBe(true);
  keepDoorWorld({ ...testConfig, ...(served ? { qaWorld: served } : {}) });
}

function headersSent(call: () => Promise<unknown>) {
  const fetchSpy = vi.fn(async () => new Response('{}'));
  vi.stubGlobal('fetch', fetchSpy);
  return call().then(() => {
    const [, init] = fetchSpy.mock.calls[0] as unknown as [unknown, RequestInit | undefined];
    return new Headers(init?.headers);
  });
}

afterEach(() => {
  keepPageWorld(testConfig);
  sessionStorage.clear();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('a tab and its QA world', () => {
  it('keeps the world it was served after a door, not the one the address names, and drops the parameter', () => {
    // A link from anywhere can name a world; only the door's cookie decides which the tab is in.
    throughDoor('w-attacker', W1);
    expect(heldWorld()).toBe(W1);
    expect(window.location.pathname + window.location.search + window.location.hash).toBe(
      '/dashboard?tab=1#top',
    );
    throughDoor('default', undefined);
    expect(heldWorld()).toBeNull();
    expect(sessionStorage.getItem('qaWorld')).toBe('default');
  });

  it('holds nothing and names nothing until a door sends it', async () => {
    window.history.replaceState(null, '', '/dashboard');
    expect(cameThroughDoor()).toBe(false);
    expect(heldWorld()).toBeNull();
    expect((await headersSent(() => worldFetch('/config.json'))).has(WORLD_HEADER)).toBe(false);
  });

  it('names the world its page was loaded in when it holds none, so a door another tab opens does not move its calls', async () => {
    const sent = async () => (await headersSent(() => worldFetch('/trpc/x'))).get(WORLD_HEADER);
    // The default world of a stand-in with QA control (its /config.json names no world).
    keepPageWorld({ ...testConfig, capabilities: ['qa'] });
    expect(await sent()).toBe('default');
    // A page loaded by the cookie of a world.
    keepPageWorld({ ...testConfig, capabilities: ['qa'], qaWorld: W1 });
    expect(await sent()).toBe(W1);
    expect(heldWorld()).toBeNull();
    // A world the tab holds comes first.
    throughDoor(W2, W2);
    expect(await sent()).toBe(W2);
    sessionStorage.clear();
    // In front of a real provider (no QA control): nothing.
    keepPageWorld(testConfig);
    expect(await sent()).toBeNull();
  });

  it('names its world on calls to its own server, keeping their headers, and never to another origin', async () => {
    throughDoor(W1, W1);
    const own = await headersSent(() => worldFetch('/trpc/x', { headers: { Authorization: 'Bearer t' } }));
    expect(own.get(WORLD_HEADER)).toBe(W1);
    expect(own.get('Authorization')).toBe('Bearer t');
    expect(
      (await headersSent(() => worldFetch('https://provider.example/user/login'))).has(WORLD_HEADER),
    ).toBe(false);
    throughDoor('default', undefined);
    expect((await headersSent(() => worldFetch('/config.json'))).get(WORLD_HEADER)).toBe('default');
  });

  it("signs in per world: a world's session is under its own keys, and signing out leaves the others", () => {
    setJwt('default-token');
    throughDoor(W1, W1);
    expect(getJwt()).toBeNull();
    setJwt('w1-token');
    expect(localStorage.getItem(worldKey('jwt'))).toBe('w1-token');
    expect(localStorage.getItem(`jwt@${W1}`)).toBe('w1-token');
    throughDoor(W2, W2);
    setJwt('w2-token');
    localStorage.setItem('theme', 'dark');
    clearLocalStorage();
    expect(getJwt()).toBeNull();
    expect(localStorage.getItem(`jwt@${W1}`)).toBe('w1-token');
    expect(localStorage.getItem('jwt')).toBe('default-token');
    expect(localStorage.getItem('theme')).toBe('dark');
    throughDoor(W1, W1);
    expect(getJwt()).toBe('w1-token');
    // Signing out of the default world clears its session and keeps the worlds'.
    throughDoor('default', undefined);
    localStorage.setItem('stray', 'x');
    clearLocalStorage();
    expect(localStorage.getItem('jwt')).toBeNull();
    expect(localStorage.getItem('stray')).toBeNull();
    expect(localStorage.getItem(`jwt@${W1}`)).toBe('w1-token');
  });
});
