/**
 * The Tree view of the Binary Chart: the graph opened at a member a few levels at a
 * time, the path to it from the member as breadcrumbs, a jump to the bottom of either leg (where
 * the member's next registration on that side is placed) and a search by name.
 */
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Flex, Input, Stack, Text } from '@chakra-ui/react';
import { LuArrowDownLeft, LuArrowDownRight, LuArrowUp, LuSearch } from 'react-icons/lu';
import { BinaryTreeGraph, type GraphMember } from '@/components/binary-tree-graph/binary-tree-graph.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
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

/** A side as the catalog's select reads it (the leg is data; only its name is translated). */
const legOf = (side: Side) => (side === '0' ? 'left' : 'right');

export function BinaryGraphView({
  me,
  meActive,
  palette,
}: {
  me: string;
  meActive?: boolean;
  palette: Record<'0' | '1' | 'root', string>;
}) {
  const t = useT();
  const messageText = useMessageText();
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
      setNotice({
        status: 'error',
        text: messageText(errorMessage(error, t('network.graph.loadFailed'))),
      });
    } finally {
      setBusy(null);
    }
  };

  const jump = (side: Side) =>
    run(side, async () => {
      const result = await finder.legBottom(side);
      if (!result.found) return setNotice({ status: 'error', text: t('network.graph.legBottomNotFound') });
      const levels = levelsOf(result.path);
      const leg = legOf(side);
      const bottom = lastOf(result.path);
      open(
        result.path,
        levels > 0 ? side : null,
        result.stoppedAtBound
          ? {
              status: 'warning',
              text: t('network.graph.legStopped', { side: leg, levels, bottom, bound: FALLBACK_WALK_BOUND }),
            }
          : levels === 0
            ? {
                status: 'info',
                text: t('network.graph.legEmpty', { side: leg }),
              }
            : {
                status: 'info',
                text: t('network.graph.legBottom', { side: leg, bottom, levels }),
              },
      );
    });

  const search = (event: FormEvent) => {
    event.preventDefault();
    const name = query.trim();
    if (!name) return setNotice({ status: 'error', text: t('network.graph.searchEmpty') });
    void run('search', async () => {
      const result = await finder.pathTo(name);
      if (result.found)
        return open(result.path, null, {
          status: 'info',
          text: t('network.graph.found', { name: lastOf(result.path), levels: levelsOf(result.path) }),
        });
      setNotice(
        result.stoppedAtBound
          ? {
              status: 'warning',
              text: t('network.graph.notFoundStopped', { name, bound: FALLBACK_WALK_BOUND }),
            }
          : { status: 'warning', text: t('network.graph.notFound', { name }) },
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
          {/* The left leg is drawn on the left in every language: the arrow is not mirrored. */}
          <LuArrowDownLeft aria-hidden="true" /> {t('network.graph.bottomOfLeft')}
        </Button>
        <Button
          size="sm"
          variant="outline"
          loading={busy === '1'}
          disabled={busy !== null}
          onClick={() => void jump('1')}
        >
          <LuArrowDownRight aria-hidden="true" /> {t('network.graph.bottomOfRight')}
        </Button>
        <Box
          as="form"
          role="search"
          aria-label={t('network.graph.findMember')}
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
            placeholder={t('network.graph.searchPlaceholder')}
            aria-label={t('network.graph.searchLabel')}
            maxLength={64}
          />
          <Button size="sm" type="submit" loading={busy === 'search'} disabled={busy !== null}>
            <LuSearch aria-hidden="true" /> {t('network.graph.find')}
          </Button>
        </Box>
      </Flex>
      {!finder.withPaths && (
        <Text fontSize="xs" color="fg.muted" data-testid="tree-walk-note">
          {t('network.graph.walkNote', { bound: FALLBACK_WALK_BOUND })}
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
            <LuArrowUp aria-hidden="true" /> {t('network.graph.upOneLevel')}
          </Button>
        )}
      </Flex>
      <Text fontSize="sm" color="fg.muted">
        {t('network.graph.hint')}
      </Text>
      <BinaryTreeGraph
        label={t('network.graph.label')}
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
