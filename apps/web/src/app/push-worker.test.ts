/**
 * The service worker's Web Push part (public/push-sw.js), run against a fake worker scope: a push
 * is shown with its title, body, the app's icon and its screen; a click focuses a window of the app
 * and takes it there, or opens one; only paths of this app are followed.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';

const SOURCE = readFileSync(resolve(import.meta.dirname, '../../public/push-sw.js'), 'utf8');
const ORIGIN = 'https://app.example.com';

interface FakeClient {
  url: string;
  focused: boolean;
  focus: () => Promise<FakeClient>;
  navigate: (url: string) => Promise<FakeClient | null>;
}

function worker(windows: FakeClient[] = []) {
  const listeners: Record<string, (event: unknown) => void> = {};
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const opened: string[] = [];
  const scope = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: (event: unknown) => void) => (listeners[type] = listener),
    registration: {
      showNotification: (title: string, options: Record<string, unknown>) => {
        shown.push({ title, options });
        return Promise.resolve();
      },
    },
    clients: {
      matchAll: () => Promise.resolve(windows),
      openWindow: (url: string) => {
        opened.push(url);
        return Promise.resolve(null);
      },
    },
  };
  runInNewContext(SOURCE, { self: scope, URL });
  /** Dispatches an event and waits for what it asked to wait for. */
  const dispatch = async (type: string, event: object) => {
    let waited: Promise<unknown> = Promise.resolve();
    listeners[type]!({ ...event, waitUntil: (p: Promise<unknown>) => (waited = p) });
    await waited;
  };
  return { dispatch, shown, opened };
}

const pushData = (value: unknown) => ({
  json: () => (typeof value === 'string' ? JSON.parse(value) : value),
  text: () => (typeof value === 'string' ? value : JSON.stringify(value)),
});
const click = (url: unknown) => ({ notification: { data: { url }, close: vi.fn() } });
const appWindow = (path: string, focused = false): FakeClient => {
  const client: FakeClient = {
    url: `${ORIGIN}${path}`,
    focused,
    focus: vi.fn(() => Promise.resolve(client)),
    navigate: vi.fn((url: string) => Promise.resolve({ ...client, url })),
  };
  return client;
};

describe('push', () => {
  it('shows the title and body with the app icon, its screen and its tag', async () => {
    const w = worker();
    await w.dispatch('push', {
      data: pushData({
        title: 'Deposit received',
        body: 'Your deposit of $50.00 was received.',
        url: '/dashboard/wallets',
        tag: 'DP1',
      }),
    });
    expect(w.shown).toEqual([
      {
        title: 'Deposit received',
        options: {
          body: 'Your deposit of $50.00 was received.',
          icon: '/icons/icon-192.png',
          badge: '/icons/icon-192.png',
          tag: 'DP1',
          data: { url: '/dashboard/wallets' },
        },
      },
    ]);
  });

  it('shows a push that is not JSON as its text, leading to the dashboard', async () => {
    const w = worker();
    await w.dispatch('push', { data: { json: () => JSON.parse('plain'), text: () => 'plain' } });
    expect(w.shown[0]).toMatchObject({
      title: 'Member Dashboard',
      options: { body: 'plain', data: { url: '/dashboard' } },
    });
  });

  it('never leads off the app: another site or a bad value opens the dashboard', async () => {
    const w = worker();
    for (const url of ['https://evil.example/phish', 'javascript:alert(1)', 42, ''])
      await w.dispatch('push', { data: pushData({ title: 'x', body: 'y', url }) });
    expect(w.shown.map((s) => (s.options.data as { url: string }).url)).toEqual([
      '/dashboard',
      '/dashboard',
      '/dashboard',
      '/dashboard',
    ]);
  });
});

describe('a click on the notification', () => {
  it('focuses the open window of the app and takes it to the screen', async () => {
    const other = appWindow('/dashboard/history');
    const focused = appWindow('/dashboard', true);
    const w = worker([other, focused]);
    const event = click('/dashboard/wallets?tab=withdrawal');
    await w.dispatch('notificationclick', event);
    expect(event.notification.close).toHaveBeenCalled();
    expect(focused.focus).toHaveBeenCalled();
    expect(focused.navigate).toHaveBeenCalledWith(`${ORIGIN}/dashboard/wallets?tab=withdrawal`);
    expect(other.navigate).not.toHaveBeenCalled();
    expect(w.opened).toEqual([]);
  });

  it('opens a window at the screen when none of the app is open', async () => {
    const w = worker([]);
    await w.dispatch('notificationclick', click('/dashboard/bonus'));
    expect(w.opened).toEqual([`${ORIGIN}/dashboard/bonus`]);
  });

  it('opens a window when the open one cannot be navigated (not controlled by the worker)', async () => {
    const open = appWindow('/');
    open.navigate = vi.fn(() => Promise.resolve(null));
    const w = worker([open]);
    await w.dispatch('notificationclick', click('/dashboard/history'));
    expect(open.focus).toHaveBeenCalled();
    expect(w.opened).toEqual([`${ORIGIN}/dashboard/history`]);
  });

  it('does not navigate a window already on the screen', async () => {
    const open = appWindow('/dashboard/history');
    const w = worker([open]);
    await w.dispatch('notificationclick', click('/dashboard/history'));
    expect(open.focus).toHaveBeenCalled();
    expect(open.navigate).not.toHaveBeenCalled();
    expect(w.opened).toEqual([]);
  });
});
