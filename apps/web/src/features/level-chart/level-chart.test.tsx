import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { callsTo, renderSignedIn } from '@/testing/member.ts';
import { LEVEL_PALETTE, levelPalette } from './level-chart.tsx';

describe('Level chart', () => {
  it('lists the direct downline with counts and loads a level on first expand, each level in its palette colour', async () => {
    const { calls } = renderSignedIn('/dashboard/levelchart', {
      'level.view_downline': ({ username }) => ({
        Success:
          username === 'demo'
            ? { Username: 'demo', CountUser: 2, Downline: [{ Username: 'ann', Count: 1 }, { Username: 'ben', Count: 0 }] }
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
    expect(callsTo(calls, 'level.view_downline').map((c) => (c.input as { username: string }).username)).toEqual(['demo', 'ann']);
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
        return { Success: { Username: String(username), CountUser: 1, Downline: [{ Username: `m${level + 1}`, Count: 1 }] } };
      },
    });
    for (let level = 1; level <= 4; level++) fireEvent.click(await screen.findByRole('treeitem', { name: new RegExp(`^m${level}\\b`) }));
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
});
