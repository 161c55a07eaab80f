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

function renderTree(
  rootChildren: TreeNode<string>[],
  loadChildren = vi.fn(async (): Promise<TreeNode<string>[]> => []),
) {
  render(
    <TestProviders config={testConfig}>
      <VirtualTree
        label="Test tree"
        root={node('root', true)}
        rootChildren={rootChildren}
        loadChildren={loadChildren}
        nameOf={(n) => n.data}
        paletteOf={() => 'gray'}
        renderContent={(row) => <span>{row.node.data}</span>}
      />
    </TestProviders>,
  );
  return { tree: screen.getByRole('tree', { name: 'Test tree' }), loadChildren };
}

describe('VirtualTree', () => {
  it('moves the one tab stop with the arrow keys and toggles with Enter / ArrowRight / ArrowLeft', async () => {
    const { tree, loadChildren } = renderTree(
      [node('a'), node('b', false)],
      vi.fn(async () => [node('a1', false)]),
    );
    const rows = within(tree).getAllByRole('treeitem');
    expect(rows.map((row) => row.tabIndex)).toEqual([0, -1, -1]);
    rows[0]!.focus();
    fireEvent.keyDown(rows[0]!, { key: 'ArrowDown' });
    await waitFor(() => expect(within(tree).getByRole('treeitem', { name: /^a\b/ })).toHaveFocus());
    fireEvent.keyDown(within(tree).getByRole('treeitem', { name: /^a\b/ }), { key: 'ArrowRight' });
    expect(await within(tree).findByRole('treeitem', { name: /^a1\b/ })).toHaveAttribute('aria-level', '3');
    expect(loadChildren).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(within(tree).getByRole('treeitem', { name: /^a\b/ }), { key: 'ArrowLeft' });
    await waitFor(() =>
      expect(within(tree).queryByRole('treeitem', { name: /^a1\b/ })).not.toBeInTheDocument(),
    );
    fireEvent.keyDown(within(tree).getByRole('treeitem', { name: /^a\b/ }), { key: 'Enter' });
    expect(await within(tree).findByRole('treeitem', { name: /^a1\b/ })).toBeInTheDocument();
    expect(loadChildren).toHaveBeenCalledTimes(1);
  });

  it('keeps a failed load quiet: logged, and the node becomes a leaf', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { tree } = renderTree(
      [node('a')],
      vi.fn(async () => Promise.reject(new Error('501'))),
    );
    fireEvent.click(within(tree).getByRole('treeitem', { name: /^a\b/ }));
    await waitFor(() =>
      expect(within(tree).getByRole('treeitem', { name: /^a\b/ })).not.toHaveAttribute('aria-expanded'),
    );
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});
