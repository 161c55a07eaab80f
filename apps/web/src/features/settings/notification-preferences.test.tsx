/**
 * Settings → Notifications with Web Push: the Phone switch beside in-app and email only with the
 * `web_push` capability (offered for pushed events, locked for the others), saved as `phone`; the
 * device block turns push on (permission, PushManager.subscribe with the server's key, then
 * `subscribe_push`) and off, and says plainly when the browser lacks push or refuses it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { TestProviders } from '@/testing/providers.tsx';
import { callsTo } from '@/testing/member.ts';
import { createMockClient, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { NotificationPreferences } from './notification-preferences.tsx';
import { keyBytes } from './push-device.tsx';

const KEY = 'BIFvzbRcRRalGFxl02LDuEgzr0sqzYjFk2XwV0lI0UxUuGOhu_4e21XhNvt_04YZQU4wVY_WYEnnwmxaw90Pyu4';
const row = (Event: string, extra: object = {}) => ({
  Event,
  In_App: true,
  Email: false,
  Email_Offered: Event !== 'payouts',
  Locked: Event === 'security',
  ...extra,
});
const WITH_PHONE = [
  row('payouts', { Phone: true, Phone_Offered: true }),
  row('team', { Phone: false, Phone_Offered: false }),
  row('deposits', { Phone: true, Phone_Offered: true }),
  row('security', { Phone: false, Phone_Offered: false }),
];

function renderPreferences(capabilities: string[], handlers: MockHandlers) {
  const calls: { path: string; input: unknown }[] = [];
  render(
    <TestProviders config={{ ...testConfig, capabilities }} trpcClient={createMockClient(handlers, calls)}>
      <MemoryRouter>
        <NotificationPreferences />
      </MemoryRouter>
    </TestProviders>,
  );
  return { calls };
}

/** A browser with Web Push: a service worker whose PushManager records what it is asked. */
function fakePushBrowser(permission: NotificationPermission) {
  let current: { endpoint: string; unsubscribe: () => Promise<boolean>; toJSON: () => unknown } | null = null;
  const subscribe = vi.fn((options: { applicationServerKey: Uint8Array }) => {
    current = {
      endpoint: 'https://fcm.googleapis.com/fcm/send/device-1',
      options: { applicationServerKey: options.applicationServerKey.buffer },
      unsubscribe: vi.fn(() => {
        current = null;
        return Promise.resolve(true);
      }),
      toJSON: () => ({
        endpoint: 'https://fcm.googleapis.com/fcm/send/device-1',
        expirationTime: null,
        keys: { p256dh: KEY, auth: '1uzM-5BQJKdCiGehhe2eqQ' },
      }),
    } as never;
    return Promise.resolve(current);
  });
  const registration = {
    active: {},
    pushManager: { subscribe, getSubscription: () => Promise.resolve(current) },
  };
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', {
    permission: 'default',
    requestPermission: vi.fn(() => Promise.resolve(permission)),
  });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: () => Promise.resolve(registration), ready: Promise.resolve(registration) },
  });
  return { subscribe };
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('Notification preferences', () => {
  it('without web_push shows in-app and email only, and no device block', async () => {
    renderPreferences(['notification_preferences'], {
      'notification.view_preferences': () => ({ Success: WITH_PHONE.map(({ ...r }) => r) }),
    });
    const payouts = await screen.findByRole('group', { name: 'Payouts' });
    expect(within(payouts).getByRole('checkbox', { name: 'In-app' })).toBeInTheDocument();
    expect(within(payouts).queryByRole('checkbox', { name: 'Phone' })).toBeNull();
    expect(screen.queryByTestId('push-device')).toBeNull();
  });

  it('with web_push a Phone switch per event, offered where pushed, saved as phone', async () => {
    let rows = WITH_PHONE;
    const { calls } = renderPreferences(['notification_preferences', 'web_push'], {
      'notification.view_preferences': () => ({ Success: rows }),
      'notification.view_push_key': () => ({ Success: { Public_Key: KEY, Devices: 0 } }),
      'notification.update_preferences': (input) => {
        rows = rows.map((r) => (r.Event === input.event ? { ...r, Phone: input.phone } : r));
        return { Success: 'Notification preferences saved', Preferences: rows };
      },
    });
    const payouts = await screen.findByRole('group', { name: 'Payouts' });
    const phone = within(payouts).getByRole('checkbox', { name: 'Phone' });
    expect(phone).toBeChecked();
    expect(phone).toBeEnabled();
    expect(
      within(screen.getByRole('group', { name: 'Team' })).getByRole('checkbox', { name: 'Phone' }),
    ).toBeDisabled();
    expect(
      within(screen.getByRole('group', { name: 'Security' })).getByRole('checkbox', { name: 'Phone' }),
    ).toBeDisabled();
    await userEvent.click(phone);
    expect(callsTo(calls, 'notification.update_preferences').map((c) => c.input)).toEqual([
      { event: 'payouts', phone: false },
    ]);
    await expect
      .poll(() => within(payouts).getByRole('checkbox', { name: 'Phone' }).matches(':checked'))
      .toBe(false);
  });

  it('says when the browser cannot receive push (no service worker or PushManager)', async () => {
    renderPreferences(['notification_preferences', 'web_push'], {
      'notification.view_preferences': () => ({ Success: WITH_PHONE }),
    });
    expect(await screen.findByText(/This browser cannot receive push notifications/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn on push notifications' })).toBeNull();
  });

  it('turns push on: permission, subscribe with the server’s key, then the server; and off again', async () => {
    const browser = fakePushBrowser('granted');
    const { calls } = renderPreferences(['notification_preferences', 'web_push'], {
      'notification.view_preferences': () => ({ Success: WITH_PHONE }),
      'notification.view_push_key': () => ({ Success: { Public_Key: KEY, Devices: 0 } }),
      'notification.subscribe_push': () => ({
        Success: 'Push notifications are on for this device',
        Devices: 1,
      }),
      'notification.unsubscribe_push': () => ({
        Success: 'Push notifications are off for this device',
        Devices: 0,
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on push notifications' }));
    expect(await screen.findByText(/Push notifications are on for this device\./)).toBeInTheDocument();
    expect(screen.getByTestId('push-device-state')).toHaveTextContent(
      '1 device of yours gets push notifications.',
    );
    expect(browser.subscribe).toHaveBeenCalledWith({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(KEY),
    });
    expect(callsTo(calls, 'notification.subscribe_push').map((c) => c.input)).toEqual([
      {
        endpoint: 'https://fcm.googleapis.com/fcm/send/device-1',
        keys: { p256dh: KEY, auth: '1uzM-5BQJKdCiGehhe2eqQ' },
        expirationTime: null,
      },
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Turn off on this device' }));
    expect(await screen.findByText(/Push notifications are off for this device\./)).toBeInTheDocument();
    expect(callsTo(calls, 'notification.unsubscribe_push').map((c) => c.input)).toEqual([
      { endpoint: 'https://fcm.googleapis.com/fcm/send/device-1' },
    ]);
  });

  it('says so when the browser blocks notifications, and subscribes nothing', async () => {
    const browser = fakePushBrowser('denied');
    const { calls } = renderPreferences(['notification_preferences', 'web_push'], {
      'notification.view_preferences': () => ({ Success: WITH_PHONE }),
      'notification.view_push_key': () => ({ Success: { Public_Key: KEY, Devices: 0 } }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on push notifications' }));
    expect(await screen.findByTestId('push-device-problem')).toHaveTextContent(
      /Notifications are blocked for this site/,
    );
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(callsTo(calls, 'notification.subscribe_push')).toEqual([]);
  });

  it('reads the VAPID key as its 65 bytes', () => {
    const bytes = keyBytes(KEY);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
  });
});
