/**
 * A binary tree drawn as a tree: a member and a few levels below, two slots per member
 * (an empty one drawn as such), coloured by side, inside a box that scrolls both ways. Children
 * load level by level as the list's do; the view never holds more than 2^(levels+1) - 1 slots,
 * whatever the depth of the tree, so re-rooting deep in a leg costs the same as at the top.
 *
 * The layout is the complete binary tree's: the slot i of level d is centred in the i-th of 2^d
 * equal columns, so nothing overlaps and no layout library is needed.
 *
 * Keyboard (a roving tab stop over the members): Up goes to the parent (at the top: `onUp`),
 * Down to the first child, Left and Right to the neighbours on the level, Home to the top; Enter
 * (or a click) on a member below the top opens the graph at it. Hover and focus report the member
 * and its box (`onActivate`), for the page's hover panel.
 *
 * A binary tree is a diagram, not text: the left leg is drawn on the left and the right leg on the
 * right in every language (Arabic too), and Left/Right keys move as drawn. Only its words follow
 * the member's language and direction.
 */
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { Box, Spinner, Text } from '@chakra-ui/react';
import { useLocale, useT } from '@/lib/i18n/i18n.tsx';
import { sideText } from './side-text.ts';

export interface GraphMember {
  username: string;
  /** The side of its parent the member hangs on; null for the member itself (the tree's root). */
  side: '0' | '1' | null;
  active?: boolean;
}

export interface BinaryTreeGraphProps {
  /** The tree's accessible name. */
  label: string;
  root: GraphMember;
  /** Levels drawn below the root: GRAPH_LEVELS, or PHONE_LEVELS in a box narrower than PHONE_BOX_PX. */
  levels?: number;
  loadChildren: (username: string) => Promise<GraphMember[]>;
  /** A Chakra palette per side ('root' for a member with no side). */
  palette: Record<'0' | '1' | 'root', string>;
  /** A member below the top was chosen (Enter or click): open the graph at it; `via` are the members from below the top down to it. */
  onOpen: (member: GraphMember, via: GraphMember[]) => void;
  /** Up at the top member: open its parent, when the page knows it. */
  onUp?: () => void;
  /** Hover or focus entered a member (with its box), or left the graph (null). */
  onActivate?: (username: string | null, rect: DOMRect | null) => void;
}

export const GRAPH_LEVELS = 3;
/** On a phone two levels below the top: the top and its children in view at once. */
export const PHONE_LEVELS = 2;
const PHONE_BOX_PX = 600;
/** The narrowest column of the lowest level (a node and its gap); wider when the box has room, so it fits without scrolling. */
const MIN_COLUMN = 116;
/** On a phone the lowest level's four columns share the box (about 80 px each at 375 px): nothing drawn falls outside it. */
const PHONE_MIN_COLUMN = 72;
/** The top member is drawn up to this wide (within the box), room for its whole name on two lines. */
const TOP_NODE_MAX = 320;
const GAP = 12;
/** Room for a name on two lines above the side and status. */
const NODE_H = 64;
const ROW = NODE_H + 44;
/** Style and data values, not text. */
const ABSOLUTE = 'absolute';
const ROOT = 'root';

interface Slot {
  /** The sides taken from the top ('' for the top, '01' for its left child's right child). */
  key: string;
  depth: number;
  /** Left to right on its level. */
  index: number;
  side: '0' | '1' | null;
  member: GraphMember | null;
}

type Loaded = ReadonlyMap<string, GraphMember[] | 'loading'>;

/** The slots drawn: the top, then both slots of every member whose children are known, level by level. */
function slotsOf(root: GraphMember, loaded: Loaded, levels: number): Slot[] {
  const slots: Slot[] = [{ key: '', depth: 0, index: 0, side: root.side, member: root }];
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    const children = slot.member && slot.depth < levels ? loaded.get(slot.member.username) : undefined;
    if (!Array.isArray(children)) continue;
    for (const side of ['0', '1'] as const) {
      slots.push({
        key: slot.key + side,
        depth: slot.depth + 1,
        index: slot.index * 2 + Number(side),
        side,
        member: children.find((child) => child.side === side) ?? null,
      });
    }
  }
  return slots;
}

export function BinaryTreeGraph({
  label,
  root,
  levels: levelsProp,
  loadChildren,
  palette,
  onOpen,
  onUp,
  onActivate,
}: BinaryTreeGraphProps) {
  const t = useT();
  const { direction } = useLocale();
  const [loaded, setLoaded] = useState<Loaded>(() => new Map());
  const [focusKey, setFocusKey] = useState('');
  const scrollRef = useRef<HTMLDivElement>(null);
  const [boxWidth, setBoxWidth] = useState(0);
  useLayoutEffect(() => {
    const box = scrollRef.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setBoxWidth(box.clientWidth));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  const levels = levelsProp ?? (boxWidth > 0 && boxWidth < PHONE_BOX_PX ? PHONE_LEVELS : GRAPH_LEVELS);

  // Level by level from the top, each member's children once; a new top starts over (a new status
  // of the same top, once its details answer, does not).
  const topName = root.username;
  useEffect(() => {
    let cancelled = false;
    setLoaded(new Map());
    setFocusKey('');
    const visit = async (username: string, depth: number): Promise<void> => {
      if (depth >= levels) return;
      setLoaded((prev) => new Map(prev).set(username, 'loading'));
      let children: GraphMember[];
      try {
        children = await loadChildren(username);
      } catch (error) {
        // Spec §8: tree loading failures are only logged; the member reads as having no children.
        console.error(`Failed to load the downline of ${username}`, error);
        children = [];
      }
      if (cancelled) return;
      setLoaded((prev) => new Map(prev).set(username, children));
      await Promise.all(children.map((child) => visit(child.username, depth + 1)));
    };
    void visit(topName, 0);
    return () => {
      cancelled = true;
    };
  }, [topName, levels, loadChildren]);

  const slots = useMemo(() => slotsOf(root, loaded, levels), [root, loaded, levels]);
  const byKey = useMemo(() => new Map(slots.map((slot) => [slot.key, slot])), [slots]);
  const phone = boxWidth > 0 && boxWidth < PHONE_BOX_PX;
  const column = Math.max(phone ? PHONE_MIN_COLUMN : MIN_COLUMN, Math.floor(boxWidth / 2 ** levels));
  const nodeWidth = column - GAP;
  // Narrow nodes put the side and the status on lines of their own, in smaller type.
  const narrow = nodeWidth < 100;
  const width = 2 ** levels * column;
  // As tall as the levels drawn: a leaf opened alone leaves no empty box below.
  const height = (Math.max(...slots.map((slot) => slot.depth)) + 1) * ROW;
  const centreX = (slot: Pick<Slot, 'depth' | 'index'>) => ((slot.index + 0.5) * width) / 2 ** slot.depth;
  const topY = (slot: Pick<Slot, 'depth'>) => slot.depth * ROW + 8;

  // The top member in view when the graph opens at it.
  useLayoutEffect(() => {
    const box = scrollRef.current;
    if (box) box.scrollLeft = (width - box.clientWidth) / 2;
  }, [topName, width]);

  const open = (slot: Slot) => {
    if (slot.key === '' || !slot.member) return;
    const via = [...slot.key]
      .map((_, i) => byKey.get(slot.key.slice(0, i + 1))?.member)
      .filter((m): m is GraphMember => Boolean(m));
    onOpen(slot.member, via);
  };

  const focusSlot = useCallback((key: string) => {
    setFocusKey(key);
    requestAnimationFrame(() =>
      scrollRef.current?.querySelector<HTMLElement>(`[data-slot="member"][data-key="${key}"]`)?.focus(),
    );
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, slot: Slot) => {
    const member = (key: string) => (byKey.get(key)?.member ? key : null);
    const level = slots
      .filter((other) => other.depth === slot.depth && other.member)
      .sort((a, b) => a.index - b.index);
    const at = level.findIndex((other) => other.key === slot.key);
    const moves: Record<string, () => string | null> = {
      ArrowUp: () => {
        if (slot.key !== '') return slot.key.slice(0, -1);
        onUp?.();
        return null;
      },
      ArrowDown: () => member(`${slot.key}0`) ?? member(`${slot.key}1`),
      ArrowLeft: () => level[at - 1]?.key ?? null,
      ArrowRight: () => level[at + 1]?.key ?? null,
      Home: () => '',
      Enter: () => {
        open(slot);
        return null;
      },
      Escape: () => {
        onActivate?.(null, null);
        return null;
      },
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const target = move();
    if (target !== null) focusSlot(target);
  };

  return (
    <Box
      ref={scrollRef}
      role="tree"
      aria-label={label}
      // The diagram's geometry is left to right in every language (the legs are data); in a right
      // to left box the scroll origin would flip and the top member would not open in view.
      dir="ltr"
      overflow="auto"
      maxH="min(70vh, 560px)"
      borderWidth="1px"
      borderRadius="md"
      bg="bg.subtle"
      onScroll={() => onActivate?.(null, null)}
      onMouseLeave={() => onActivate?.(null, null)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onActivate?.(null, null);
      }}
      data-testid="binary-graph"
    >
      <Box position="relative" w={`${width}px`} h={`${height}px`}>
        <svg width={width} height={height} aria-hidden="true" style={{ position: 'absolute', inset: 0 }}>
          {slots
            .filter((slot) => slot.depth > 0)
            .map((slot) => {
              const parent = { depth: slot.depth - 1, index: slot.index >> 1 };
              const [x1, y1, x2, y2] = [centreX(parent), topY(parent) + NODE_H, centreX(slot), topY(slot)];
              const mid = (y1 + y2) / 2;
              return (
                <path
                  key={slot.key}
                  d={`M${x1},${y1} C${x1},${mid} ${x2},${mid} ${x2},${y2}`}
                  fill="none"
                  stroke="var(--chakra-colors-border-emphasized)"
                  strokeWidth="1.5"
                  strokeDasharray={slot.member ? undefined : '4 4'}
                />
              );
            })}
        </svg>
        {slots.map((slot) => {
          // The top is drawn wide (its row has it alone): a tap opens any member there, whole name readable.
          const slotWidth =
            slot.key === '' ? Math.max(nodeWidth, Math.min(TOP_NODE_MAX, width - GAP)) : nodeWidth;
          const place = {
            position: ABSOLUTE,
            left: `${centreX(slot) - slotWidth / 2}px`,
            top: `${topY(slot)}px`,
            w: `${slotWidth}px`,
            h: `${NODE_H}px`,
          } as const;
          if (!slot.member) {
            // An empty slot: where a member would hang; a picture, not a control.
            return (
              <Box
                key={slot.key}
                {...place}
                data-slot="empty"
                data-key={slot.key}
                data-side={slot.side ?? 'root'}
                borderWidth="1px"
                borderStyle="dashed"
                borderColor="border.emphasized"
                borderRadius="md"
                display="flex"
                alignItems="center"
                justifyContent="center"
              >
                <Text fontSize="xs" color="fg.muted" dir={direction}>
                  {t('network.graph.emptySlot', {
                    side: slot.side === '0' ? 'left' : slot.side === '1' ? 'right' : 'none',
                  })}
                </Text>
              </Box>
            );
          }
          const member = slot.member;
          const colour = palette[slot.side ?? ROOT];
          const status =
            member.active === undefined
              ? null
              : t(member.active ? 'network.status.active' : 'network.status.inactive');
          const side = slot.side ? sideText(t, slot.side) : null;
          const children = loaded.get(member.username);
          return (
            <Box
              key={slot.key}
              {...place}
              role="treeitem"
              aria-level={slot.depth + 1}
              aria-selected={slot.key === focusKey}
              tabIndex={slot.key === focusKey ? 0 : -1}
              data-key={slot.key}
              data-name={member.username}
              data-side={slot.side ?? 'root'}
              data-slot="member"
              // The words inside a node read in the member's direction; the node stays where the data puts it.
              dir={direction}
              colorPalette={colour}
              bg="colorPalette.subtle"
              color="colorPalette.fg"
              borderWidth="2px"
              borderColor="colorPalette.solid"
              borderRadius="md"
              px={narrow ? '1.5' : '2'}
              py={slot.key === '' || narrow ? '0.5' : '1'}
              cursor={slot.key === '' ? 'default' : 'pointer'}
              display="flex"
              flexDirection="column"
              justifyContent="center"
              _focusVisible={{
                outline: '3px solid',
                outlineColor: 'colorPalette.focusRing',
                outlineOffset: '2px',
              }}
              onClick={() => {
                setFocusKey(slot.key);
                open(slot);
              }}
              onKeyDown={(event) => onKeyDown(event, slot)}
              onMouseEnter={(event) =>
                onActivate?.(member.username, event.currentTarget.getBoundingClientRect())
              }
              onFocus={(event) => {
                setFocusKey(slot.key);
                onActivate?.(member.username, event.currentTarget.getBoundingClientRect());
              }}
            >
              {/*
               * The whole name as a tooltip, and wrapped (anywhere) onto two lines rather than cut:
               * cut to a node's width, names alike in their first letters (m0000123, m0000124) all read the same.
               */}
              <Text
                data-part="name"
                title={member.username}
                fontWeight="semibold"
                fontSize={narrow && slot.key !== '' ? 'xs' : 'sm'}
                lineHeight="1.2"
                lineClamp={2}
                wordBreak="break-all"
              >
                {member.username}
              </Text>
              {/* Side and status on lines of their own: "Izquierda · Activo" does not fit a node's width on one. */}
              <Text fontSize="2xs" lineHeight="1.3" truncate>
                {side ?? '\u00a0'}
              </Text>
              <Text fontSize="2xs" lineHeight="1.3" truncate>
                {status ?? '\u00a0'}
              </Text>
              {children === 'loading' && (
                <Spinner
                  size="xs"
                  position="absolute"
                  bottom="-5"
                  insetStart="50%"
                  ms="-1.5"
                  role="status"
                  aria-label={t('network.tree.loading', { name: member.username })}
                />
              )}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
