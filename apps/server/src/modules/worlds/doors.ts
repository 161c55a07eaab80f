/**
 * The doors of the QA worlds: GET /__qa/worlds/:id/enter puts the tab in a world, GET
 * /__qa/worlds/leave takes it out. Both answer 303 to `/?qa_world=<id>` (`default` on leaving): the
 * web app keeps that world as the tab's own and names it on every call (X-QA-World), so other tabs
 * stay where they are. The `qa_world` cookie they set (or clear) is for a tab that holds no world
 * yet: a URL typed in a new tab starts in the world last entered.
 *
 * Rule (world fixation): a door opens only for a navigation that starts on this server or with the
 * person at the browser. A browser's navigation carries `Sec-Fetch-Site`:
 * - `same-origin` (a page of this server: the QA panel) and `none` (a typed or pasted URL, a
 *   bookmark) are let through;
 * - absent is let through too: curl, API clients and browsers too old to send the header. A
 *   cross-site link cannot make such a client send anything, so it is no way in for an attacker;
 * - `same-site` (a sibling subdomain: another app of the same site, which others may control) and
 *   `cross-site` are refused, as is any other value: 403 `{ Error }` with no Set-Cookie.
 * Without it, a link on any site could put a tester's browser in the attacker's world (they then
 * sign in, type and pay there) or take it out of theirs (their next steps land in the default world,
 * shared by everyone), so leaving follows the same rule: both doors change which world the tab's
 * actions go to. A refused tester pastes the link in the address bar (`none`) or uses the QA panel.
 *
 * Every answer of a door is `Cache-Control: no-store` and `Vary: Sec-Fetch-Site`. The cookie is
 * `HttpOnly; SameSite=Strict; Path=/`. An entry is recorded (registry.ts `entered`: who, when); a
 * refusal is a warning in the log. The doors sit in the root scope: a browser navigating cannot
 * send X-QA-Token, so the world id (128 random bits) is the key.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { stringifySetCookie } from 'cookie';
import { notFound, sendError } from '../../core/errors.ts';
import { qaClientOf } from '../qa/token.ts';
import { WORLD_MESSAGES, type Worlds } from './registry.ts';
import { WORLD_COOKIE } from './routes.ts';

const LIFECYCLE = '/__qa/worlds';
/** The parameter that names the tab's world to the web app (apps/web/src/lib/world.ts). */
export const WORLD_PARAM = 'qa_world';

export const WORLD_DOOR_MESSAGES = {
  enter:
    'Entering a QA world must start on this server: use Enter in the QA panel (Worlds), or paste the enter link into the address bar. A link from another site or subdomain cannot put this browser in a world.',
  leave:
    'Leaving a QA world must start on this server: use Leave in the QA panel (Worlds), or paste /__qa/worlds/leave into the address bar. A link from another site or subdomain cannot take this browser out of its world.',
} as const;

/** The `Sec-Fetch-Site` values a door opens for; absent opens it too (see above). */
const ALLOWED_SITES: ReadonlySet<string> = new Set(['same-origin', 'none']);

/** Whether a door may change this request's world: `Sec-Fetch-Site` same-origin, none, or absent. */
export function doorOpensFor(request: Pick<FastifyRequest, 'headers'>): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === undefined) return true;
  return typeof site === 'string' && ALLOWED_SITES.has(site.trim().toLowerCase());
}

/** The `qa_world` cookie: `value` set, or cleared with `maxAge` 0. */
export const worldCookie = (value: string, maxAge?: number) =>
  stringifySetCookie({
    name: WORLD_COOKIE,
    value,
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    ...(maxAge !== undefined ? { maxAge } : {}),
  });

const doorHeaders = (reply: FastifyReply) =>
  reply.header('cache-control', 'no-store').header('vary', 'Sec-Fetch-Site');

function refuse(request: FastifyRequest, reply: FastifyReply, door: keyof typeof WORLD_DOOR_MESSAGES) {
  request.log.warn(
    { door, site: request.headers['sec-fetch-site'], client: qaClientOf(request) },
    `World door refused a ${String(request.headers['sec-fetch-site'])} navigation`,
  );
  return sendError(doorHeaders(reply), 403, WORLD_DOOR_MESSAGES[door]);
}

/** Entering and leaving: in the root scope (a browser navigating cannot send X-QA-Token). */
export function registerWorldDoors(app: FastifyInstance, worlds: Pick<Worlds, 'info' | 'entered'>) {
  app.get<{ Params: { id: string } }>(`${LIFECYCLE}/:id/enter`, async (request, reply) => {
    // Refused before the lookup: a cross-site navigation learns nothing about which worlds exist.
    if (!doorOpensFor(request)) return refuse(request, reply, 'enter');
    const world = worlds.info(request.params.id);
    if (!world) throw notFound(WORLD_MESSAGES.unknown(request.params.id));
    worlds.entered(world.id, qaClientOf(request));
    return doorHeaders(reply)
      .header('set-cookie', worldCookie(world.id))
      .redirect(`/?${WORLD_PARAM}=${encodeURIComponent(world.id)}`, 303);
  });
  app.get(`${LIFECYCLE}/leave`, async (request, reply) => {
    if (!doorOpensFor(request)) return refuse(request, reply, 'leave');
    return doorHeaders(reply)
      .header('set-cookie', worldCookie('', 0))
      .redirect(`/?${WORLD_PARAM}=default`, 303);
  });
}
