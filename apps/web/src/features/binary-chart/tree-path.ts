/**
 * The path from the member to the member the graph is opened at, for the breadcrumbs. A path
 * through a spillover leg is thousands of names long (26,378 levels in the `scale` scenario): the
 * server answers only its first and last few with the count between (`binary_paths`), and the
 * crumbs show at most BINARY_PATH_ENDS at each end, so neither memory nor the DOM grows with depth.
 */
import { BINARY_PATH_ENDS } from '@md/shared';
import { isRecord, numberOf, textOf } from '@/lib/guards.ts';

export interface TreePath {
  /** Names from the member down (the member first). */
  head: string[];
  /** Names between head and tail that are not known here. */
  skipped: number;
  /** Names after the gap, ending with the member the path leads to; empty when skipped is 0. */
  tail: string[];
}

export const pathOf = (names: string[]): TreePath => compact({ head: names, skipped: 0, tail: [] });

/** Keeps at most BINARY_PATH_ENDS names at each end; the rest become the skipped count. */
export function compact(path: TreePath): TreePath {
  const ends = BINARY_PATH_ENDS;
  if (path.skipped === 0 && path.head.length + path.tail.length <= 2 * ends)
    return { head: [...path.head, ...path.tail], skipped: 0, tail: [] };
  const all = path.skipped === 0 ? [...path.head, ...path.tail] : null;
  if (all) return { head: all.slice(0, ends), skipped: all.length - 2 * ends, tail: all.slice(-ends) };
  const head = path.head.slice(0, ends);
  const tail = path.tail.slice(-ends);
  return {
    head,
    skipped: path.skipped + (path.head.length - head.length) + (path.tail.length - tail.length),
    tail,
  };
}

/** Levels the path's last member sits below the first. */
export const levelsOf = (path: TreePath) => path.head.length + path.skipped + path.tail.length - 1;
export const lastOf = (path: TreePath) =>
  path.tail.length > 0 ? path.tail[path.tail.length - 1]! : path.head[path.head.length - 1]!;

/** The path one level further down, to `child` of its last member. */
export const extend = (path: TreePath, child: string): TreePath =>
  compact(
    path.skipped === 0
      ? { head: [...path.head, child], skipped: 0, tail: [] }
      : { ...path, tail: [...path.tail, child] },
  );

/** Where a crumb sits: in the head or the tail, by index. */
export interface CrumbAt {
  part: 'head' | 'tail';
  index: number;
}

/** The path cut after the crumb `at` (opening that member). */
export const upTo = (path: TreePath, at: CrumbAt): TreePath =>
  at.part === 'head'
    ? { head: path.head.slice(0, at.index + 1), skipped: 0, tail: [] }
    : { ...path, tail: path.tail.slice(0, at.index + 1) };

/** The crumb before the last (the parent of the member opened), or null when it is not known here. */
export function parentCrumb(path: TreePath): CrumbAt | null {
  if (path.tail.length > 1) return { part: 'tail', index: path.tail.length - 2 };
  if (path.tail.length === 1)
    return path.skipped === 0 ? { part: 'head', index: path.head.length - 1 } : null;
  return path.head.length > 1 ? { part: 'head', index: path.head.length - 2 } : null;
}

/** The `binary_paths` answer read defensively (spec §8): null when it names nobody. */
export function pathFromAnswer(answer: unknown): TreePath | null {
  if (!isRecord(answer)) return null;
  const names = (value: unknown) =>
    Array.isArray(value) ? value.map((name) => textOf(name)).filter(Boolean) : [];
  const head = names(answer.Head);
  if (head.length === 0) return null;
  const tail = names(answer.Tail);
  const skipped = Math.max(0, Math.floor(numberOf(answer.Skipped) ?? 0));
  return compact({ head, skipped: tail.length > 0 ? skipped : 0, tail });
}
