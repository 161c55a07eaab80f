/**
 * The Tree view of the Binary Chart: the graph opened at a member a few levels at a
 * time, the path to it from the member as breadcrumbs, a jump to the bottom of either leg (where
 * the member's next registration on that side is placed) and a search by name.
 */
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Flex, Input, Stack, Text } from '@chakra-ui/react';
import { LuArrowDownLeft, LuArrowDownRight, LuArrowUp, LuSearch } from 'react-icons/lu';
import { formatNumber, sideLabel } from '@md/shared';
import { BinaryTreeGraph, type GraphMember } from '@/components/binary-tree-graph/binary-tree-graph.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf } from '@/lib/guards.ts';
import type { Side } from './binary-data.ts';
import { FloatingDetails, useNodeDetails } from './node-details.tsx';
import { PathBreadcrumbs } from './path-breadcrumbs.tsx';
import { FALLBACK_WALK_BOUND, useTreeFinder } from './tree-finder.ts';
import {
  extend,
  lastOf,
  levelsOf,
  parentCrumb,
  pathOf,
  upTo,
  type CrumbAt,
  type TreePath,
} from './tree-path.ts';

interface Notice {
  status: 'info' | 'warning' | 'error';
  text: string;
}

const levelsText = (levels: number) => `${formatNumber(levels)} ${levels === 1 ? 'level' : 'levels'}`;

export function BinaryGraphView({
  me,
  meActive,
  palette,
}: {
  me: string;
  meActive?: boolean;
  palette: Record<'0' | '1' | 'root', string>;
}) {
  const finder = useTreeFinder(me);
  const [path, setPath] = useState<TreePath>(() => pathOf([me]));
  // The side the opened member hangs on, when known (from a click or a leg's bottom).
  const [rootSide, setRootSide] = useState<Side | null>(null);
  // Its status as the slot it was opened from showed it (a click), until its details answer.
  const [openedActive, setOpenedActive] = useState<boolean | undefined>(undefined);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<Side | 'search' | 'up' | null>(null);
  const [query, setQuery] = useState('');
  const [hovered, setHovered] = useState<{ username: string; rect: DOMRect } | null>(null);

  const rootName = lastOf(path);
  // The member the graph is opened at shows its status as the others do: the details call (also the
  // hover panel's, and the provider's) says it for a member reached by search, a leg's bottom or a crumb.
  const rootDetails = recordOf(recordOf(useNodeDetails(rootName, rootName !== me).data)?.Success);
  const rootActive =
    rootName === me ? meActive : typeof rootDetails?.Status === 'boolean' ? rootDetails.Status : openedActive;
  const root = useMemo<GraphMember>(
    () => ({
      username: rootName,
      side: rootName === me ? null : rootSide,
      ...(rootActive !== undefined ? { active: rootActive } : {}),
    }),
    [rootName, me, rootSide, rootActive],
  );

  const open = useCallback((next: TreePath, side: Side | null, message: Notice | null, active?: boolean) => {
    setPath(next);
    setRootSide(side);
    setOpenedActive(active);
    setNotice(message);
    setHovered(null);
  }, []);

  /** Runs a lookup with its button busy; a failure shows the server's words. */
  const run = async (what: Side | 'search' | 'up', lookup: () => Promise<void>) => {
    setBusy(what);
    try {
      await lookup();
    } catch (error) {
      console.error('Tree lookup failed', error);
      setNotice({ status: 'error', text: errorMessage(error, 'Could not load the tree. Please try again.') });
    } finally {
      setBusy(null);
    }
  };

  const jump = (side: Side) =>
    run(side, async () => {
      const result = await finder.legBottom(side);
      if (!result.found) return setNotice({ status: 'error', text: 'Could not find the bottom of the leg.' });
      const levels = levelsOf(result.path);
      const leg = sideLabel(side).toLowerCase();
      const bottom = lastOf(result.path);
      open(
        result.path,
        levels > 0 ? side : null,
        result.stoppedAtBound
          ? {
              status: 'warning',
              text: `Stopped after ${levelsText(levels)} at ${bottom}: your ${leg} leg goes deeper. This server offers no jump, so the walk stops at ${FALLBACK_WALK_BOUND} levels; jump again from here to go on.`,
            }
          : levels === 0
            ? {
                status: 'info',
                text: `Your ${leg} leg is empty: a new member you register on the ${leg} is placed directly under you.`,
              }
            : {
                status: 'info',
                text: `Bottom of your ${leg} leg: ${bottom}, ${levelsText(levels)} below you. A new member you register on the ${leg} is placed under ${bottom}.`,
              },
      );
    });

  const search = (event: FormEvent) => {
    event.preventDefault();
    const name = query.trim();
    if (!name) return setNotice({ status: 'error', text: 'Enter a username to find.' });
    void run('search', async () => {
      const result = await finder.pathTo(name);
      if (result.found)
        return open(result.path, null, {
          status: 'info',
          text: `${lastOf(result.path)} is ${levelsText(levelsOf(result.path))} below you.`,
        });
      setNotice(
        result.stoppedAtBound
          ? {
              status: 'warning',
              text: `No member named ${name} near the top of your team. This server offers no search, so it looks at ${FALLBACK_WALK_BOUND} members' downlines at most.`,
            }
          : { status: 'warning', text: `No member named ${name} in your downline.` },
      );
    });
  };

  const openCrumb = useCallback((at: CrumbAt) => open(upTo(path, at), null, null), [open, path]);

  // One level up; past the breadcrumbs' gap the server answers the path again (names there are not kept).
  const up = () =>
    run('up', async () => {
      let current = path;
      if (!parentCrumb(current) && current.skipped > 0 && finder.withPaths) {
        const result = await finder.pathTo(lastOf(current));
        if (result.found) current = result.path;
      }
      const at = parentCrumb(current);
      if (at) open(upTo(current, at), null, null);
    });

  const onOpen = useCallback(
    (member: GraphMember, via: GraphMember[]) =>
      open(
        via.reduce((next, step) => extend(next, step.username), path),
        member.side,
        null,
        member.active,
      ),
    [open, path],
  );
  const onActivate = useCallback(
    (username: string | null, rect: DOMRect | null) =>
      setHovered(username && rect ? { username, rect } : null),
    [],
  );

  return (
    <Stack gap="3">
      <Flex gap="2" wrap="wrap" align="center">
        <Button
          size="sm"
          variant="outline"
          loading={busy === '0'}
          disabled={busy !== null}
          onClick={() => void jump('0')}
        >
          <LuArrowDownLeft aria-hidden="true" /> Bottom of left leg
        </Button>
        <Button
          size="sm"
          variant="outline"
          loading={busy === '1'}
          disabled={busy !== null}
          onClick={() => void jump('1')}
        >
          <LuArrowDownRight aria-hidden="true" /> Bottom of right leg
        </Button>
        <Box
          as="form"
          role="search"
          aria-label="Find a member"
          display="flex"
          gap="2"
          flex="1"
          minW="240px"
          onSubmit={search}
        >
          <Input
            size="sm"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="Username in your team"
            aria-label="Find a member by username"
            maxLength={64}
          />
          <Button size="sm" type="submit" loading={busy === 'search'} disabled={busy !== null}>
            <LuSearch aria-hidden="true" /> Find
          </Button>
        </Box>
      </Flex>
      {!finder.withPaths && (
        <Text fontSize="xs" color="fg.muted" data-testid="tree-walk-note">
          This server offers no search: jumps and searches walk the tree here, {FALLBACK_WALK_BOUND} calls at
          most.
        </Text>
      )}
      {notice && (
        <Alert.Root
          status={notice.status}
          role={notice.status === 'error' ? 'alert' : 'status'}
          size="sm"
          data-testid="tree-notice"
        >
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">{notice.text}</Alert.Title>
        </Alert.Root>
      )}
      <Flex gap="2" align="flex-start" justify="space-between" wrap="wrap">
        <PathBreadcrumbs path={path} onOpen={openCrumb} />
        {rootName !== me && (
          <Button
            size="xs"
            variant="ghost"
            onClick={() => void up()}
            loading={busy === 'up'}
            disabled={busy !== null}
          >
            <LuArrowUp aria-hidden="true" /> Up one level
          </Button>
        )}
      </Flex>
      <Text fontSize="sm" color="fg.muted">
        Click a member (or press Enter) to open the tree at it; arrow keys move between members, Up from the
        top goes one level up. Hover or focus a member for details.
      </Text>
      <BinaryTreeGraph
        label="Binary tree graph"
        root={root}
        loadChildren={finder.childrenOf}
        palette={palette}
        onOpen={onOpen}
        onUp={() => void up()}
        onActivate={onActivate}
      />
      {hovered && <FloatingDetails username={hovered.username} rect={hovered.rect} />}
    </Stack>
  );
}
