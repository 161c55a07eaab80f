/**
 * The one tree view of the app (binary and level charts, DESIGN §7): the expanded tree as a flat
 * list of rows indented by depth, virtualized so thousands of expanded nodes stay smooth. Rows are
 * treeitems named by their visible content (WCAG 2.5.3: the name a speech user reads off the row
 * works); a click on the row (or Enter/Space/arrows) toggles a node, whose children load lazily
 * behind a spinner. The chevron is only a picture of that state: a button inside a treeitem would
 * be a nested control and add 'Expand …' to the row's name. Children that come a page at a time
 * end in a 'Show more (N left)' treeitem: Enter, Space or a click loads the next page and focus
 * moves to its first member. Pages configure content, colours and the hover panel.
 * Rows indent from the reading's start (paddingInlineStart): from the right in Arabic, where the
 * arrow keys' expand and collapse swap as the ARIA tree pattern asks.
 */
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Box, Icon, Spinner } from '@chakra-ui/react';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { LuChevronDown, LuChevronRight } from 'react-icons/lu';
import { useLocale, useT } from '@/lib/i18n/i18n.tsx';
import {
  useLazyTree,
  type FlatRow,
  type LoadChildren,
  type MoreRow,
  type TreeNode,
  type TreeRowItem,
} from './use-lazy-tree.ts';

export type { ChildPage, FlatRow, LoadChildren, TreeNode } from './use-lazy-tree.ts';

export interface VirtualTreeProps<T> {
  /** The tree's accessible name ('Binary tree', 'Level tree'). */
  label: string;
  root: TreeNode<T>;
  rootChildren: TreeNode<T>[];
  loadChildren: LoadChildren<T>;
  /** Children of the root still to load after `rootChildren` (paged children): a 'Show more' row follows them. */
  rootRemaining?: number;
  /** The node's name: its row's data-name (tests find a member's row by it) and 'Loading <name>'. */
  nameOf: (node: TreeNode<T>) => string;
  renderContent: (row: FlatRow<T>) => ReactNode;
  /** A Chakra colour palette for the row (side or level colour). */
  paletteOf: (row: FlatRow<T>) => string;
  /** Extra attributes on a row (tests and e2e read data-side / data-colour). */
  rowData?: (row: FlatRow<T>) => Record<`data-${string}`, string>;
  /** Hover or keyboard focus entered a row (with its box), or left the tree (null). */
  onActivate?: (row: FlatRow<T> | null, rect: DOMRect | null) => void;
}

/** Rows have one fixed height: measuring each row would defeat virtualization in jsdom and cost layout. */
export const TREE_ROW_HEIGHT = 60;
const INDENT_PX = 20;
/** Deep binary legs are indented up to this depth only; aria-level still tells the real depth. */
const MAX_INDENT_DEPTH = 12;
/**
 * And by at most this share of the tree's width: on a phone twelve levels of 20 px left a deep
 * member's name no room at all (every name cut to its first letters).
 */
const MAX_INDENT_SHARE = '30%';
/** A row's inline start: its depth's indent, within the share above. */
const indentOf = (depth: number) =>
  `calc(min(${Math.min(depth, MAX_INDENT_DEPTH) * INDENT_PX}px, ${MAX_INDENT_SHARE}) + 8px)`;
/** When the scroller reports no height (jsdom, hidden parent) assume a viewport's worth. */
const FALLBACK_HEIGHT = 600;

const observeRect = (instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) =>
  observeElementRect(instance, (rect) =>
    cb(rect.height > 0 ? rect : { width: rect.width, height: FALLBACK_HEIGHT }),
  );

export function VirtualTree<T>(props: VirtualTreeProps<T>) {
  const {
    label,
    root,
    rootChildren,
    loadChildren,
    rootRemaining,
    nameOf,
    renderContent,
    paletteOf,
    rowData,
    onActivate,
  } = props;
  const { rows, toggle, loadMore } = useLazyTree(root, rootChildren, loadChildren, rootRemaining);
  const rtl = useLocale().direction === 'rtl';
  const scrollRef = useRef<HTMLDivElement>(null);
  // Roving tab stop: one row is in the tab order; arrows move it.
  const [active, setActive] = useState(0);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TREE_ROW_HEIGHT,
    overscan: 8,
    observeElementRect: observeRect,
    initialRect: { width: 0, height: FALLBACK_HEIGHT },
  });

  const focusRow = useCallback(
    (index: number) => {
      const target = Math.max(0, Math.min(rows.length - 1, index));
      setActive(target);
      virtualizer.scrollToIndex(target);
      requestAnimationFrame(() =>
        scrollRef.current?.querySelector<HTMLElement>(`[data-index="${target}"]`)?.focus(),
      );
    },
    [rows.length, virtualizer],
  );

  // After 'Show more', focus goes to the first member of the new page (where the row stood) once it is there.
  // (Whether the tree had focus is noted now: the row itself scrolls out of the rendered window when the page arrives.)
  const focusAfterMore = useRef<{ index: number; parentId: string; focused: boolean } | null>(null);
  const showMore = useCallback(
    (row: MoreRow<T>, index: number) => {
      focusAfterMore.current = {
        index,
        parentId: row.parent.id,
        focused: Boolean(scrollRef.current?.contains(document.activeElement)),
      };
      loadMore(row);
    },
    [loadMore],
  );
  useEffect(() => {
    const pending = focusAfterMore.current;
    if (!pending) return;
    const row = rows[pending.index];
    if (row?.kind === 'more' && row.parent.id === pending.parentId) return; // still loading
    focusAfterMore.current = null;
    if (pending.focused) focusRow(pending.index);
  }, [rows, focusRow]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, row: TreeRowItem<T>, index: number) => {
    if (event.target !== event.currentTarget) return; // keys bubbling from inside a row's content are not the row's
    const activate = () => (row.kind === 'more' ? showMore(row, index) : toggle(row));
    // Toward the reading's end opens a node, toward its start closes it: Right and Left in left to right, swapped in right to left.
    const forward = () =>
      row.kind !== 'more' && row.expandable && !row.expanded ? toggle(row) : focusRow(index + 1);
    const back = () => (row.kind !== 'more' && row.expanded ? toggle(row) : focusRow(index - 1));
    const keys: Record<string, () => void> = {
      Enter: activate,
      ' ': activate,
      ArrowRight: rtl ? back : forward,
      ArrowLeft: rtl ? forward : back,
      ArrowDown: () => focusRow(index + 1),
      ArrowUp: () => focusRow(index - 1),
      Home: () => focusRow(0),
      End: () => focusRow(rows.length - 1),
      // The hover panel can be dismissed without moving focus (WCAG 1.4.13).
      Escape: () => onActivate?.(null, null),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  // Rows are memoized and get one stable handler object whose fields always call the latest
  // closures: scrolling then re-renders only the rows that enter the window.
  const latest = useRef({
    toggle,
    showMore,
    onKeyDown,
    onActivate,
    setActive,
    nameOf,
    renderContent,
    paletteOf,
    rowData,
  });
  latest.current = {
    toggle,
    showMore,
    onKeyDown,
    onActivate,
    setActive,
    nameOf,
    renderContent,
    paletteOf,
    rowData,
  };
  const handlers = useMemo<RowHandlers<T>>(
    () => ({
      toggle: (row) => latest.current.toggle(row),
      showMore: (row, index) => latest.current.showMore(row, index),
      onKeyDown: (event, row, index) => latest.current.onKeyDown(event, row, index),
      onActivate: (row, rect) => latest.current.onActivate?.(row, rect),
      deactivate: () => latest.current.onActivate?.(null, null),
      setActive: (index) => latest.current.setActive(index),
      nameOf: (node) => latest.current.nameOf(node),
      renderContent: (row) => latest.current.renderContent(row),
      paletteOf: (row) => latest.current.paletteOf(row),
      rowData: (row) => latest.current.rowData?.(row) ?? {},
    }),
    [],
  );

  return (
    <Box
      ref={scrollRef}
      role="tree"
      aria-label={label}
      h={{ base: '65vh', md: '70vh' }}
      maxH="720px"
      overflow="auto"
      borderWidth="1px"
      borderRadius="md"
      bg="bg.panel"
      onScroll={() => onActivate?.(null, null)}
      onMouseLeave={() => onActivate?.(null, null)}
      onBlur={(event) => {
        // Focus (or a tap) left the tree: the panel goes with it.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onActivate?.(null, null);
      }}
    >
      <Box position="relative" h={`${virtualizer.getTotalSize()}px`} minW="100%" w="max-content">
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          if (row.kind === 'more')
            return (
              <MoreTreeRow
                key={`more:${row.parent.id}`}
                row={row}
                index={item.index}
                start={item.start}
                active={item.index === active}
                handlers={handlers}
              />
            );
          return (
            <TreeRow
              key={row.node.id}
              row={row}
              index={item.index}
              start={item.start}
              active={item.index === active}
              handlers={handlers}
            />
          );
        })}
      </Box>
    </Box>
  );
}

interface RowHandlers<T> {
  toggle: (row: FlatRow<T>) => void;
  showMore: (row: MoreRow<T>, index: number) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>, row: TreeRowItem<T>, index: number) => void;
  onActivate: (row: FlatRow<T>, rect: DOMRect) => void;
  deactivate: () => void;
  setActive: (index: number) => void;
  nameOf: (node: TreeNode<T>) => string;
  renderContent: (row: FlatRow<T>) => ReactNode;
  paletteOf: (row: FlatRow<T>) => string;
  rowData: (row: FlatRow<T>) => Record<`data-${string}`, string>;
}

interface TreeRowProps<T> {
  row: FlatRow<T>;
  index: number;
  start: number;
  active: boolean;
  handlers: RowHandlers<T>;
}

/**
 * One row. Position and indentation go in inline styles, not style props: each distinct value of a
 * style prop would add a CSS class, and scrolling produces thousands of offsets.
 */
function TreeRowInner<T>({ row, index, start, active, handlers }: TreeRowProps<T>) {
  const t = useT();
  const name = handlers.nameOf(row.node);
  return (
    <Box
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={row.expandable ? row.expanded : undefined}
      aria-busy={row.loading || undefined}
      data-index={index}
      data-name={name}
      {...handlers.rowData(row)}
      tabIndex={active ? 0 : -1}
      position="absolute"
      top="0"
      insetStart="0"
      w="100%"
      h={`${TREE_ROW_HEIGHT}px`}
      style={{ transform: `translateY(${start}px)`, paddingInlineStart: indentOf(row.depth) }}
      display="flex"
      alignItems="center"
      gap="2"
      pe="3"
      cursor={row.expandable ? 'pointer' : 'default'}
      _hover={{ bg: 'bg.muted' }}
      _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '-2px' }}
      colorPalette={handlers.paletteOf(row)}
      onClick={() => handlers.toggle(row)}
      onKeyDown={(event) => handlers.onKeyDown(event, row, index)}
      onMouseEnter={(event) => handlers.onActivate(row, event.currentTarget.getBoundingClientRect())}
      onFocus={(event) => {
        handlers.setActive(index);
        handlers.onActivate(row, event.currentTarget.getBoundingClientRect());
      }}
    >
      <Box
        flex="1"
        minW="0"
        h="calc(100% - 8px)"
        display="flex"
        alignItems="center"
        gap="2"
        px="3"
        borderRadius="md"
        bg="colorPalette.subtle"
        color="fg"
        borderStartWidth="4px"
        borderStartColor="colorPalette.solid"
      >
        {handlers.renderContent(row)}
      </Box>
      {/* Drawn first (order) but after the content in the DOM: the row's name starts with the node. */}
      <Box w="7" flexShrink={0} display="flex" justifyContent="center" order={-1}>
        {row.loading ? (
          <Spinner size="sm" role="status" aria-label={t('network.tree.loading', { name })} />
        ) : row.expandable ? (
          // A closed node's chevron points toward the reading's end: mirrored in right to left.
          <Icon aria-hidden="true" color="fg.muted" boxSize="4" _rtl={{ transform: 'scaleX(-1)' }}>
            {row.expanded ? <LuChevronDown /> : <LuChevronRight />}
          </Icon>
        ) : null}
      </Box>
    </Box>
  );
}

const TreeRow = memo(TreeRowInner) as typeof TreeRowInner;

interface MoreTreeRowProps<T> {
  row: MoreRow<T>;
  index: number;
  start: number;
  active: boolean;
  handlers: RowHandlers<T>;
}

/** 'Show more (N left)' after a node's loaded children: a treeitem, so the arrows reach it like any row. */
function MoreTreeRowInner<T>({ row, index, start, active, handlers }: MoreTreeRowProps<T>) {
  const t = useT();
  const parent = handlers.nameOf(row.parent);
  return (
    <Box
      role="treeitem"
      aria-level={row.depth + 1}
      aria-busy={row.loading || undefined}
      data-index={index}
      data-more-of={parent}
      tabIndex={active ? 0 : -1}
      position="absolute"
      top="0"
      insetStart="0"
      w="100%"
      h={`${TREE_ROW_HEIGHT}px`}
      style={{ transform: `translateY(${start}px)`, paddingInlineStart: indentOf(row.depth) }}
      display="flex"
      alignItems="center"
      gap="2"
      pe="3"
      cursor="pointer"
      _hover={{ bg: 'bg.muted' }}
      _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '-2px' }}
      colorPalette="gray"
      onClick={() => handlers.showMore(row, index)}
      onKeyDown={(event) => handlers.onKeyDown(event, row, index)}
      onMouseEnter={() => handlers.deactivate()}
      onFocus={() => {
        handlers.setActive(index);
        handlers.deactivate();
      }}
    >
      <Box w="7" flexShrink={0} display="flex" justifyContent="center">
        {row.loading && (
          <Spinner size="sm" role="status" aria-label={t('network.tree.loadingMore', { name: parent })} />
        )}
      </Box>
      <Box
        flex="1"
        minW="0"
        h="calc(100% - 8px)"
        display="flex"
        alignItems="center"
        px="3"
        borderRadius="md"
        borderWidth="1px"
        borderStyle="dashed"
        borderColor="border.emphasized"
        color="fg"
        fontWeight="medium"
      >
        {t('network.tree.showMore', { count: row.remaining })}
      </Box>
    </Box>
  );
}

const MoreTreeRow = memo(MoreTreeRowInner) as typeof MoreTreeRowInner;
