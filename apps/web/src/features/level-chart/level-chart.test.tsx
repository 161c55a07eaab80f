import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { LEVEL_PAGE_SIZE } from '@md/shared';
import { TestProviders } from '@/testing/providers.tsx';
import { AuthProvider } from '@/lib/auth.tsx';
import { callsTo, renderSignedIn } from '@/testing/member.ts';
import { createMockClient, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import LevelChartPage, { LEVEL_PALETTE, levelPalette } from './level-chart.tsx';

/** The page alone, signed in as demo, with the server's capabilities. */
function renderWithCapabilities(capabilities: string[], handlers: MockHandlers) {
  localStorage.setItem('jwt', 'jwt-1');
  localStorage.setItem(
    'user',
    JSON.stringify({ username: 'demo', avatar: 'Default', name: 'Demo Member', email: 'demo@example.com' }),
  );
  const calls: { path: string; input: unknown }[] = [];
  const routes = [
    {
      element: (
        <AuthProvider>
          <Outlet />
        </AuthProvider>
      ),
      children: [{ path: '/dashboard/levelchart', element: <LevelChartPage /> }],
    },
  ];
  render(
    <TestProviders config={{ ...testConfig, capabilities }} trpcClient={createMockClient(handlers, calls)}>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/dashboard/levelchart'] })} />
    </TestProviders>,
  );
  return { calls };
}

/** A sponsor with `total` directs named <prefix>0…, answered a page at a time. */
const pagedDirects =
  (total: number, prefix: string) => (input: { username?: unknown; page?: unknown; per_page?: unknown }) => {
    const perPage = Number(input.per_page ?? LEVEL_PAGE_SIZE);
    const from = (Number(input.page) - 1) * perPage;
    const rows = Array.from({ length: Math.max(0, Math.min(perPage, total - from)) }, (_, i) => ({
      Username: `${prefix}${from + i}`,
      Count: from + i === 0 ? 1 : 0,
    }));
    return {
      Success: {
        Username: String(input.username),
        CountUser: total,
        Downline: rows,
        Page: Number(input.page),
        Per_Page: perPage,
      },
    };
  };

describe('Level chart', () => {
  it('lists the direct downline with counts and loads a level on first expand, each level in its palette colour', async () => {
    const { calls } = renderSignedIn('/dashboard/levelchart', {
      'level.view_downline': ({ username }) => ({
        Success:
          username === 'demo'
            ? {
                Username: 'demo',
                CountUser: 2,
                Downline: [
                  { Username: 'ann', Count: 1 },
                  { Username: 'ben', Count: 0 },
                ],
              }
            : { Username: String(username), CountUser: 1, Downline: [{ Username: 'cat', Count: 3 }] },
      }),
    });
    expect(await screen.findByText('Referral network across 5 levels')).toBeInTheDocument();
    const tree = await screen.findByRole('tree', { name: 'Level tree' });
    const ann = within(tree).getByRole('treeitem', { name: /^ann\b/ });
    expect(within(ann).getByText('1')).toBeInTheDocument();
    expect(ann).toHaveAttribute('aria-expanded', 'false');
    expect(ann).toHaveAttribute('data-colour', levelPalette(1));
    // No count, no expander.
    expect(within(tree).getByRole('treeitem', { name: /^ben\b/ })).not.toHaveAttribute('aria-expanded');
    expect(callsTo(calls, 'level.view_downline')).toHaveLength(1);

    fireEvent.click(ann);
    const cat = await within(tree).findByRole('treeitem', { name: /^cat\b/ });
    expect(cat).toHaveAttribute('aria-level', '3');
    expect(cat).toHaveAttribute('data-colour', levelPalette(2));
    expect(levelPalette(2)).not.toBe(levelPalette(1));
    expect(
      callsTo(calls, 'level.view_downline').map((c) => (c.input as { username: string }).username),
    ).toEqual(['demo', 'ann']);
  });

  it('cycles through 10 colours', () => {
    expect(new Set(LEVEL_PALETTE).size).toBe(10);
    expect(Array.from({ length: 10 }, (_, level) => levelPalette(level))).toEqual([...LEVEL_PALETTE]);
    expect(levelPalette(10)).toBe(levelPalette(0));
    expect(levelPalette(13)).toBe(levelPalette(3));
  });

  it('stops at 5 levels: members at level 5 do not expand', async () => {
    renderSignedIn('/dashboard/levelchart', {
      'level.view_downline': ({ username }) => {
        const level = username === 'demo' ? 0 : Number(String(username).slice(1));
        return {
          Success: {
            Username: String(username),
            CountUser: 1,
            Downline: [{ Username: `m${level + 1}`, Count: 1 }],
          },
        };
      },
    });
    for (let level = 1; level <= 4; level++)
      fireEvent.click(await screen.findByRole('treeitem', { name: new RegExp(`^m${level}\\b`) }));
    const last = await screen.findByRole('treeitem', { name: /^m5\b/ });
    expect(last).toHaveAttribute('aria-level', '6');
    expect(last).not.toHaveAttribute('aria-expanded');
  });

  it('keeps the DOM small with 2,000 expanded rows (virtualized)', async () => {
    const downline = Array.from({ length: 2000 }, (_, i) => ({ Username: `member${i}`, Count: 0 }));
    renderSignedIn('/dashboard/levelchart', {
      'level.view_downline': () => ({ Success: { Username: 'demo', CountUser: 2000, Downline: downline } }),
    });
    const tree = await screen.findByRole('tree', { name: 'Level tree' });
    const rendered = within(tree).getAllByRole('treeitem');
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(60);
    // The scroll height still covers every row.
    const inner = tree.firstElementChild as HTMLElement;
    expect(inner.style.height || getComputedStyle(inner).height).toBe(`${2001 * 60}px`);
  });

  it('with the downline_pages capability loads directs a page at a time behind "Show more (N left)", by keyboard too', async () => {
    const total = LEVEL_PAGE_SIZE * 2 + 5;
    const { calls } = renderWithCapabilities(['downline_pages'], {
      'level.view_downline_page': (input) =>
        input.username === 'demo' ? pagedDirects(total, 'd')(input) : pagedDirects(3, 'sub')(input),
    });
    const tree = await screen.findByRole('tree', { name: 'Level tree' });
    expect(within(tree).getByRole('treeitem', { name: /^demo\b/ })).toBeInTheDocument();
    // The rows are virtualized: scroll to the end of the first page (root + a page of directs, 60 px each).
    await within(tree).findByRole('treeitem', { name: /^d0\b/ });
    tree.scrollTop = LEVEL_PAGE_SIZE * 60;
    fireEvent.scroll(tree);
    const more = await within(tree).findByRole('treeitem', {
      name: `Show more (${total - LEVEL_PAGE_SIZE} left)`,
    });
    expect(callsTo(calls, 'level.view_downline')).toHaveLength(0);
    expect(callsTo(calls, 'level.view_downline_page').map((c) => c.input)).toEqual([
      { username: 'demo', page: 1, per_page: LEVEL_PAGE_SIZE },
    ]);

    // Enter on the focused 'Show more' loads page 2; focus moves to its first member.
    more.focus();
    fireEvent.keyDown(more, { key: 'Enter' });
    await waitFor(() =>
      expect(
        within(tree).getByRole('treeitem', { name: new RegExp(`^d${LEVEL_PAGE_SIZE}\\b`) }),
      ).toHaveFocus(),
    );
    tree.scrollTop = LEVEL_PAGE_SIZE * 2 * 60;
    fireEvent.scroll(tree);
    const last = await within(tree).findByRole('treeitem', { name: 'Show more (5 left)' });
    expect(last).toHaveAttribute('aria-level', '2');
    fireEvent.click(last);
    expect(
      await within(tree).findByRole('treeitem', { name: new RegExp(`^d${total - 1}\\b`) }),
    ).toBeInTheDocument();
    expect(within(tree).queryByRole('treeitem', { name: /^Show more/ })).not.toBeInTheDocument();
    expect(
      within(tree)
        .getAllByRole('treeitem')
        .map((row) => row.getAttribute('data-name')),
    ).toContain(`d${total - 1}`);
    expect(callsTo(calls, 'level.view_downline_page').map((c) => (c.input as { page: number }).page)).toEqual(
      [1, 2, 3],
    );

    // A node with fewer directs than a page: no 'Show more' under it.
    tree.scrollTop = 0;
    fireEvent.scroll(tree);
    fireEvent.click(within(tree).getByRole('treeitem', { name: /^d0\b/ }));
    expect(await within(tree).findByRole('treeitem', { name: /^sub2\b/ })).toHaveAttribute('aria-level', '3');
    expect(within(tree).queryByRole('treeitem', { name: /^Show more/ })).not.toBeInTheDocument();
  });

  it('without the capability (the provider) asks for the whole list and shows no "Show more"', async () => {
    const downline = Array.from({ length: LEVEL_PAGE_SIZE + 5 }, (_, i) => ({ Username: `w${i}`, Count: 0 }));
    const { calls } = renderWithCapabilities([], {
      'level.view_downline': () => ({
        Success: { Username: 'demo', CountUser: downline.length, Downline: downline },
      }),
    });
    const tree = await screen.findByRole('tree', { name: 'Level tree' });
    expect(await within(tree).findByRole('treeitem', { name: /^w0\b/ })).toBeInTheDocument();
    expect(within(tree).queryByRole('treeitem', { name: /^Show more/ })).not.toBeInTheDocument();
    expect(callsTo(calls, 'level.view_downline_page')).toHaveLength(0);
    expect(callsTo(calls, 'level.view_downline')).toHaveLength(1);
  });
});
