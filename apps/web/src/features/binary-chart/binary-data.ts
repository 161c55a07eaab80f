/** The binary downline answer (spec §3) as tree nodes: Downline is a list or a map side → username. */
import type { OutputOf } from '@md/shared';
import type { TreeNode } from '@/components/tree/virtual-tree.tsx';

export type BinaryDownline = OutputOf<'binary.view_binary_downline'>['Success'];
export type Side = '0' | '1';
/** A binary node: the username and, below the root, the side it hangs on. */
export interface BinaryMember {
  username: string;
  side: Side | null;
  /** From the downline answer when the server sends the extension fields; else the details say. */
  sponsor?: string | null;
  active?: boolean;
}

/** '0' (or a 'left' key) is the left leg; anything else the right. */
const sideOf = (key: string): Side => (key === '0' || key.toLowerCase() === 'left' ? '0' : '1');

/** The children of a downline answer, left first. */
export function downlineChildren(downline: BinaryDownline['Downline']): TreeNode<BinaryMember>[] {
  const entries: BinaryMember[] = Array.isArray(downline)
    ? downline.map((entry) => ({
        username: entry.Username,
        side: sideOf(entry.Side),
        ...(entry.Sponsor !== undefined ? { sponsor: entry.Sponsor } : {}),
        ...(entry.Status !== undefined ? { active: entry.Status } : {}),
      }))
    : Object.entries(downline).map(([side, username]) => ({ username, side: sideOf(side) }));
  return entries
    .filter((entry) => entry.username)
    .sort((a, b) => Number(a.side) - Number(b.side))
    // A child's own downline is unknown until it is expanded.
    .map((member) => ({ id: member.username, data: member, expandable: 'unknown' }));
}

export const hasDownline = (answer: BinaryDownline) =>
  answer.CountUser > 0 || (Array.isArray(answer.Downline) ? answer.Downline.length > 0 : Object.keys(answer.Downline).length > 0);
