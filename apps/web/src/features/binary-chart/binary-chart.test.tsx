import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MockFailure } from '@/testing/mock-link.ts';
import { callsTo, renderSignedIn } from '@/testing/member.ts';

const details = (over: Record<string, unknown> = {}) => ({
  Success: {
    Current_Binary: [150, 75.5],
    Earnings: 42,
    Direct_Bouns: 10,
    Status: true,
    Sponsor: 'demo',
    Side: '0',
    Total_User_Subscription_Plan: { Gold: { Active: true, Expiry: '2026-12-01T00:00:00Z' } },
    ...over,
  },
});

describe('Binary chart', () => {
  it('roots the tree at the member, shows sides in their colours, and loads children lazily with a spinner (list and map shapes)', async () => {
    let release: () => void = () => {};
    const { calls } = renderSignedIn('/dashboard/binarychart', {
      'binary.view_binary_downline': ({ username }) => {
        if (username === 'demo')
          return {
            Success: {
              Username: 'demo',
              CountUser: 2,
              Downline: [
                { Username: 'bob', Side: '1' },
                { Username: 'alice', Side: '0' },
              ],
            },
          };
        if (username === 'alice')
          return new Promise(
            (resolve) =>
              (release = () =>
                resolve({ Success: { Username: 'alice', CountUser: 1, Downline: { '0': 'carol' } } })),
          );
        return { Success: { Username: String(username), CountUser: 0, Downline: [] } };
      },
    });
    expect(await screen.findByRole('heading', { name: 'Binary Chart' })).toBeInTheDocument();
    expect(screen.getByText('Binary tree and team performance')).toBeInTheDocument();
    const tree = await screen.findByRole('tree', { name: 'Binary tree' });
    const items = within(tree).getAllByRole('treeitem');
    // Root first, then left before right.
    expect(items.map((item) => item.getAttribute('data-name'))).toEqual(['demo', 'alice', 'bob']);
    // Each row is named by what it shows, the member first (WCAG 2.5.3).
    expect(items[1]).toHaveAccessibleName(/^alice Sponsor: …/);
    expect(items[0]).toHaveAttribute('aria-level', '1');
    expect(items[0]).toHaveAttribute('aria-expanded', 'true');
    expect(items[1]).toHaveAttribute('aria-level', '2');
    expect(items[1]).toHaveAttribute('data-side', '0');
    expect(within(items[1]!).getByText('Left')).toBeInTheDocument();
    expect(items[2]).toHaveAttribute('data-side', '1');
    expect(within(items[2]!).getByText('Right')).toBeInTheDocument();
    // Status unknown until details load.
    expect(items[1]!.querySelector('[data-status]')).toHaveAttribute('data-status', 'unknown');

    fireEvent.click(screen.getByRole('treeitem', { name: /^alice\b/ }));
    expect(await screen.findByLabelText('Loading alice')).toBeInTheDocument();
    expect(screen.getByRole('treeitem', { name: /^alice\b/ })).toHaveAttribute('aria-expanded', 'true');
    release();
    const carol = await screen.findByRole('treeitem', { name: /^carol\b/ });
    expect(carol).toHaveAttribute('aria-level', '3');
    expect(carol).toHaveAttribute('data-side', '0');
    expect(screen.queryByLabelText('Loading alice')).not.toBeInTheDocument();

    // Collapse by clicking the row itself; expanding again does not reload.
    fireEvent.click(screen.getByRole('treeitem', { name: /^alice\b/ }));
    await waitFor(() => expect(screen.queryByRole('treeitem', { name: /^carol\b/ })).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole('treeitem', { name: /^alice\b/ }));
    expect(await screen.findByRole('treeitem', { name: /^carol\b/ })).toBeInTheDocument();
    expect(
      callsTo(calls, 'binary.view_binary_downline').filter(
        (c) => (c.input as { username: string }).username === 'alice',
      ),
    ).toHaveLength(1);

    // A leaf (empty downline) loses its chevron once loaded.
    const bob = screen.getByRole('treeitem', { name: /^bob\b/ });
    expect(bob.querySelector('svg')).not.toBeNull();
    fireEvent.click(bob);
    await waitFor(() =>
      expect(screen.getByRole('treeitem', { name: /^bob\b/ })).not.toHaveAttribute('aria-expanded'),
    );
    expect(screen.getByRole('treeitem', { name: /^bob\b/ }).querySelector('svg')).toBeNull();
  });

  it("shows a child's sponsor and active dot straight from the downline when the server sends them", async () => {
    renderSignedIn('/dashboard/binarychart', {
      'binary.view_binary_downline': ({ username }) =>
        username === 'demo'
          ? {
              Success: {
                Username: 'demo',
                CountUser: 2,
                Downline: [
                  { Username: 'alice', Side: '0', Sponsor: 'demo', Status: false },
                  { Username: 'bob', Side: '1' },
                ],
              },
            }
          : { Success: { Username: String(username), CountUser: 0, Downline: [] } },
    });
    const alice = await screen.findByRole('treeitem', { name: /^alice\b/ });
    expect(within(alice).getByText('Sponsor: demo')).toBeInTheDocument();
    expect(alice.querySelector('[data-status]')).toHaveAttribute('data-status', 'inactive');
    // Without the extension fields the node waits for its details (the provider's shape).
    const bob = screen.getByRole('treeitem', { name: /^bob\b/ });
    expect(within(bob).getByText('Sponsor: …')).toBeInTheDocument();
    expect(bob.querySelector('[data-status]')).toHaveAttribute('data-status', 'unknown');
  });

  it('shows the hover panel with Current Binary, Earnings, Direct Bonus and plans; the dot and sponsor follow', async () => {
    const { calls } = renderSignedIn('/dashboard/binarychart', {
      'binary.view_binary_downline': () => ({
        Success: { Username: 'demo', CountUser: 1, Downline: { Left: 'alice' } },
      }),
      'binary.view_binary_downline_details': ({ username }) => details({ Status: username === 'alice' }),
    });
    const alice = await screen.findByRole('treeitem', { name: /^alice\b/ });
    expect(callsTo(calls, 'binary.view_binary_downline_details')).toHaveLength(0);
    fireEvent.mouseEnter(alice);
    const panel = await screen.findByTestId('node-details');
    expect(await within(panel).findByText('$150.00 / $75.50')).toBeInTheDocument();
    expect(within(panel).getByText('Current Binary')).toBeInTheDocument();
    expect(within(panel).getByText('$42.00')).toBeInTheDocument();
    expect(within(panel).getByText('Direct Bonus')).toBeInTheDocument();
    expect(within(panel).getByText('$10.00')).toBeInTheDocument();
    expect(within(panel).getByText('Gold')).toBeInTheDocument();
    expect(within(panel).getByText('Active')).toBeInTheDocument();
    expect(within(panel).getByText(/Expiry Dec 01, 2026/)).toBeInTheDocument();
    await waitFor(() =>
      expect(alice.querySelector('[data-status]')).toHaveAttribute('data-status', 'active'),
    );
    expect(within(alice).getByText('Sponsor: demo')).toBeInTheDocument();
    // Keyboard focus opens it too; the root is inactive; Escape closes it.
    const root = screen.getByRole('treeitem', { name: /^demo\b/ });
    fireEvent.focus(root);
    await waitFor(() =>
      expect(root.querySelector('[data-status]')).toHaveAttribute('data-status', 'inactive'),
    );
    expect(within(screen.getByTestId('node-details')).getByText('demo')).toBeInTheDocument();
    fireEvent.keyDown(root, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('node-details')).not.toBeInTheDocument());
  });

  it("shows 'No organizational data available' when the member has no downline; a failure is logged and reads Unavailable with a Retry, not the empty state", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const first = renderSignedIn('/dashboard/binarychart', {
      'binary.view_binary_downline': () => ({ Success: { Username: 'demo', CountUser: 0, Downline: [] } }),
    });
    expect(await screen.findByText('No organizational data available')).toBeInTheDocument();
    first.unmount();
    renderSignedIn('/dashboard/binarychart', {
      'binary.view_binary_downline': () => {
        throw new MockFailure('Not implemented yet', 501);
      },
    });
    expect(await screen.findByRole('button', { name: 'Retry: Binary tree' })).toBeInTheDocument();
    expect(screen.queryByText('No organizational data available')).not.toBeInTheDocument();
    await waitFor(() => expect(error).toHaveBeenCalled());
    error.mockRestore();
  });
});
