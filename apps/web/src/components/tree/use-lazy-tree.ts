/**
 * State of a lazily loaded tree (DESIGN §7): which nodes are expanded, which children are known,
 * which are loading; and the expanded tree flattened into the visible rows (depth-first), so the
 * view renders a flat, virtualized list instead of nested DOM.
 */
import { useCallback, useMemo, useRef, useState } from 'react';

export interface TreeNode<T> {
  /** Unique in the tree (usernames are). */
  id: string;
  data: T;
  /** true: has children; false: a leaf; 'unknown': not known until its children are loaded. */
  expandable: boolean | 'unknown';
}

export interface FlatRow<T> {
  node: TreeNode<T>;
  /** 0 for the root. */
  depth: number;
  expanded: boolean;
  loading: boolean;
  /** Can be expanded now: known to have children, or not known yet. */
  expandable: boolean;
}

export type LoadChildren<T> = (node: TreeNode<T>, depth: number) => Promise<TreeNode<T>[]>;

export function useLazyTree<T>(root: TreeNode<T>, rootChildren: TreeNode<T>[], loadChildren: LoadChildren<T>) {
  const [children, setChildren] = useState<ReadonlyMap<string, TreeNode<T>[]>>(() => new Map([[root.id, rootChildren]]));
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(rootChildren.length > 0 ? [root.id] : []));
  const [loading, setLoading] = useState<ReadonlySet<string>>(() => new Set());
  // Loads already started, so a double click never loads twice.
  const started = useRef(new Set<string>([root.id]));

  // Rows keep their identity while unchanged, so memoized row components skip them: expanding a
  // node re-renders that row and the ones that move, not every visible row.
  const [rowCache] = useState(() => new WeakMap<TreeNode<T>, FlatRow<T>>());

  const rows = useMemo(() => {
    const out: FlatRow<T>[] = [];
    // An explicit stack: trees thousands of levels deep must not overflow the call stack.
    const stack: { node: TreeNode<T>; depth: number }[] = [{ node: root, depth: 0 }];
    while (stack.length > 0) {
      const { node, depth } = stack.pop()!;
      const known = children.get(node.id);
      const expandable = known ? known.length > 0 : node.expandable !== false;
      const isOpen = expandable && expanded.has(node.id);
      const isLoading = loading.has(node.id);
      const cached = rowCache.get(node);
      if (cached && cached.depth === depth && cached.expanded === isOpen && cached.loading === isLoading && cached.expandable === expandable) out.push(cached);
      else {
        const row = { node, depth, expanded: isOpen, loading: isLoading, expandable };
        rowCache.set(node, row);
        out.push(row);
      }
      if (isOpen && known) for (let i = known.length - 1; i >= 0; i--) stack.push({ node: known[i]!, depth: depth + 1 });
    }
    return out;
  }, [root, children, expanded, loading, rowCache]);

  const toggle = useCallback(
    (row: FlatRow<T>) => {
      const { node, depth } = row;
      if (!row.expandable) return;
      setExpanded((prev) => {
        const next = new Set(prev);
        if (next.has(node.id)) next.delete(node.id);
        else next.add(node.id);
        return next;
      });
      if (started.current.has(node.id)) return;
      started.current.add(node.id);
      setLoading((prev) => new Set(prev).add(node.id));
      loadChildren(node, depth)
        .catch((error: unknown) => {
          // Spec §8: tree loading failures are only logged; the node becomes empty.
          console.error(`Failed to load the downline of ${node.id}`, error);
          return [] as TreeNode<T>[];
        })
        .then((loaded) => {
          setChildren((prev) => new Map(prev).set(node.id, loaded));
          setLoading((prev) => {
            const next = new Set(prev);
            next.delete(node.id);
            return next;
          });
        });
    },
    [loadChildren],
  );

  return { rows, toggle };
}
