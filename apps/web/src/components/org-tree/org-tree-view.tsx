/**
 * Organisation tree view (spec §2): orgData with a ceo and departments, shown as the app's one
 * tree (VirtualTree): the ceo at the root, departments below, each department's head and members
 * below it. Which nodes are expanded is the tree's own state; the node last hovered or focused
 * shows its details beside it. Without a ceo: 'No organizational data available'. The spec shows
 * no more of it and places it on no route.
 */
import { useCallback, useMemo, useState } from 'react';
import { Badge, Box, Card, Heading, Stack, Text } from '@chakra-ui/react';
import { MSG } from '@md/shared';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { VirtualTree, type FlatRow, type TreeNode } from '../tree/virtual-tree.tsx';

export interface OrgPerson {
  name: string;
  title?: string | undefined;
  email?: string | undefined;
}
export interface OrgDepartment {
  name: string;
  head?: OrgPerson | null | undefined;
  members?: readonly OrgPerson[] | null | undefined;
}
export interface OrgData {
  ceo?: OrgPerson | null | undefined;
  departments?: readonly OrgDepartment[] | null | undefined;
}

type OrgNodeData =
  | { kind: 'ceo'; person: OrgPerson; departments: number }
  | { kind: 'department'; department: OrgDepartment; index: number }
  | { kind: 'person'; person: OrgPerson; department: string; head: boolean };

const peopleOf = (department: OrgDepartment) => [
  ...(department.head ? [{ person: department.head, head: true }] : []),
  ...(department.members ?? []).map((person) => ({ person, head: false })),
];

const nameOf = (node: TreeNode<OrgNodeData>) =>
  node.data.kind === 'department' ? node.data.department.name : node.data.person.name;

function departmentNode(department: OrgDepartment, index: number): TreeNode<OrgNodeData> {
  return {
    id: `department-${index}`,
    data: { kind: 'department', department, index },
    expandable: peopleOf(department).length > 0,
  };
}

function NodeContent({ row }: { row: FlatRow<OrgNodeData> }) {
  const t = useT();
  const { data } = row.node;
  const subtitle =
    data.kind === 'department'
      ? t('network.org.people', { count: peopleOf(data.department).length })
      : data.person.title;
  return (
    <Box minW="0">
      <Text fontWeight="semibold" truncate>
        {nameOf(row.node)}
      </Text>
      {subtitle && (
        <Text fontSize="xs" color="fg.muted" truncate>
          {subtitle}
        </Text>
      )}
    </Box>
  );
}

function NodeDetails({ node }: { node: TreeNode<OrgNodeData> | null }) {
  const t = useT();
  const f = useFormat();
  if (!node) return <Text color="fg.muted">{t('network.org.hint')}</Text>;
  const { data } = node;
  const facts: [string, string][] =
    data.kind === 'department'
      ? [
          [t('network.org.head'), data.department.head?.name ?? '-'],
          [t('network.org.members'), f.number((data.department.members ?? []).length)],
        ]
      : [
          [t('network.org.title'), data.person.title ?? '-'],
          [t('network.org.email'), data.person.email ?? '-'],
          data.kind === 'ceo'
            ? [t('network.org.departments'), f.number(data.departments)]
            : [t('network.org.department'), data.department],
        ];
  return (
    <Stack gap="2">
      <Heading as="h3" size="sm">
        {nameOf(node)}{' '}
        <Badge colorPalette="teal" ms="1">
          {t(
            data.kind === 'ceo'
              ? 'network.org.ceo'
              : data.kind === 'department'
                ? 'network.org.department'
                : data.head
                  ? 'network.org.head'
                  : 'network.org.member',
          )}
        </Badge>
      </Heading>
      <Box as="dl" display="grid" gridTemplateColumns="auto 1fr" columnGap="3" rowGap="1" fontSize="sm">
        {facts.map(([label, value]) => (
          <Box key={label} display="contents">
            <Text as="dt" color="fg.muted">
              {label}
            </Text>
            <Text as="dd" m="0" overflowWrap="anywhere">
              {value}
            </Text>
          </Box>
        ))}
      </Box>
    </Stack>
  );
}

export function OrgTreeView({
  orgData,
  label: labelProp,
}: {
  orgData: OrgData | null | undefined;
  label?: string;
}) {
  const t = useT();
  const messageText = useMessageText();
  const label = labelProp ?? t('network.org.label');
  const ceo = orgData?.ceo;
  const departments = orgData?.departments;
  const root = useMemo<TreeNode<OrgNodeData> | null>(
    () =>
      ceo
        ? {
            id: 'ceo',
            data: { kind: 'ceo', person: ceo, departments: departments?.length ?? 0 },
            expandable: Boolean(departments?.length),
          }
        : null,
    [ceo, departments],
  );
  const rootChildren = useMemo(() => (departments ?? []).map(departmentNode), [departments]);
  // The data is all here: "loading" a department answers its people at once.
  const loadChildren = useCallback(async (node: TreeNode<OrgNodeData>): Promise<TreeNode<OrgNodeData>[]> => {
    if (node.data.kind !== 'department') return [];
    const { department, index } = node.data;
    return peopleOf(department).map(({ person, head }, i) => ({
      id: `department-${index}-person-${i}`,
      data: { kind: 'person', person, department: department.name, head },
      expandable: false,
    }));
  }, []);
  const [selected, setSelected] = useState<TreeNode<OrgNodeData> | null>(null);

  if (!root) return <Text color="fg.muted">{messageText(MSG.noOrgData)}</Text>;
  return (
    <Stack direction={{ base: 'column', lg: 'row' }} gap="4" align="stretch">
      <Box flex="1" minW="0">
        <VirtualTree
          label={label}
          root={root}
          rootChildren={rootChildren}
          loadChildren={loadChildren}
          nameOf={nameOf}
          paletteOf={(row) =>
            row.node.data.kind === 'ceo' ? 'teal' : row.node.data.kind === 'department' ? 'purple' : 'gray'
          }
          rowData={(row) => ({ 'data-kind': row.node.data.kind })}
          renderContent={(row) => <NodeContent row={row} />}
          // Keep the last node's details while the pointer crosses gaps between rows.
          onActivate={(row) => row && setSelected(row.node)}
        />
      </Box>
      <Card.Root
        variant="outline"
        w={{ base: 'full', lg: '72' }}
        flexShrink={0}
        aria-label={t('network.org.nodeDetails')}
        data-testid="org-node-details"
      >
        <Card.Body>
          <NodeDetails node={selected} />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
