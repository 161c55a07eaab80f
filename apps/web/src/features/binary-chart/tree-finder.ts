/**
 * Finding members in the binary tree for the graph: the bottom of a leg and a member by name, each
 * as the path from the member. With the server's `binary_paths` capability one call answers
 * (however deep); without it (a provider without the extension) the client walks the tree with
 * the provider's own downline call, at most FALLBACK_WALK_BOUND calls, and says when it stopped
 * there (docs/decisions/network-trees.md).
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { httpStatusOf } from '@/lib/errors.ts';
import { recordOf } from '@/lib/guards.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { downlineChildren, type BinaryMember, type Side } from './binary-data.ts';
import { pathFromAnswer, pathOf, type TreePath } from './tree-path.ts';

/** Downline calls a walk may make without the extension: levels down a leg, or members looked into by a search. */
export const FALLBACK_WALK_BOUND = 100;
/** Calls a fallback search keeps in flight at once. */
const SEARCH_PARALLEL = 4;

export type FindResult =
  { found: true; path: TreePath; stoppedAtBound: boolean } | { found: false; stoppedAtBound: boolean };

export function useTreeFinder(me: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const withPaths = hasCapability(useConfig(), 'binary_paths');

  /** A member's children (cached with the list's and the graph's loads). */
  const childrenOf = useCallback(
    async (username: string): Promise<BinaryMember[]> => {
      const data = await queryClient.fetchQuery(
        trpc['binary.view_binary_downline'].queryOptions({ username }),
      );
      return downlineChildren(recordOf(recordOf(data)?.Success)?.Downline).map((node) => node.data);
    },
    [queryClient, trpc],
  );

  const legBottom = useCallback(
    async (side: Side): Promise<FindResult> => {
      if (withPaths) {
        const data = await queryClient.fetchQuery({
          ...trpc['binary.view_leg_bottom'].queryOptions({ side }),
          staleTime: 0,
        });
        const path = pathFromAnswer(recordOf(data)?.Success);
        return path ? { found: true, path, stoppedAtBound: false } : { found: false, stoppedAtBound: false };
      }
      // Down the side's child until there is none, or the bound.
      const names = [me];
      for (let calls = 0; calls < FALLBACK_WALK_BOUND; calls++) {
        const next = (await childrenOf(names[names.length - 1]!)).find((child) => child.side === side);
        if (!next) return { found: true, path: pathOf(names), stoppedAtBound: false };
        names.push(next.username);
      }
      return { found: true, path: pathOf(names), stoppedAtBound: true };
    },
    [withPaths, queryClient, trpc, me, childrenOf],
  );

  /** The path to `username`, or not found (outside the downline and unknown are the same). */
  const pathTo = useCallback(
    async (username: string): Promise<FindResult> => {
      const wanted = username.trim().toLowerCase();
      if (withPaths) {
        try {
          const data = await queryClient.fetchQuery({
            ...trpc['binary.view_path'].queryOptions({ username: wanted }),
            staleTime: 0,
          });
          const path = pathFromAnswer(recordOf(data)?.Success);
          return path
            ? { found: true, path, stoppedAtBound: false }
            : { found: false, stoppedAtBound: false };
        } catch (error) {
          if (httpStatusOf(error) === 404) return { found: false, stoppedAtBound: false };
          throw error;
        }
      }
      if (wanted === me.toLowerCase()) return { found: true, path: pathOf([me]), stoppedAtBound: false };
      // Breadth first from the member, a few calls at a time, keeping each member's parent for the path.
      const parentOf = new Map<string, string>();
      let level = [me];
      let calls = 0;
      while (level.length > 0 && calls < FALLBACK_WALK_BOUND) {
        const next: string[] = [];
        for (let i = 0; i < level.length && calls < FALLBACK_WALK_BOUND; i += SEARCH_PARALLEL) {
          const batch = level.slice(i, Math.min(i + SEARCH_PARALLEL, i + FALLBACK_WALK_BOUND - calls));
          calls += batch.length;
          const answers = await Promise.all(
            batch.map((name) => childrenOf(name).then((children) => [name, children] as const)),
          );
          for (const [parent, children] of answers) {
            for (const child of children) {
              if (parentOf.has(child.username)) continue;
              parentOf.set(child.username, parent);
              next.push(child.username);
              if (child.username.toLowerCase() === wanted) {
                const names = [child.username];
                for (let at = parent; at !== me; at = parentOf.get(at)!) names.unshift(at);
                return { found: true, path: pathOf([me, ...names]), stoppedAtBound: false };
              }
            }
          }
        }
        level = next;
      }
      return { found: false, stoppedAtBound: level.length > 0 };
    },
    [withPaths, queryClient, trpc, me, childrenOf],
  );

  return { withPaths, childrenOf, legBottom, pathTo };
}
