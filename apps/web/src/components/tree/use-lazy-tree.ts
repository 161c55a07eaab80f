/**
 * State of a lazily loaded tree (DESIGN §7): which nodes are expanded, which children are known,
 * which are loading; and the expanded tree flattened into the visible rows (depth-first), so the
 * view renders a flat, virtualized list instead of nested DOM. Children may come a page at a time
 * (a member can have 1,927 directs at 1M members): a node with children still to load gets a 'more' row
 * after the ones it has.
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
  kind?: undefined;
  node: TreeNode<T>;
  /** 0 for the root. */
  depth: number;
  expanded: boolean;
  loading: boolean;
  /** Can be expanded now: known to have children, or not known yet. */
  expandable: boolean;
}

/** The row after a node's loaded children when more are left: activating it loads the next page. */
export interface MoreRow<T> {
  kind: 'more';
  parent: TreeNode<T>;
  /** The depth of the children (the parent's + 1). */
  depth: number;
  /** Children not loaded yet. */
  remaining: number;
  loading: boolean;
}

export type TreeRowItem<T> = FlatRow<T> | MoreRow<T>;

/** A page of children: `remaining` are still to load after these. */
export interface ChildPage<T> {
  nodes: TreeNode<T>[];
  remaining: number;
}

/** Loads a node's children: all of them, or the page after the first `offset` already loaded. */
export type LoadChildren<T> = (
  node: TreeNode<T>,
  depth: number,
  offset: number,
) => Promise<TreeNode<T>[] | ChildPage<T>>;

const asPage = <T>(loaded: TreeNode<T>[] | ChildPage<T>): ChildPage<T> =>
  Array.isArray(loaded) ? { nodes: loaded, remaining: 0 } : loaded;

export function useLazyTree<T>(
  root: TreeNode<T>,
  rootChildren: TreeNode<T>[],
  loadChildren: LoadChildren<T>,
  rootRemaining = 0,
) {
  const [children, setChildren] = useState<ReadonlyMap<string, TreeNode<T>[]>>(
    () => new Map([[root.id, rootChildren]]),
  );
  // Children still to load, and how many the loader has answered (the next page's offset), per node.
  const [remaining, setRemaining] = useState<ReadonlyMap<string, number>>(
    () => new Map(rootRemaining > 0 ? [[root.id, rootRemaining]] : []),
  );
  const offsets = useRef(new Map<string, number>([[root.id, rootChildren.length]]));
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(
    () => new Set(rootChildren.length > 0 ? [root.id] : []),
  );
  const [loading, setLoading] = useState<ReadonlySet<string>>(() => new Set());
  // Loads already started, so a double click never loads twice.
  const started = useRef(new Set<string>([root.id]));
  // Nodes with a page on its way: a second Enter on 'Show more' waits for it.
  const inFlight = useRef(new Set<string>());

  // Rows keep their identity while unchanged, so memoized row components skip them: expanding a
  // node re-renders that row and the ones that move, not every visible row.
  const [rowCache] = useState(() => new WeakMap<TreeNode<T>, FlatRow<T>>());
  const [moreCache] = useState(() => new WeakMap<TreeNode<T>, MoreRow<T>>());

  const rows = useMemo(() => {
    const out: TreeRowItem<T>[] = [];
    // An explicit stack: trees thousands of levels deep must not overflow the call stack.
    const stack: ({ node: TreeNode<T>; depth: number } | MoreRow<T>)[] = [{ node: root, depth: 0 }];
    while (stack.length > 0) {
      const item = stack.pop()!;
      if ('kind' in item) {
        out.push(item);
        continue;
      }
      const { node, depth } = item;
      const known = children.get(node.id);
      const expandable = known ? known.length > 0 : node.expandable !== false;
      const isOpen = expandable && expanded.has(node.id);
      // A node that has children and is loading is loading more: its 'more' row shows that.
      const isLoading = loading.has(node.id) && !known?.length;
      const cached = rowCache.get(node);
      if (
        cached &&
        cached.depth === depth &&
        cached.expanded === isOpen &&
        cached.loading === isLoading &&
        cached.expandable === expandable
      )
        out.push(cached);
      else {
        const row = { node, depth, expanded: isOpen, loading: isLoading, expandable };
        rowCache.set(node, row);
        out.push(row);
      }
      if (!isOpen || !known) continue;
      const left = remaining.get(node.id) ?? 0;
      if (left > 0) {
        const more = moreCache.get(node);
        const loadingMore = loading.has(node.id);
        if (more && more.depth === depth + 1 && more.remaining === left && more.loading === loadingMore)
          stack.push(more);
        else {
          const row: MoreRow<T> = {
            kind: 'more',
            parent: node,
            depth: depth + 1,
            remaining: left,
            loading: loadingMore,
          };
          moreCache.set(node, row);
          stack.push(row);
        }
      }
      for (let i = known.length - 1; i >= 0; i--) stack.push({ node: known[i]!, depth: depth + 1 });
    }
    return out;
  }, [root, children, remaining, expanded, loading, rowCache, moreCache]);

  /** Loads the page after what `node` has (the first page when it has none), then appends it. */
  const load = useCallback(
    (node: TreeNode<T>, depth: number) => {
      if (inFlight.current.has(node.id)) return;
      inFlight.current.add(node.id);
      const offset = offsets.current.get(node.id) ?? 0;
      setLoading((prev) => new Set(prev).add(node.id));
      loadChildren(node, depth, offset)
        .then(asPage, (error: unknown) => {
          // Spec §8: tree loading failures are only logged; the node keeps what it had (none: a leaf).
          console.error(`Failed to load the downline of ${node.id}`, error);
          return { nodes: [], remaining: 0 } as ChildPage<T>;
        })
        .then((page) => {
          inFlight.current.delete(node.id);
          offsets.current.set(node.id, offset + page.nodes.length);
          setChildren((prev) => {
            const had = prev.get(node.id) ?? [];
            // A member who joined between two pages shifts the next page by one: never list anyone twice.
            const ids = new Set(had.map((child) => child.id));
            return new Map(prev).set(node.id, [...had, ...page.nodes.filter((child) => !ids.has(child.id))]);
          });
          // Nothing more after an empty page, whatever the count said: the control cannot loop.
          setRemaining((prev) => new Map(prev).set(node.id, page.nodes.length > 0 ? page.remaining : 0));
          setLoading((prev) => {
            const next = new Set(prev);
            next.delete(node.id);
            return next;
          });
        });
    },
    [loadChildren],
  );

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
      load(node, depth);
    },
    [load],
  );

  const loadMore = useCallback((row: MoreRow<T>) => load(row.parent, row.depth - 1), [load]);

  return { rows, toggle, loadMore };
}
