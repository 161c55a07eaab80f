import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { TestProviders } from '@/testing/providers.tsx';
import { AuthProvider } from '@/lib/auth.tsx';
import { callsTo, memberProfile } from '@/testing/member.ts';
import { createMockClient, MockFailure, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import BinaryChartPage from './binary-chart.tsx';
import { FALLBACK_WALK_BOUND } from './tree-finder.ts';

/**
 * demo ─ left alice ─ left carol ─ left dave ─ left erin
 *      │            └ right (empty)
 *      └ right bob (no children)
 * and, for the walks, a left chain l1 … lN under erin when `chain` says so.
 */
function treeOf(chain = 0): Record<string, [string | null, string | null]> {
  const tree: Record<string, [string | null, string | null]> = {
    demo: ['alice', 'bob'],
    alice: ['carol', null],
    carol: ['dave', null],
    dave: ['erin', null],
    erin: [chain > 0 ? 'l1' : null, null],
  };
  for (let i = 1; i <= chain; i++) tree[`l${i}`] = [i < chain ? `l${i + 1}` : null, null];
  return tree;
}

function downlineHandler(tree: Record<string, [string | null, string | null]>) {
  return ({ username }: Record<string, unknown>) => {
    const [left, right] = tree[String(username)] ?? [null, null];
    // bob is the one inactive member.
    const Downline = [
      left && { Username: left, Side: '0', Status: true },
      right && { Username: right, Side: '1', Status: right !== 'bob' },
    ].filter(Boolean);
    return { Success: { Username: String(username), CountUser: Downline.length, Downline } };
  };
}

/** The page alone, signed in as demo, with the server's capabilities; opened on the Tree tab. */
async function openTree(capabilities: string[], handlers: MockHandlers, tree = treeOf()) {
  localStorage.setItem('jwt', 'jwt-1');
  localStorage.setItem(
    'user',
    JSON.stringify({ username: 'demo', avatar: 'Default', name: 'Demo Member', email: 'demo@example.com' }),
  );
  const calls: { path: string; input: unknown }[] = [];
  const all: MockHandlers = {
    'user.view_profile': () => ({ Success: [memberProfile({ Subscription: true })] }),
    'binary.view_binary_downline': downlineHandler(tree),
    'binary.view_binary_downline_details': ({ username }) => ({
      Success: {
        Current_Binary: [1, 2],
        Earnings: 3,
        Direct_Bouns: 4,
        Status: true,
        Sponsor: 'demo',
        Side: '0',
        Total_User_Subscription_Plan: {},
        Username: username,
      },
    }),
    ...handlers,
  };
  const routes = [
    {
      element: (
        <AuthProvider>
          <Outlet />
        </AuthProvider>
      ),
      children: [{ path: '/dashboard/binarychart', element: <BinaryChartPage /> }],
    },
  ];
  render(
    <TestProviders config={{ ...testConfig, capabilities }} trpcClient={createMockClient(all, calls)}>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/dashboard/binarychart'] })} />
    </TestProviders>,
  );
  // The list is the default view.
  await screen.findByRole('tree', { name: 'Binary tree' });
  fireEvent.click(screen.getByRole('tab', { name: 'Tree' }));
  const graph = await screen.findByRole('tree', { name: 'Binary tree graph' });
  return { calls, graph };
}

const member = (graph: HTMLElement, name: string) =>
  graph.querySelector<HTMLElement>(`[data-slot="member"][data-name="${name}"]`);
const crumbs = () => within(screen.getByRole('navigation', { name: 'Path from you' }));
const crumbNames = () =>
  crumbs()
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('Binary chart: the Tree view', () => {
  it('draws three levels below the top, two slots per member with the empty ones, coloured by side, and loads nothing deeper', async () => {
    const { calls, graph } = await openTree(['binary_paths'], {});
    await waitFor(() => expect(member(graph, 'dave')).not.toBeNull());
    // demo (top), alice/bob, carol/empty + empty/empty, dave/empty: dave's children are a level too deep.
    expect(
      [...graph.querySelectorAll('[data-slot="member"]')].map((el) => [
        el.getAttribute('data-name'),
        el.getAttribute('aria-level'),
        el.getAttribute('data-side'),
      ]),
    ).toEqual([
      ['demo', '1', 'root'],
      ['alice', '2', '0'],
      ['bob', '2', '1'],
      ['carol', '3', '0'],
      ['dave', '4', '0'],
    ]);
    expect(
      [...graph.querySelectorAll('[data-slot="empty"]')].map((el) => [
        el.getAttribute('data-key'),
        el.getAttribute('data-side'),
      ]),
    ).toEqual([
      ['01', '1'],
      ['10', '0'],
      ['11', '1'],
      ['001', '1'],
    ]);
    expect(member(graph, 'alice')).toHaveTextContent('aliceLeftActive');
    expect(member(graph, 'bob')).toHaveTextContent('bobRightInactive');
    // Left and right in their palettes (the list's).
    expect(member(graph, 'alice')!.className).not.toEqual(member(graph, 'bob')!.className);
    expect(
      callsTo(calls, 'binary.view_binary_downline')
        .map((c) => (c.input as { username: string }).username)
        .sort(),
    ).toEqual(['alice', 'bob', 'carol', 'demo']);
  });

  it('moves with the arrow keys, shows the panel on focus, opens a member with Enter and goes up from the top', async () => {
    const { graph } = await openTree(['binary_paths'], {});
    await waitFor(() => expect(member(graph, 'dave')).not.toBeNull());
    const top = member(graph, 'demo')!;
    expect(top).toHaveAttribute('tabindex', '0');
    act(() => top.focus());
    const press = async (key: string, expected: string) => {
      fireEvent.keyDown(document.activeElement!, { key });
      await waitFor(() => expect(document.activeElement).toBe(member(graph, expected)));
    };
    await press('ArrowDown', 'alice');
    expect(member(graph, 'alice')).toHaveAttribute('tabindex', '0');
    expect(await screen.findByTestId('node-details')).toHaveTextContent('alice');
    await press('ArrowRight', 'bob');
    await press('ArrowLeft', 'alice');
    await press('ArrowDown', 'carol');
    await press('ArrowUp', 'alice');
    await press('ArrowDown', 'carol');
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    // Opened at carol: the path from demo, and carol's own levels below.
    await waitFor(() => expect(crumbNames()).toEqual(['demo', 'alice', 'carol']));
    await waitFor(() => expect(member(graph, 'erin')).not.toBeNull());
    expect(member(graph, 'carol')).toHaveAttribute('aria-level', '1');
    expect(member(graph, 'demo')).toBeNull();
    // Up at the top opens the parent.
    act(() => member(graph, 'carol')!.focus());
    fireEvent.keyDown(member(graph, 'carol')!, { key: 'ArrowUp' });
    await waitFor(() => expect(crumbNames()).toEqual(['demo', 'alice']));
    // A click opens too (two levels down: the path gains both); a crumb goes back.
    await waitFor(() => expect(member(graph, 'dave')).not.toBeNull());
    fireEvent.click(member(graph, 'dave')!);
    await waitFor(() => expect(crumbNames()).toEqual(['demo', 'alice', 'carol', 'dave']));
    fireEvent.click(crumbs().getByRole('button', { name: 'demo' }));
    await waitFor(() => expect(crumbNames()).toEqual(['demo']));
  });

  it('jumps to the bottom of a deep leg with the server, showing the path compactly: a few names at each end and the count between', async () => {
    const head = ['demo', 'l1', 'l2', 'l3', 'l4'];
    const tail = ['l26374', 'l26375', 'l26376', 'l26377', 'l26378'];
    const { calls, graph } = await openTree(['binary_paths'], {
      'binary.view_leg_bottom': ({ side }) => ({
        Success:
          side === '0'
            ? { Username: 'l26378', Levels: 26_378, Head: head, Skipped: 26_369, Tail: tail }
            : { Username: 'demo', Levels: 0, Head: ['demo'], Skipped: 0, Tail: [] },
      }),
      'binary.view_path': ({ username }) => {
        if (username !== 'l26374') throw new MockFailure('User not found in your downline', 404);
        return {
          Success: {
            Username: 'l26374',
            Levels: 26_374,
            Head: head,
            Skipped: 26_365,
            Tail: ['l26370', 'l26371', 'l26372', 'l26373', 'l26374'],
          },
        };
      },
    });
    fireEvent.click(screen.getByRole('button', { name: /Bottom of left leg/ }));
    expect(await screen.findByTestId('tree-notice')).toHaveTextContent(
      'Bottom of your left leg: l26378, 26,378 levels below you. A new member you register on the left is placed under l26378.',
    );
    expect(crumbNames()).toEqual([...head, '… 26,369 more …', ...tail]);
    // Never more than the ends in the DOM, whatever the depth.
    expect(crumbs().getAllByRole('button')).toHaveLength(9);
    expect(crumbs().getByText('l26378')).toHaveAttribute('aria-current', 'location');
    await waitFor(() => expect(member(graph, 'l26378')).not.toBeNull());
    expect(member(graph, 'l26378')).toHaveAttribute('data-side', '0');
    expect(callsTo(calls, 'binary.view_leg_bottom').map((c) => c.input)).toEqual([{ side: '0' }]);

    // A tail crumb opens it; up from the first of the tail asks the server for the names past the gap.
    fireEvent.click(crumbs().getByRole('button', { name: 'l26374' }));
    await waitFor(() => expect(crumbNames()).toEqual([...head, '… 26,369 more …', 'l26374']));
    fireEvent.click(screen.getByRole('button', { name: /Up one level/ }));
    await waitFor(() =>
      expect(crumbNames()).toEqual([...head, '… 26,365 more …', 'l26370', 'l26371', 'l26372', 'l26373']),
    );
    expect(callsTo(calls, 'binary.view_path').map((c) => c.input)).toEqual([{ username: 'l26374' }]);

    // An empty leg: the member itself.
    fireEvent.click(screen.getByRole('button', { name: /Bottom of right leg/ }));
    await waitFor(() =>
      expect(screen.getByTestId('tree-notice')).toHaveTextContent('Your right leg is empty'),
    );
    expect(crumbNames()).toEqual(['demo']);
  });

  it('finds a member by name with the server and opens the tree at it; an unknown name or one outside says so', async () => {
    const { calls, graph } = await openTree(['binary_paths'], {
      'binary.view_path': ({ username }) => {
        if (username !== 'carol') throw new MockFailure('User not found in your downline', 404);
        return {
          Success: { Username: 'carol', Levels: 2, Head: ['demo', 'alice', 'carol'], Skipped: 0, Tail: [] },
        };
      },
    });
    const box = screen.getByRole('textbox', { name: 'Find a member by username' });
    fireEvent.change(box, { target: { value: '  Carol ' } });
    fireEvent.click(screen.getByRole('button', { name: /Find/ }));
    expect(await screen.findByTestId('tree-notice')).toHaveTextContent('carol is 2 levels below you.');
    expect(crumbNames()).toEqual(['demo', 'alice', 'carol']);
    await waitFor(() => expect(member(graph, 'carol')).toHaveAttribute('aria-level', '1'));
    expect(callsTo(calls, 'binary.view_path').map((c) => c.input)).toEqual([{ username: 'carol' }]);

    fireEvent.change(box, { target: { value: 'stranger' } });
    fireEvent.submit(box.closest('form')!);
    await waitFor(() =>
      expect(screen.getByTestId('tree-notice')).toHaveTextContent(
        'No member named stranger in your downline.',
      ),
    );
    // The tree stays where it was.
    expect(crumbNames()).toEqual(['demo', 'alice', 'carol']);
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.submit(box.closest('form')!);
    await waitFor(() =>
      expect(screen.getByTestId('tree-notice')).toHaveTextContent('Enter a username to find.'),
    );
    expect(callsTo(calls, 'binary.view_path')).toHaveLength(2);
  });

  it('without the extension walks the tree itself: down a leg and breadth first for a name, and says when it stopped at the bound', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { calls, graph } = await openTree([], {}, treeOf(FALLBACK_WALK_BOUND + 20));
    expect(screen.getByTestId('tree-walk-note')).toHaveTextContent(`${FALLBACK_WALK_BOUND} calls at most`);
    const before = callsTo(calls, 'binary.view_binary_downline').length;

    fireEvent.change(screen.getByRole('textbox', { name: 'Find a member by username' }), {
      target: { value: 'dave' },
    });
    fireEvent.click(screen.getByRole('button', { name: /Find/ }));
    await waitFor(() =>
      expect(screen.getByTestId('tree-notice')).toHaveTextContent('dave is 3 levels below you.'),
    );
    expect(crumbNames()).toEqual(['demo', 'alice', 'carol', 'dave']);
    await waitFor(() => expect(member(graph, 'dave')).toHaveAttribute('aria-level', '1'));

    fireEvent.click(screen.getByRole('button', { name: /Bottom of left leg/ }));
    await waitFor(
      () =>
        expect(screen.getByTestId('tree-notice')).toHaveTextContent(
          `Stopped after ${FALLBACK_WALK_BOUND} levels`,
        ),
      { timeout: 5000 },
    );
    // The path of 101 names, compacted.
    expect(crumbNames()).toEqual([
      'demo',
      'alice',
      'carol',
      'dave',
      'erin',
      `… ${FALLBACK_WALK_BOUND + 1 - 10} more …`,
      'l92',
      'l93',
      'l94',
      'l95',
      'l96',
    ]);

    fireEvent.change(screen.getByRole('textbox', { name: 'Find a member by username' }), {
      target: { value: 'l119' },
    });
    fireEvent.click(screen.getByRole('button', { name: /Find/ }));
    await waitFor(
      () =>
        expect(screen.getByTestId('tree-notice')).toHaveTextContent(
          `No member named l119 near the top of your team`,
        ),
      { timeout: 5000 },
    );
    expect(callsTo(calls, 'binary.view_leg_bottom')).toHaveLength(0);
    expect(callsTo(calls, 'binary.view_path')).toHaveLength(0);
    // Each walk at most the bound (the graph's own loads aside, and cached answers not asked again).
    expect(callsTo(calls, 'binary.view_binary_downline').length - before).toBeLessThanOrEqual(
      3 * FALLBACK_WALK_BOUND + 20,
    );
    error.mockRestore();
  });
});
