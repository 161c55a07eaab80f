/**
 * The path from the member to the member the graph is opened at, as breadcrumbs: at most
 * BINARY_PATH_ENDS names at each end and the count between (a path can be 26,000 names long).
 * Every name but the last opens the graph at it.
 */
import { Box, Button, Icon, Text } from '@chakra-ui/react';
import { LuChevronRight } from 'react-icons/lu';
import { useT } from '@/lib/i18n/i18n.tsx';
import { levelsOf, type CrumbAt, type TreePath } from './tree-path.ts';

interface Crumb extends CrumbAt {
  name: string;
}

export function PathBreadcrumbs({ path, onOpen }: { path: TreePath; onOpen: (at: CrumbAt) => void }) {
  const crumbs: (Crumb | { gap: number })[] = [
    ...path.head.map((name, index): Crumb => ({ name, part: 'head', index })),
    ...(path.skipped > 0 ? [{ gap: path.skipped }] : []),
    ...path.tail.map((name, index): Crumb => ({ name, part: 'tail', index })),
  ];
  const levels = levelsOf(path);
  const t = useT();
  return (
    <Box as="nav" aria-label={t('network.path.label')} data-testid="tree-path" data-levels={levels}>
      <Box
        as="ol"
        display="flex"
        flexWrap="wrap"
        alignItems="center"
        gap="1"
        listStyleType="none"
        m="0"
        p="0"
      >
        {crumbs.map((crumb, i) => {
          const last = i === crumbs.length - 1;
          return (
            <Box
              as="li"
              key={'gap' in crumb ? 'gap' : `${crumb.part}${crumb.index}`}
              display="flex"
              alignItems="center"
              gap="1"
              minW="0"
            >
              {'gap' in crumb ? (
                <Text fontSize="sm" color="fg.muted" data-testid="path-gap" px="1">
                  {t('network.path.gap', { count: crumb.gap })}
                </Text>
              ) : last ? (
                <Text
                  as="span"
                  fontSize="sm"
                  fontWeight="semibold"
                  aria-current="location"
                  px="1"
                  truncate
                  maxW="40"
                >
                  {crumb.name}
                </Text>
              ) : (
                <Button size="xs" variant="ghost" onClick={() => onOpen(crumb)} maxW="40">
                  <Text truncate>{crumb.name}</Text>
                </Button>
              )}
              {/* Points along the path: toward the reading's end, mirrored in right to left. */}
              {!last && (
                <Icon aria-hidden="true" _rtl={{ transform: 'scaleX(-1)' }}>
                  <LuChevronRight />
                </Icon>
              )}
            </Box>
          );
        })}
      </Box>
      {levels > 0 && (
        <Text fontSize="xs" color="fg.muted">
          {t('network.path.levelsBelow', { levels })}
        </Text>
      )}
    </Box>
  );
}
