/**
 * Settings → Security → Signed-in devices: the list with the `sessions` capability (sign out one,
 * a failed read as Unavailable with Retry), and without it a plain sentence and no call.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { Session } from '@md/shared';
import { TestProviders } from '@/testing/providers.tsx';
import { callsTo, renderSignedIn } from '@/testing/member.ts';
import { createMockClient, MockFailure, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { SessionsSection } from './sessions.tsx';

const SESSIONS: Session[] = [
  {
    ID: 'current-id',
    Device: 'Chrome 120 on Windows 10',
    Address: '10.0.0.1',
    Created_On: '2026-11-27T07:00:00.000Z',
    Last_Seen: '2026-11-27T07:10:00.000Z',
    Current: true,
  },
  {
    ID: 'phone-id',
    Device: 'Safari 17 on iOS',
    Address: '10.0.0.2',
    Created_On: '2026-11-26T07:00:00.000Z',
    Last_Seen: '2026-11-26T09:00:00.000Z',
    Current: false,
  },
];

function renderSection(handlers: MockHandlers) {
  const calls: { path: string; input: unknown }[] = [];
  render(
    <TestProviders
      config={{ ...testConfig, capabilities: ['sessions'] }}
      trpcClient={createMockClient(handlers, calls)}
    >
      <MemoryRouter>
        <SessionsSection />
      </MemoryRouter>
    </TestProviders>,
  );
  return { calls };
}

describe('Signed-in devices', () => {
  afterEach(() => {
    Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
  });

  it('lists the sessions, this one marked; "Sign out" ends the other by its ID', async () => {
    let listed = SESSIONS;
    const { calls } = renderSection({
      'user.view_sessions': () => ({ Success: listed }),
      'user.end_session': () => {
        listed = SESSIONS.slice(0, 1);
        return { Success: 'Session signed out' };
      },
    });
    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('This device')).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button')).toBeNull();
    expect(rows[1]!).toHaveTextContent('Safari 17 on iOS');
    expect(rows[1]!).toHaveTextContent('10.0.0.2');
    await userEvent.click(within(rows[1]!).getByRole('button', { name: /^Sign out Safari 17 on iOS/ }));
    expect(await screen.findByText('Session signed out')).toBeInTheDocument();
    expect(callsTo(calls, 'user.end_session').map((call) => call.input)).toEqual([{ session: 'phone-id' }]);
    await expect.poll(() => within(list).getAllByRole('listitem').length).toBe(1);
    expect(screen.getByRole('button', { name: 'Sign out all other devices' })).toBeDisabled();
  });

  it('a failed read shows Unavailable with Retry, not an empty list', async () => {
    let fail = true;
    renderSection({
      'user.view_sessions': () => {
        if (fail) throw new MockFailure('', 502);
        return { Success: SESSIONS };
      },
    });
    const retry = await screen.findByRole('button', { name: 'Retry: signed-in devices' });
    expect(screen.queryByRole('list', { name: 'Signed-in devices' })).toBeNull();
    fail = false;
    await userEvent.click(retry);
    expect(await screen.findByRole('list', { name: 'Signed-in devices' })).toBeInTheDocument();
  });

  it("the avatar menu's link (#sessions) opens Security and lands on the devices, not the top of the page", async () => {
    // jsdom lays nothing out and has no scrollIntoView: record which element asked to be shown.
    const scrolled = vi.fn();
    Object.defineProperty(Element.prototype, 'scrollIntoView', { value: scrolled, configurable: true });
    renderSignedIn('/dashboard/settings#sessions');
    expect(
      await screen.findByRole('tab', { name: 'Security', selected: true }, { timeout: 5000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(scrolled).toHaveBeenCalled());
    expect(scrolled.mock.contexts.at(-1)).toBe(screen.getByRole('region', { name: 'Signed-in devices' }));
  });

  it('without the sessions capability says it is not offered and calls nothing', async () => {
    const { calls } = renderSignedIn('/dashboard/settings');
    await userEvent.click(await screen.findByRole('tab', { name: 'Security' }, { timeout: 5000 }));
    expect(
      await screen.findByText(/This server does not offer a list of signed-in devices/),
    ).toBeInTheDocument();
    expect(callsTo(calls, 'user.view_sessions')).toEqual([]);
  });
});
