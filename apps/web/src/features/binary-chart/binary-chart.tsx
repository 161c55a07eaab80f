/**
 * Binary Chart (/dashboard/binarychart, spec §2): the member's binary tree with a hover panel, as
 * the list (the default) or as a graph with a jump to the bottom of each leg and a search by name
 * (binary-graph-view.tsx). Both views stay mounted once opened, so switching keeps
 * what each has open.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Badge, Box, Spinner, Stack, Tabs, Text } from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MSG } from '@md/shared';
import { sideText } from '@/components/binary-tree-graph/side-text.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { Unavailable } from '@/components/unavailable.tsx';
import { VirtualTree, type FlatRow, type TreeNode } from '@/components/tree/virtual-tree.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { recordOf, textOf } from '@/lib/guards.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { downlineChildren, hasDownline, type BinaryMember } from './binary-data.ts';
import { BinaryGraphView } from './binary-graph-view.tsx';
import { FloatingDetails, useNodeDetails } from './node-details.tsx';

/** Left and right legs in two palettes; 'subtle' backgrounds keep fg text readable in both modes. */
export const SIDE_PALETTE = { '0': 'blue', '1': 'orange', root: 'gray' } as const;
const paletteOf = (row: FlatRow<BinaryMember>) =>
  row.node.data.side ? SIDE_PALETTE[row.node.data.side] : SIDE_PALETTE.root;

/** A node's line: name, active dot (unknown until details load), sponsor and side. */
function BinaryNodeContent({ member }: { member: BinaryMember }) {
  const t = useT();
  // Reads the details cache only; the hover loads it.
  const details = recordOf(recordOf(useNodeDetails(member.username, false).data)?.Success);
  const active = typeof details?.Status === 'boolean' ? details.Status : member.active;
  const status = active === undefined ? 'unknown' : active ? 'active' : 'inactive';
  const sponsor = details ? textOf(details.Sponsor) || null : member.sponsor;
  const detailsSide = textOf(details?.Side);
  const side = member.side ?? (detailsSide === '0' || detailsSide === '1' ? detailsSide : null);
  return (
    <>
      <Stack gap="0" minW="0" flex="1">
        {/* Whole, on two lines if need be (cut, names alike in their first letters read the same), and as a tooltip. */}
        <Text
          data-part="name"
          title={member.username}
          fontWeight="semibold"
          fontSize="sm"
          lineHeight="1.2"
          lineClamp={2}
          wordBreak="break-all"
        >
          {member.username}
        </Text>
        <Text fontSize="xs" lineHeight="1.3" color="fg.muted" truncate>
          {t('network.binary.sponsor', { sponsor: sponsor === undefined ? '…' : (sponsor ?? '-') })}
        </Text>
      </Stack>
      {/* Drawn first (order) but read after the name: the row's accessible name starts with the member. */}
      <Box
        as="span"
        w="2.5"
        h="2.5"
        borderRadius="full"
        flexShrink={0}
        order={-1}
        bg={status === 'active' ? 'green.solid' : status === 'inactive' ? 'red.solid' : 'gray.emphasized'}
        data-status={status}
        title={t(`network.status.${status}`)}
        aria-label={t(`network.status.${status}`)}
        role="img"
      />
      {side && (
        <Badge colorPalette={SIDE_PALETTE[side]} variant="solid" flexShrink={0}>
          {sideText(t, side)}
        </Badge>
      )}
    </>
  );
}

export default function BinaryChartPage() {
  const item = navItemByPath('/dashboard/binarychart')!;
  const t = useT();
  const messageText = useMessageText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user, profile } = useAuth();
  const username = user?.username ?? '';
  const rootQuery = useQuery({
    ...trpc['binary.view_binary_downline'].queryOptions({ username }),
    enabled: Boolean(username),
    retry: false,
  });
  const [hovered, setHovered] = useState<{ username: string; rect: DOMRect } | null>(null);

  // Spec §8: a failed load is logged, and silent (no toast); the page says the tree is unavailable, with a Retry.
  useEffect(() => {
    if (rootQuery.error) console.error('Failed to load the binary tree', rootQuery.error);
  }, [rootQuery.error]);
  // A root answer without a username reads as no tree (spec §8: the tree becomes empty).
  const answer = recordOf(recordOf(rootQuery.data)?.Success);
  // An answer whose Success is no object could not be read: not an empty tree either.
  const failed = rootQuery.isError || (rootQuery.data !== undefined && !answer);
  const rootName = textOf(answer?.Username);

  // The root is the member itself: its sponsor and status come from the profile, not a downline entry.
  const rootSponsor = profile?.Sponsor;
  const rootActive = profile ? Boolean(profile.Subscription) : undefined;
  const root = useMemo<TreeNode<BinaryMember> | null>(
    () =>
      answer && rootName && hasDownline(answer)
        ? {
            id: rootName,
            data: {
              username: rootName,
              side: null,
              ...(rootSponsor !== undefined ? { sponsor: rootSponsor } : {}),
              ...(rootActive !== undefined ? { active: rootActive } : {}),
            },
            expandable: true,
          }
        : null,
    [answer, rootName, rootSponsor, rootActive],
  );
  const rootChildren = useMemo(() => (answer ? downlineChildren(answer.Downline) : []), [answer]);

  const loadChildren = useCallback(
    async (node: TreeNode<BinaryMember>) => {
      const data = await queryClient.fetchQuery(
        trpc['binary.view_binary_downline'].queryOptions({ username: node.id }),
      );
      return downlineChildren(recordOf(recordOf(data)?.Success)?.Downline);
    },
    [queryClient, trpc],
  );

  const onActivate = useCallback((row: FlatRow<BinaryMember> | null, rect: DOMRect | null) => {
    setHovered(row && rect ? { username: row.node.id, rect } : null);
  }, []);

  return (
    <Stack gap="2">
      <PageHeader route={item} />
      {failed ? (
        <Unavailable
          what={t('network.binary.tree')}
          onRetry={() => void rootQuery.refetch()}
          retrying={rootQuery.isFetching}
        />
      ) : rootQuery.isPending && username ? (
        <Spinner role="status" aria-label={t('network.binary.loading')} />
      ) : !root ? (
        <Text color="fg.muted">{messageText(MSG.noOrgData)}</Text>
      ) : (
        <Tabs.Root defaultValue="list" variant="line" colorPalette="teal" lazyMount>
          <Tabs.List mb="3">
            <Tabs.Trigger value="list">{t('network.binary.tabs.list')}</Tabs.Trigger>
            <Tabs.Trigger value="tree">{t('network.binary.tabs.tree')}</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="list" pt="0">
            <Stack gap="2">
              <Text fontSize="sm" color="fg.muted">
                {t('network.binary.listHint')}
              </Text>
              <VirtualTree
                key={root.id}
                label={t('network.binary.tree')}
                root={root}
                rootChildren={rootChildren}
                loadChildren={loadChildren}
                nameOf={(node) => node.data.username}
                paletteOf={paletteOf}
                rowData={(row) => ({ 'data-side': row.node.data.side ?? 'root' })}
                renderContent={(row) => <BinaryNodeContent member={row.node.data} />}
                onActivate={onActivate}
              />
              {hovered && <FloatingDetails username={hovered.username} rect={hovered.rect} />}
            </Stack>
          </Tabs.Content>
          <Tabs.Content value="tree" pt="0">
            <BinaryGraphView
              me={root.id}
              {...(rootActive !== undefined ? { meActive: rootActive } : {})}
              palette={SIDE_PALETTE}
            />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </Stack>
  );
}
