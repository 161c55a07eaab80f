/**
 * Shared steps of the browser suite: a QA world per test, the QA API, API-side set-up, and sign-in.
 * Files run in parallel against one server; each test is alone in its world (newWorld), so it may
 * rely on the demo data as seeded and on its own clock, mailbox and fault rules. The QA calls go
 * through the QA client (@md/qa-client), typed by the server's OpenAPI document.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createQaClient, type FaultRuleInput, type WorldCalls, type WorldSource } from '@md/qa-client';
import { enterWorld as enterQaWorld } from '@md/qa-client/playwright';
import { launchBrowser, newTestContext, reusablePage, traceContext } from './browser.ts';
import type { E2eServer } from './global-setup.ts';

/** The QA client of `server` (it holds only its options: one per use costs nothing). */
const qaOf = (server: E2eServer) => createQaClient({ baseUrl: server.url });

/** The QA calls of the running test's world (global-setup.ts, `world`), or of the default world. */
export const qaIn = (server: E2eServer): WorldCalls =>
  server.world ? qaOf(server).world(server.world) : qaOf(server).defaultWorld;

/** A request to the server, in the running test's world. */
export const fetchIn = (server: E2eServer, path: string, init: RequestInit = {}) =>
  qaIn(server).fetch(path, init);

export async function api<T = unknown>(
  server: E2eServer,
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const response = await fetchIn(server, path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

/**
 * Puts `server` in a new world of its client mode, a copy of the demo data: the running test's
 * api calls name it from now on, and `contexts` (browser contexts) enter it by its cookie.
 */
export const newWorld = (server: E2eServer, ...contexts: BrowserContext[]) =>
  newWorldFrom(server, { from: 'demo' }, ...contexts);

/** As newWorld, the world made from `source`: a scenario (`from`), or a declared `state` (its build awaited). */
export async function newWorldFrom(server: E2eServer, source: WorldSource, ...contexts: BrowserContext[]) {
  const world = await qaOf(server).createWorld(source, { clientMode: server.mode });
  server.world = world.id;
  for (const context of contexts) await enterWorld(server, context);
}

/** The browser context sends the running test's world with every request to the server (its cookie). */
export const enterWorld = (server: E2eServer, context: BrowserContext) =>
  enterQaWorld(context, qaOf(server).world(server.world!));

/** Deletes the running test's world (its data, clock, mailbox and fault rules go with it). */
export async function endWorld(server: E2eServer) {
  const id = server.world;
  if (!id) return;
  delete server.world;
  await qaOf(server).world(id).delete();
}

export const mailbox = (server: E2eServer, to: string) => qaIn(server).mailbox.list(to);

/** How many mails an address or username has had: take it before an action that mails a code. */
export const mailCount = async (server: E2eServer, to: string) => (await mailbox(server, to)).length;

/**
 * The newest OTP mailed to an address or username, once more than `seen` mails have arrived (waits
 * briefly). Counting mails, not comparing times: the mailbox stamps the QA clock, which a test may
 * move, and a code mailed a moment before (registration) must not pass for the one asked for.
 */
export const latestOtp = (server: E2eServer, to: string, seen = 0): Promise<string> =>
  qaIn(server).mailbox.lastOtp(to, { seen });

export const totpCode = (server: E2eServer, username: string) => qaIn(server).totp(username);

let counter = 0;
/** A username unique within this run. */
export const uniqueName = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/** Register a member through the API (as the registration screen does), answering its token. */
export async function registerMember(server: E2eServer, username: string, password = 'Start#1234') {
  const email = `${username}@example.com`;
  await api(server, '/user/verify_otp', { page: 'Email Verification', username, email, project: 'Pro' });
  const otp = await latestOtp(server, email);
  const answer = await api<{ JWT: string }>(server, '/user/register', {
    username,
    name: 'E2E Member',
    sponsor: 'demo',
    email,
    password,
    conpassword: password,
    otp,
    side: '1',
    country: 'India',
    project: 'Pro',
  });
  return { username, email, password, token: answer.JWT };
}

export async function signIn(
  page: Page,
  server: E2eServer,
  username: string,
  password: string,
  totp?: () => Promise<string>,
) {
  await page.goto(`${server.url}/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (totp) {
    const field = page.getByLabel('TOTP');
    await field.waitFor({ state: 'visible' });
    await field.fill(await totp());
  }
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${server.url}/dashboard`);
  await expect.poll(() => page.getByTestId('dashboard-home').isVisible()).toBe(true);
}

/** Text of the toasts currently shown. */
export const toastTexts = (page: Page) =>
  page.locator('[data-scope="toast"][data-part="root"]').allInnerTexts();
/** A toast saying `text`, within `timeout` ms (longer for work that re-seeds, such as a reset). */
export async function expectToast(page: Page, text: string, timeout = 10_000) {
  await expect.poll(async () => (await toastTexts(page)).join('\n'), { timeout }).toContain(text);
}

/**
 * A gate a route handler holds a call at until the test opens it (at most 15 s, so a test that
 * failed first leaves nothing hanging). A progress toast that the held call's answer ends stays on
 * screen until the test has seen it: a poll (every 100 ms, each taking hundreds of ms on a busy
 * machine) missed one that was up for 0.8 s, and in a fresh page, where the toasts' UI loads with
 * the first toast, an answer that came before it mounted made the toast come and go in one frame.
 */
export function testGate(limitMs = 15_000) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    open,
    /** Resolves once the test opened the gate, or the limit passed. */
    async passed() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([opened, new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)))]);
      clearTimeout(timer);
    },
  };
}

/**
 * In the calling describe block whose browser contexts serve many tests: before each test a new
 * world on `server`, entered by each of `contexts()`, then `entered` (signing in again, say: a
 * world's tokens are its own); the world is deleted after the test.
 */
export function worldPerTest(
  server: E2eServer,
  contexts: () => BrowserContext[],
  entered?: () => Promise<void>,
) {
  beforeEach(async () => {
    // The last world's token must not reach the next world: refused 401 there, it ends the session
    // (removing the token signed in below). So it leaves storage while its page is still the app,
    // and the page leaves too: the next sign-in loads the app signed out, and calls nothing with it.
    for (const context of contexts())
      for (const page of context.pages()) {
        if (page.url().startsWith(server.url))
          await page
            .evaluate(() => {
              localStorage.removeItem('jwt');
              localStorage.removeItem('user');
            })
            // A page caught mid-navigation cannot run it: it is left all the same.
            .catch(() => undefined);
        await page.goto('about:blank');
      }
    await newWorld(server, ...contexts());
    await entered?.();
  });
  afterEach(() => endWorld(server));
}

/**
 * In the calling describe block: one browser, and for every test a page as fresh as a new browser
 * context's (browser.ts, reusablePage: nothing stored, no cookie, no listener, no route), in a
 * world of its own on `server` (made before the test, deleted after). `null`: a file's own server
 * that knows no worlds, entered by no cookie (a world cookie would reach it too: cookies ignore ports).
 * `options`: how the browser is launched (browser.ts, launchBrowser), and `serviceWorkers: 'allow'`
 * for a test of the app's service worker (blocked otherwise: browser.ts, newTestContext); a worker
 * outlives its pages, so then every test has a context of its own.
 */
export function freshPagePerTest(
  server: E2eServer | null,
  viewport: { width: number; height: number },
  use: (page: Page) => void,
  {
    serviceWorkers = 'block',
    ...browserOptions
  }: Parameters<typeof launchBrowser>[0] & {
    serviceWorkers?: 'allow' | 'block';
  } = {},
) {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let kept: ReturnType<typeof reusablePage> | undefined;
  let trace: ReturnType<typeof traceContext> | undefined;
  beforeAll(async () => {
    browser = await launchBrowser(browserOptions);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
  beforeEach(async ({ onTestFailed }) => {
    trace?.stop();
    const reuse = kept !== undefined && serviceWorkers === 'block' && !kept.sticky();
    if (!reuse) {
      await context?.close();
      context = await newTestContext(browser!, { viewport, serviceWorkers });
    }
    const thisTrace = traceContext(context!);
    trace = thisTrace;
    onTestFailed(() => thisTrace.print('the test failed'));
    if (reuse) {
      await kept!.reset();
      thisTrace.follow(kept!.page);
    } else kept = reusablePage(context!, await context!.newPage());
    if (server) await newWorld(server, context!);
    use(kept!.page);
  });
  afterEach(async () => {
    if (server) await endWorld(server);
  });
}

/** A fault rule of the QA surface (docs/qa-control.md: POST /__qa/faults). `path` is a provider path or '*'. */
export type FaultRule = FaultRuleInput;
export const addFault = (server: E2eServer, rule: FaultRule) => qaIn(server).faults.add(rule);
/** Removes every fault rule of the test's world (its end removes them too). */
export const clearFaults = (server: E2eServer) => qaIn(server).faults.clear();

/**
 * Signs in without the sign-in screen: the token from POST /user/login and the stored user, as the
 * app keeps them (spec §3), so a test starts on a dashboard page at once.
 */
export async function signInWithToken(page: Page, server: E2eServer, username: string, password: string) {
  const { JWT } = await api<{ JWT: string }>(server, '/user/login', { username, password });
  if (!page.url().startsWith(server.url)) await page.goto(`${server.url}/config.json`);
  await page.evaluate(
    ([jwt, user]) => {
      localStorage.setItem('jwt', jwt!);
      localStorage.setItem(
        'user',
        JSON.stringify({ username: user, avatar: 'Default', name: '', email: '' }),
      );
    },
    [JWT, username],
  );
  return JWT;
}
