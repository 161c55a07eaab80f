/**
 * Expanding a node re-renders that row and the rows whose place changes, not every visible row:
 * the rows keep their identity while unchanged (use-lazy-tree) and the row component is memoized.
 * With 100 children this is what keeps an expansion inside its 50 ms budget (scripts/bench/tree-expand.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { TestProviders } from '@/testing/providers.tsx';
import { testConfig } from '@/testing/render.tsx';
import { VirtualTree, type TreeNode } from './virtual-tree.tsx';

const node = (id: string, expandable: boolean | 'unknown' = 'unknown'): TreeNode<string> => ({
  id,
  data: id,
  expandable,
});

describe('VirtualTree row renders', () => {
  it('expanding the last node renders only that row and its new children', async () => {
    const renders = new Map<string, number>();
    const children = Array.from({ length: 3 }, (_, i) => node(`c${i}`, false));
    render(
      <TestProviders config={testConfig}>
        <VirtualTree
          label="Test tree"
          root={node('root', true)}
          rootChildren={[node('a', false), node('b', false), node('last')]}
          loadChildren={vi.fn(async () => children)}
          nameOf={(n) => n.data}
          paletteOf={() => 'gray'}
          renderContent={(row) => {
            renders.set(row.node.id, (renders.get(row.node.id) ?? 0) + 1);
            return <span>{row.node.data}</span>;
          }}
        />
      </TestProviders>,
    );
    const tree = screen.getByRole('tree', { name: 'Test tree' });
    await waitFor(() => expect(within(tree).getAllByRole('treeitem')).toHaveLength(4));
    const before = new Map(renders);

    fireEvent.click(within(tree).getByText('last'));
    await waitFor(() => expect(within(tree).getAllByRole('treeitem')).toHaveLength(7));

    const since = (id: string) => (renders.get(id) ?? 0) - (before.get(id) ?? 0);
    expect(['root', 'a', 'b'].map(since)).toEqual([0, 0, 0]);
    // The expanded row renders for its loading state and for its loaded state.
    expect(since('last')).toBeGreaterThan(0);
    expect(children.map((child) => since(child.id))).toEqual([1, 1, 1]);
  });
});
