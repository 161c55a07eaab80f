/** Volume (/dashboard/volume, spec §2): the legs' volumes over time, Binary Volume and Rank Volume, one column set for both. */
import { useMemo } from 'react';
import { Stack, Tabs } from '@chakra-ui/react';
import type { OutputOf } from '@md/shared';
import { sideText, type Translate } from '@/components/binary-tree-graph/side-text.ts';
import { DataTable, type DataColumn } from '@/components/data-table/index.ts';
import { ShareYourLink, useStartingPoint } from '@/components/next-step.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { StatusBadge } from '@/components/tables/status-badge.tsx';
import { useT } from '@/lib/i18n/i18n.tsx';
import { LegVolumeChart } from './leg-volume-chart.tsx';

// Both procedures answer the same row shape.
type VolumeRow = OutputOf<'binary.view_binary_transaction'>['Success'][number];

/** The columns in the member's language; the side is data ('0' Left, else Right), only its name translated. */
export const volumeColumns = (t: Translate): readonly DataColumn<VolumeRow>[] => [
  { key: 'DateTime', header: t('network.volume.col.date'), format: 'date', summary: true },
  { key: 'TransID', header: t('network.volume.col.transId') },
  { key: 'From_User', header: t('network.volume.col.fromUser') },
  { key: 'Transaction_ID', header: t('network.volume.col.transactionId') },
  { key: 'Side', header: t('network.volume.col.side'), value: (row) => sideText(t, row.Side), summary: true },
  { key: 'Volume', header: t('network.volume.col.volume'), format: 'money', summary: true },
  { key: 'Left_Volume', header: t('network.volume.col.leftVolume'), format: 'money' },
  { key: 'Left_Carry', header: t('network.volume.col.leftCarry'), format: 'money' },
  { key: 'Left_Total', header: t('network.volume.col.leftTotal'), format: 'money', summary: true },
  { key: 'Right_Volume', header: t('network.volume.col.rightVolume'), format: 'money' },
  { key: 'Right_Carry', header: t('network.volume.col.rightCarry'), format: 'money' },
  { key: 'Right_Total', header: t('network.volume.col.rightTotal'), format: 'money', summary: true },
  // Binary: Matched (green) or Carried (blue), the day's run matched the legs or carried the volume; rank: Credited (green).
  {
    key: 'Status',
    header: t('network.volume.col.status'),
    render: (row) => <StatusBadge status={row.Status} />,
    summary: true,
  },
];

export default function VolumePage() {
  const item = navItemByPath('/dashboard/volume')!;
  const t = useT();
  const columns = useMemo(() => volumeColumns(t), [t]);
  // Volume comes from the downline: a member without a team and without volume on the legs is shown how to start one.
  const { hasTeam, hasLegVolume } = useStartingPoint();
  return (
    <Stack gap="2">
      <PageHeader route={item} />
      {hasTeam === false && hasLegVolume === false && <ShareYourLink text={t('network.volume.noTeam')} />}
      <LegVolumeChart />
      <Tabs.Root mt="4" defaultValue="binary" variant="line" colorPalette="teal" lazyMount unmountOnExit>
        <Tabs.List flexWrap="wrap" mb="4">
          <Tabs.Trigger value="binary">{t('network.volume.binaryTab')}</Tabs.Trigger>
          <Tabs.Trigger value="rank">{t('network.volume.rankTab')}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="binary">
          <DataTable
            list="binary.view_binary_transaction"
            total="binary.total_pagination_binary_transaction"
            columns={columns}
            caption={t('network.volume.binaryCaption')}
          />
        </Tabs.Content>
        <Tabs.Content value="rank">
          <DataTable
            list="rank.view_rank_qualification"
            total="rank.total_pagination_rank_qualification"
            columns={columns}
            caption={t('network.volume.rankCaption')}
          />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}
