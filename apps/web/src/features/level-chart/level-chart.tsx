/**
 * Level Chart (/dashboard/levelchart, spec §2): the sponsor downline, 5 levels, name plus count.
 * With the server's `downline_pages` capability each member's directs come a page at a time
 * (a 'Show more' row loads the next); without it (the provider) the whole list at once.
 * A search lists only the member's directs whose name contains what is typed (all of them, read
 * once with the provider's whole-list call), and says how many match.
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Badge, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LEVEL_CHART_LEVELS, LEVEL_PAGE_SIZE, MSG, TEXT_MAX } from '@md/shared';
import { ShareYourLink } from '@/components/next-step.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { Unavailable } from '@/components/unavailable.tsx';
import { VirtualTree, type ChildPage, type FlatRow, type TreeNode } from '@/components/tree/virtual-tree.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { listOf, numberOf, recordOf, textOf } from '@/lib/guards.ts';
import { useTRPC } from '@/lib/trpc.ts';

interface LevelMember {
  username: string;
  count: number;
}

/** Ten palettes; level n takes palette n mod 10 (spec §2). */
export const LEVEL_PALETTE = [
  'teal',
  'blue',
  'purple',
  'pink',
  'orange',
  'green',
  'cyan',
  'red',
  'yellow',
  'gray',
] as const;
export const levelPalette = (level: number) =>
  LEVEL_PALETTE[((level % LEVEL_PALETTE.length) + LEVEL_PALETTE.length) % LEVEL_PALETTE.length]!;

/** The entries of a `Success` answer: named ones only; anything else reads as none (spec §8). */
const entriesOf = (answer: unknown) =>
  listOf(recordOf(answer)?.Downline)
    .map((entry) => ({ username: textOf(entry.Username), count: numberOf(entry.Count) ?? 0 }))
    .filter((entry) => entry.username !== '');

/** Members at the last level (depth 5) do not expand: the chart covers 5 levels. */
const toNodes = (answer: unknown, childDepth: number): TreeNode<LevelMember>[] =>
  entriesOf(answer).map((entry) => ({
    id: entry.username,
    data: entry,
    expandable: childDepth < LEVEL_CHART_LEVELS && entry.count > 0,
  }));

/** Directs of a paged answer after this page: its CountUser is every direct. */
const remainingAfter = (success: Record<string, unknown>, skipped: number, received: number) =>
  Math.max(0, (numberOf(success.CountUser) ?? 0) - skipped - received);

function LevelNodeContent({ row }: { row: FlatRow<LevelMember> }) {
  const t = useT();
  const f = useFormat();
  return (
    <>
      {/* Whole, on two lines if need be (a username is at most 30 characters), and as a tooltip. */}
      <Text
        data-part="name"
        title={row.node.data.username}
        fontWeight="semibold"
        lineHeight="1.25"
        lineClamp={2}
        wordBreak="break-all"
        flex="1"
        minW="0"
      >
        {row.node.data.username}
      </Text>
      {row.depth > 0 && (
        <Text fontSize="xs" color="fg.muted" flexShrink={0}>
          {t('network.level.level', { level: row.depth })}
        </Text>
      )}
      <Badge
        colorPalette={levelPalette(row.depth)}
        variant="solid"
        flexShrink={0}
        aria-label={t('network.level.members', { count: row.node.data.count })}
      >
        {f.number(row.node.data.count)}
      </Badge>
    </>
  );
}

export default function LevelChartPage() {
  const item = navItemByPath('/dashboard/levelchart')!;
  const t = useT();
  const messageText = useMessageText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const username = useAuth().user?.username ?? '';
  const paged = hasCapability(useConfig(), 'downline_pages');
  const wholeQuery = useQuery({
    ...trpc['level.view_downline'].queryOptions({ username }),
    enabled: Boolean(username) && !paged,
    retry: false,
  });
  const firstPageQuery = useQuery({
    ...trpc['level.view_downline_page'].queryOptions({ username, page: 1, per_page: LEVEL_PAGE_SIZE }),
    enabled: Boolean(username) && paged,
    retry: false,
  });
  const rootQuery = paged ? firstPageQuery : wholeQuery;
  // Spec §8: a failed load is logged, and silent (no toast); the page says the tree is unavailable, with a Retry.
  useEffect(() => {
    if (rootQuery.error) console.error('Failed to load the level tree', rootQuery.error);
  }, [rootQuery.error]);
  const answer = recordOf(recordOf(rootQuery.data)?.Success);
  // An answer whose Success is no object could not be read: not an empty downline either.
  const failed = rootQuery.isError || (rootQuery.data !== undefined && !answer);

  const root = useMemo<TreeNode<LevelMember> | null>(() => {
    const name = textOf(answer?.Username);
    return answer && name && entriesOf(answer).length > 0
      ? { id: name, data: { username: name, count: numberOf(answer.CountUser) ?? 0 }, expandable: true }
      : null;
  }, [answer]);
  const rootChildren = useMemo(() => (answer ? toNodes(answer, 1) : []), [answer]);
  const rootRemaining = paged && answer ? remainingAfter(answer, 0, rootChildren.length) : 0;

  // The search: all directs (the whole-list call, already the tree's own without paging), filtered here.
  const [search, setSearch] = useState('');
  const wanted = useDeferredValue(search.trim().toLowerCase());
  const allDirectsQuery = useQuery({
    ...trpc['level.view_downline'].queryOptions({ username }),
    enabled: Boolean(username) && (!paged || wanted !== ''),
    retry: false,
  });
  useEffect(() => {
    if (allDirectsQuery.error && wanted)
      console.error('Failed to load the directs to search', allDirectsQuery.error);
  }, [allDirectsQuery.error, wanted]);
  const allDirects = useMemo(
    () => toNodes(recordOf(allDirectsQuery.data)?.Success, 1),
    [allDirectsQuery.data],
  );
  const matches = useMemo(
    () => (wanted ? allDirects.filter((node) => node.id.toLowerCase().includes(wanted)) : []),
    [allDirects, wanted],
  );

  const loadChildren = useCallback(
    async (
      node: TreeNode<LevelMember>,
      depth: number,
      offset: number,
    ): Promise<TreeNode<LevelMember>[] | ChildPage<LevelMember>> => {
      if (!paged) {
        const data = await queryClient.fetchQuery(
          trpc['level.view_downline'].queryOptions({ username: node.id }),
        );
        return toNodes(recordOf(data)?.Success, depth + 1);
      }
      const page = Math.floor(offset / LEVEL_PAGE_SIZE) + 1;
      const data = await queryClient.fetchQuery(
        trpc['level.view_downline_page'].queryOptions({ username: node.id, page, per_page: LEVEL_PAGE_SIZE }),
      );
      const success = recordOf(recordOf(data)?.Success);
      const nodes = toNodes(success, depth + 1);
      return {
        nodes,
        remaining: success ? remainingAfter(success, (page - 1) * LEVEL_PAGE_SIZE, nodes.length) : 0,
      };
    },
    [paged, queryClient, trpc],
  );

  return (
    <Stack gap="2">
      <PageHeader route={item} />
      {failed ? (
        <Unavailable
          what={t('network.level.tree')}
          onRetry={() => void rootQuery.refetch()}
          retrying={rootQuery.isFetching}
        />
      ) : rootQuery.isPending && username ? (
        <Spinner role="status" aria-label={t('network.level.loading')} />
      ) : !root ? (
        <Stack gap="4">
          <Text color="fg.muted">{messageText(MSG.noOrgData)}</Text>
          {/* No downline: the next step is sharing the link. */}
          <ShareYourLink />
        </Stack>
      ) : (
        <>
          <Text fontSize="sm" color="fg.muted">
            {t('network.level.hint')}
          </Text>
          <Stack
            as="form"
            role="search"
            aria-label={t('network.level.findDirect')}
            gap="1"
            maxW="md"
            onSubmit={(event) => event.preventDefault()}
          >
            <Input
              type="search"
              size="sm"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder={t('network.level.searchPlaceholder')}
              aria-label={t('network.level.searchLabel')}
              maxLength={TEXT_MAX.username}
            />
            {wanted && (
              <Text fontSize="sm" role="status" data-testid="level-search-summary">
                {allDirectsQuery.isError
                  ? t('network.level.searchFailed')
                  : allDirectsQuery.isPending
                    ? t('network.level.searching')
                    : matches.length === 0
                      ? t('network.level.noMatch', { search: search.trim() })
                      : t('network.level.matches', {
                          matches: matches.length,
                          total: allDirects.length,
                          search: search.trim(),
                        })}
              </Text>
            )}
          </Stack>
          {/* The tree keeps what it was mounted with: a search's tree waits for the directs it filters. */}
          {(!wanted || allDirectsQuery.isSuccess) && (
            <VirtualTree
              key={wanted ? `search:${wanted}` : root.id}
              label={t('network.level.tree')}
              root={root}
              rootChildren={wanted ? matches : rootChildren}
              rootRemaining={wanted ? 0 : rootRemaining}
              loadChildren={loadChildren}
              nameOf={(node) => node.data.username}
              paletteOf={(row) => levelPalette(row.depth)}
              rowData={(row) => ({ 'data-colour': levelPalette(row.depth) })}
              renderContent={(row) => <LevelNodeContent row={row} />}
            />
          )}
        </>
      )}
    </Stack>
  );
}
