/**
 * The Binary Chart in Arabic: its words translated, the legs still the data's (the left leg is
 * Left, read "يسار"), rows indented from the reading's start (a logical property, so from the
 * right in Arabic), the arrow keys' expand and collapse swapped, and money in Arabic's format.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { AuthProvider } from '@/lib/auth.tsx';
import { testI18n } from '@/testing/i18n.ts';
import { createMockClient, type MockHandlers } from '@/testing/mock-link.ts';
import { TestProviders } from '@/testing/providers.tsx';
import { testConfig } from '@/testing/render.tsx';
import BinaryChartPage from './binary-chart.tsx';

function renderInArabic(handlers: MockHandlers) {
  localStorage.setItem('jwt', 'jwt-1');
  localStorage.setItem(
    'user',
    JSON.stringify({ username: 'demo', avatar: 'Default', name: 'Demo Member', email: 'demo@example.com' }),
  );
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
    <TestProviders config={testConfig} i18n={testI18n('ar')} trpcClient={createMockClient(handlers)}>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/dashboard/binarychart'] })} />
    </TestProviders>,
  );
}

describe('Binary chart in Arabic', () => {
  it('translates its words, keeps the legs as the data says, indents from the right and formats money', async () => {
    renderInArabic({
      'binary.view_binary_downline': ({ username }) =>
        username === 'demo'
          ? {
              Success: {
                Username: 'demo',
                CountUser: 2,
                Downline: [
                  { Username: 'bob', Side: '1' },
                  { Username: 'alice', Side: '0' },
                ],
              },
            }
          : username === 'alice'
            ? { Success: { Username: 'alice', CountUser: 1, Downline: { '0': 'carol' } } }
            : { Success: { Username: String(username), CountUser: 0, Downline: [] } },
      'binary.view_binary_downline_details': () => ({
        Success: {
          Current_Binary: [150, 75.5],
          Earnings: 1234.5,
          Direct_Bouns: 10,
          Status: true,
          Sponsor: 'demo',
          Side: '0',
          Total_User_Subscription_Plan: {},
        },
      }),
    });
    const tree = await screen.findByRole('tree', { name: 'الشجرة الثنائية' });
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(screen.getByRole('tab', { name: 'قائمة' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'شجرة' })).toBeInTheDocument();

    // Left first, as the data orders the legs; only the side's name is Arabic.
    const items = within(tree).getAllByRole('treeitem');
    expect(items.map((item) => item.getAttribute('data-name'))).toEqual(['demo', 'alice', 'bob']);
    expect(items[1]).toHaveAttribute('data-side', '0');
    expect(within(items[1]!).getByText('يسار')).toBeInTheDocument();
    expect(items[2]).toHaveAttribute('data-side', '1');
    expect(within(items[2]!).getByText('يمين')).toBeInTheDocument();
    expect(items[1]).toHaveAccessibleName(/^alice الراعي: …/);

    // The indent is the inline start (the right in Arabic), never a physical side.
    expect(items[1]!.style.paddingInlineStart).toContain('20px');
    expect(items[1]!.style.paddingLeft).toBe('');
    expect(items[1]!.style.paddingRight).toBe('');

    // Right to left: Left (toward the reading's end) opens a node, Right closes it.
    items[1]!.focus();
    fireEvent.keyDown(items[1]!, { key: 'ArrowLeft' });
    expect(await within(tree).findByRole('treeitem', { name: /^carol\b/ })).toHaveAttribute(
      'aria-level',
      '3',
    );
    fireEvent.keyDown(within(tree).getByRole('treeitem', { name: /^alice\b/ }), { key: 'ArrowRight' });
    await expect.poll(() => within(tree).queryByRole('treeitem', { name: /^carol\b/ })).toBeNull();

    // The hover panel: labels in Arabic, money in Arabic's format (Latin digits), each amount a
    // left-to-right unit (isolate marks U+2066…U+2069) so "US$" is not drawn "$US".
    fireEvent.mouseEnter(within(tree).getByRole('treeitem', { name: /^alice\b/ }));
    const panel = await screen.findByTestId('node-details');
    expect(await within(panel).findByText('الثنائي الحالي')).toBeInTheDocument();
    expect(panel).toHaveTextContent('\u2066\u200f150.00 US$\u2069 / \u2066\u200f75.50 US$\u2069');
    expect(panel).toHaveTextContent('الأرباح');
    expect(panel).toHaveTextContent('\u2066\u200f1,234.50 US$\u2069');
    expect(panel).toHaveTextContent('لا توجد خطط');
  });
});
