/**
 * The QA world this tab is in (docs/worlds.md). A tab holds its own world, in sessionStorage, and
 * names it on every call to its server (X-QA-World), so two tabs of one browser stay in two worlds
 * and each leaves on its own. The server's doors send a tab to `/?qa_world=<id>` (`default` on
 * leaving). A tab that was never told (a URL typed in a new tab, a test harness that sets the
 * cookie) loads each page in the qa_world cookie's world, the world last entered, as browsers did
 * before tabs had worlds, and that page's calls stay there (keepPageWorld). Members of a real provider never hold a world: nothing is stored and no
 * header is sent.
 *
 * A world's session is its own: in a world a tab holds, the stored jwt and user have keys of the
 * world's (`jwt@w-…`), so entering lands signed out and a member of another world is never sent.
 */
import type { RuntimeConfig } from '@md/shared';

const TAB_KEY = 'qaWorld';
/** The door's redirect names the world the tab is now in. */
export const WORLD_PARAM = 'qa_world';
export const WORLD_HEADER = 'X-QA-World';
export const DEFAULT_WORLD = 'default';
/** Where a tab leaves its world: the server's door clears the cookie and sends it to `/?qa_world=default`. */
export const LEAVE_WORLD_URL = '/__qa/worlds/leave';

// sessionStorage can throw (storage disabled): the tab then follows the cookie, as before.
function read(): string | null {
  try {
    return sessionStorage.getItem(TAB_KEY);
  } catch {
    return null;
  }
}
function keep(world: string) {
  try {
    sessionStorage.setItem(TAB_KEY, world);
  } catch {
    // see read()
  }
}

/** The QA world (not the default one) this tab holds, if any. */
export const heldWorld = (): string | null => {
  const world = read();
  return world && world !== DEFAULT_WORLD ? world : null;
};

/**
 * At start: whether a door sent the tab here (`?qa_world=` in the address, which loses it). The
 * tab then lets go of the world it held, so /config.json is asked by the cookie the door just set
 * (or cleared); `keepDoorWorld` keeps what it answers. The parameter's value is not trusted: any
 * site can link to it, while only a door (which refuses other sites) sets the cookie.
 */
export function cameThroughDoor(location: Location = window.location): boolean {
  const url = new URL(location.href);
  if (!url.searchParams.has(WORLD_PARAM)) return false;
  url.searchParams.delete(WORLD_PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  try {
    sessionStorage.removeItem(TAB_KEY);
  } catch {
    // see read()
  }
  return true;
}

/** After a door: the world /config.json was served from (the cookie's) is the tab's from now on. */
export function keepDoorWorld(config: RuntimeConfig) {
  keep(config.qaWorld ?? DEFAULT_WORLD);
}

/**
 * The world this page was loaded in, named on its calls when the tab holds none. A door opened by
 * another tab (or by this one, navigating away while a call is on its way) moves the cookie under
 * the page: its calls would reach that world with this world's session, be refused 401, and end the
 * session. The next page load follows the cookie again. Page state by nature: it ends with the page.
 */
let pageWorld: string | null = null;

/** At start, /config.json in: the world it was served from (a stand-in with QA control only). */
export function keepPageWorld(config: RuntimeConfig) {
  pageWorld =
    config.qaWorld !== undefined || config.capabilities.includes('qa')
      ? (config.qaWorld ?? DEFAULT_WORLD)
      : null;
}

/** The key a session value has in this tab's world: the spec's own key outside any world. */
export function worldKey(key: string): string {
  const world = heldWorld();
  return world ? `${key}@${world}` : key;
}

/** Whether a stored key is a QA world's (signing out of the default world leaves those alone). */
export const isWorldKey = (key: string) => key.lastIndexOf('@w-') > 0;

/**
 * Where /config.json is asked for. index.html preloads it with the cookie, which names the world
 * last entered in this browser; a tab holding a world of its own asks at another URL, so the
 * preloaded answer (another tab's world, perhaps) is never the one it reads.
 */
export function configUrl(): string {
  const world = read();
  return world === null ? '/config.json' : `/config.json?${WORLD_PARAM}=${encodeURIComponent(world)}`;
}

const sameOrigin = (input: RequestInfo | URL) => {
  const url = input instanceof Request ? input.url : String(input);
  return new URL(url, window.location.href).origin === window.location.origin;
};

/** `fetch` that names this tab's world (else its page's) on calls to this server (never to another origin: a real provider). */
export const worldFetch: typeof fetch = (input, init) => {
  const world = read() ?? pageWorld;
  if (world === null || !sameOrigin(input)) return globalThis.fetch(input, init);
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  headers.set(WORLD_HEADER, world);
  return globalThis.fetch(input, { ...init, headers });
};
