import axe from 'axe-core';

/**
 * What axe finds wrong with the ARIA on screen now, one line per element: a label on an element
 * without a role (a loading skeleton's div or span: serious), an attribute or role its element does
 * not allow. The browser sweeps (e2e/a11y.e2e.ts) see screens once loaded; this reads a state a test holds.
 */
export async function ariaProblems(root: Element = document.body): Promise<string[]> {
  const { violations } = await axe.run(root, {
    runOnly: ['aria-prohibited-attr', 'aria-allowed-attr', 'aria-allowed-role'],
  });
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.html}`));
}
