import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { TestProviders } from '@/testing/providers.tsx';
import { testConfig } from '@/testing/render.tsx';
import { MSG } from '@md/shared';
import { OrgTreeView, type OrgData } from './org-tree-view.tsx';

const renderOrg = (orgData: OrgData | null | undefined) =>
  render(
    <TestProviders config={testConfig}>
      <OrgTreeView orgData={orgData} />
    </TestProviders>,
  );

const orgData: OrgData = {
  ceo: { name: 'Ada Lovelace', title: 'Chief Executive Officer', email: 'ada@example.com' },
  departments: [
    {
      name: 'Engineering',
      head: { name: 'Grace Hopper', title: 'CTO' },
      members: [{ name: 'Linus T', title: 'Engineer', email: 'linus@example.com' }],
    },
    { name: 'Finance', members: [] },
  ],
};

describe('OrgTreeView', () => {
  it("shows 'No organizational data available' when there is no ceo", () => {
    for (const data of [null, undefined, {}, { ceo: null, departments: orgData.departments }]) {
      const { unmount } = renderOrg(data);
      expect(screen.getByText(MSG.noOrgData)).toBeInTheDocument();
      expect(screen.queryByRole('tree')).toBeNull();
      unmount();
    }
  });

  it('renders the ceo with the departments expanded below, a department opens to its head and members, and a node shows its details', async () => {
    renderOrg(orgData);
    const tree = screen.getByRole('tree', { name: 'Organisation tree' });
    const ceo = within(tree).getByRole('treeitem', { name: /^Ada Lovelace\b/ });
    expect(ceo).toHaveAttribute('aria-level', '1');
    expect(ceo).toHaveAttribute('aria-expanded', 'true');
    expect(ceo).toHaveTextContent('Chief Executive Officer');
    const engineering = within(tree).getByRole('treeitem', { name: /^Engineering\b/ });
    expect(engineering).toHaveAttribute('aria-level', '2');
    expect(engineering).toHaveAttribute('aria-expanded', 'false');
    expect(engineering).toHaveTextContent('2 people');
    // A department with nobody in it cannot be expanded.
    expect(within(tree).getByRole('treeitem', { name: /^Finance\b/ })).not.toHaveAttribute('aria-expanded');

    fireEvent.click(engineering);
    const head = await within(tree).findByRole('treeitem', { name: /^Grace Hopper\b/ });
    expect(head).toHaveAttribute('aria-level', '3');
    expect(within(tree).getByRole('treeitem', { name: /^Linus T\b/ })).toHaveAttribute('aria-level', '3');
    expect(within(tree).getByRole('treeitem', { name: /^Engineering\b/ })).toHaveAttribute(
      'aria-expanded',
      'true',
    );

    const details = screen.getByTestId('org-node-details');
    expect(details).toHaveTextContent('Hover or focus a node to see its details.');
    fireEvent.mouseEnter(within(tree).getByRole('treeitem', { name: /^Linus T\b/ }));
    expect(details).toHaveTextContent('Linus T');
    expect(details).toHaveTextContent('linus@example.com');
    expect(details).toHaveTextContent('Engineering');
    fireEvent.focus(ceo);
    expect(details).toHaveTextContent('CEO');
    expect(details).toHaveTextContent('Departments2');

    fireEvent.click(within(tree).getByRole('treeitem', { name: /^Engineering\b/ }));
    expect(within(tree).queryByRole('treeitem', { name: /^Linus T\b/ })).toBeNull();
  });
});
