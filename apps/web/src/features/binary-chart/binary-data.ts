/** The binary downline answer (spec §3) as tree nodes: Downline is a list or a map side → username. */
import { sideOf as sharedSideOf, type OutputOf } from '@md/shared';
import type { TreeNode } from '@/components/tree/virtual-tree.tsx';
import { isRecord, numberOf, recordOf, textOf } from '@/lib/guards.ts';

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

/** '0' (or 'L', or a 'left' key) is the left leg; anything else the right (shared sideOf). */
const sideOf = (key: unknown): Side => sharedSideOf(key) ?? '1';

/**
 * The children of a downline answer, left first. Read defensively (spec §8): entries without a
 * username are skipped, and anything but a list or a map of sides reads as no children.
 */
export function downlineChildren(downline: unknown): TreeNode<BinaryMember>[] {
  const entries: BinaryMember[] = Array.isArray(downline)
    ? downline.filter(isRecord).map((entry) => ({
        username: textOf(entry.Username),
        side: sideOf(entry.Side),
        ...(entry.Sponsor === null || typeof entry.Sponsor === 'string' ? { sponsor: entry.Sponsor } : {}),
        ...(typeof entry.Status === 'boolean' ? { active: entry.Status } : {}),
      }))
    : Object.entries(recordOf(downline) ?? {}).map(([side, username]) => ({
        username: textOf(username),
        side: sideOf(side),
      }));
  return (
    entries
      .filter((entry) => entry.username)
      .sort((a, b) => Number(a.side) - Number(b.side))
      // A child's own downline is unknown until it is expanded.
      .map((member) => ({ id: member.username, data: member, expandable: 'unknown' }))
  );
}

export const hasDownline = (answer: Record<string, unknown>) =>
  (numberOf(answer.CountUser) ?? 0) > 0 || downlineChildren(answer.Downline).length > 0;
