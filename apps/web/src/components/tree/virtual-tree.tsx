/**
 * The one tree view of the app (binary and level charts, DESIGN §7): the expanded tree as a flat
 * list of rows indented by depth, virtualized so thousands of expanded nodes stay smooth. Rows are
 * treeitems; a click (or Enter/Space, or the Expand button) toggles a node, whose children load
 * lazily behind a spinner. Pages configure content, colours and the hover panel.
 */
import { useCallback, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Box, IconButton, Spinner } from '@chakra-ui/react';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { LuChevronDown, LuChevronRight } from 'react-icons/lu';
import { useLazyTree, type FlatRow, type LoadChildren, type TreeNode } from './use-lazy-tree.ts';

export type { FlatRow, LoadChildren, TreeNode } from './use-lazy-tree.ts';

export interface VirtualTreeProps<T> {
  /** The tree's accessible name ('Binary tree', 'Level tree'). */
  label: string;
  root: TreeNode<T>;
  rootChildren: TreeNode<T>[];
  loadChildren: LoadChildren<T>;
  /** The name in 'Expand <name>' / 'Collapse <name>'. */
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
/** When the scroller reports no height (jsdom, hidden parent) assume a viewport's worth. */
const FALLBACK_HEIGHT = 600;

const observeRect = (instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) =>
  observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width, height: FALLBACK_HEIGHT }));

export function VirtualTree<T>(props: VirtualTreeProps<T>) {
  const { label, root, rootChildren, loadChildren, nameOf, renderContent, paletteOf, rowData, onActivate } = props;
  const { rows, toggle } = useLazyTree(root, rootChildren, loadChildren);
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
      requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLElement>(`[data-index="${target}"]`)?.focus());
    },
    [rows.length, virtualizer],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, row: FlatRow<T>, index: number) => {
    if (event.target !== event.currentTarget) return; // the Expand button handles its own keys
    const keys: Record<string, () => void> = {
      Enter: () => toggle(row),
      ' ': () => toggle(row),
      ArrowRight: () => (row.expandable && !row.expanded ? toggle(row) : focusRow(index + 1)),
      ArrowLeft: () => (row.expanded ? toggle(row) : focusRow(index - 1)),
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
          const name = nameOf(row.node);
          const indent = Math.min(row.depth, MAX_INDENT_DEPTH) * INDENT_PX;
          return (
            <Box
              key={row.node.id}
              role="treeitem"
              aria-level={row.depth + 1}
              aria-expanded={row.expandable ? row.expanded : undefined}
              aria-busy={row.loading || undefined}
              aria-label={name}
              data-index={item.index}
              {...rowData?.(row)}
              tabIndex={item.index === active ? 0 : -1}
              position="absolute"
              top="0"
              left="0"
              w="100%"
              h={`${TREE_ROW_HEIGHT}px`}
              transform={`translateY(${item.start}px)`}
              display="flex"
              alignItems="center"
              gap="2"
              pe="3"
              ps={`${indent + 8}px`}
              cursor={row.expandable ? 'pointer' : 'default'}
              _hover={{ bg: 'bg.muted' }}
              _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '-2px' }}
              colorPalette={paletteOf(row)}
              onClick={() => toggle(row)}
              onKeyDown={(event) => onKeyDown(event, row, item.index)}
              onMouseEnter={(event) => onActivate?.(row, event.currentTarget.getBoundingClientRect())}
              onFocus={(event) => {
                setActive(item.index);
                onActivate?.(row, event.currentTarget.getBoundingClientRect());
              }}
            >
              <Box w="7" flexShrink={0} display="flex" justifyContent="center">
                {row.loading ? (
                  <Spinner size="sm" aria-label={`Loading ${name}`} />
                ) : row.expandable ? (
                  <IconButton
                    size="xs"
                    variant="ghost"
                    aria-label={`${row.expanded ? 'Collapse' : 'Expand'} ${name}`}
                    aria-expanded={row.expanded}
                    tabIndex={-1}
                    onClick={(event) => {
                      event.stopPropagation();
                      toggle(row);
                    }}
                  >
                    {row.expanded ? <LuChevronDown /> : <LuChevronRight />}
                  </IconButton>
                ) : null}
              </Box>
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
                {renderContent(row)}
              </Box>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
