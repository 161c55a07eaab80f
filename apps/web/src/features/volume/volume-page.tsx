/** Volume (/dashboard/volume, spec §2): the legs' volumes over time, Binary Volume and Rank Volume, one column set for both. */
import { Stack, Tabs } from '@chakra-ui/react';
import { sideLabel, type OutputOf } from '@md/shared';
import { DataTable, type DataColumn } from '@/components/data-table/index.ts';
import { ShareYourLink, useStartingPoint } from '@/components/next-step.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { StatusBadge } from '@/components/tables/status-badge.tsx';
import { LegVolumeChart } from './leg-volume-chart.tsx';

// Both procedures answer the same row shape.
type VolumeRow = OutputOf<'binary.view_binary_transaction'>['Success'][number];

export const volumeColumns: readonly DataColumn<VolumeRow>[] = [
  { key: 'DateTime', header: 'Date', format: 'date', summary: true },
  { key: 'TransID', header: 'TransID' },
  { key: 'From_User', header: 'From User' },
  { key: 'Transaction_ID', header: 'Transaction ID' },
  { key: 'Side', header: 'Side', value: (row) => sideLabel(row.Side), summary: true },
  { key: 'Volume', header: 'Volume', format: 'money', summary: true },
  { key: 'Left_Volume', header: 'Left Volume', format: 'money' },
  { key: 'Left_Carry', header: 'Left Carry', format: 'money' },
  { key: 'Left_Total', header: 'Left Total', format: 'money', summary: true },
  { key: 'Right_Volume', header: 'Right Volume', format: 'money' },
  { key: 'Right_Carry', header: 'Right Carry', format: 'money' },
  { key: 'Right_Total', header: 'Right Total', format: 'money', summary: true },
  // Binary: Matched (green) or Carried (blue), the day's run matched the legs or carried the volume; rank: Credited (green).
  { key: 'Status', header: 'Status', render: (row) => <StatusBadge status={row.Status} />, summary: true },
];

export default function VolumePage() {
  const item = navItemByPath('/dashboard/volume')!;
  // Volume comes from the downline: a member without a team and without volume on the legs is shown how to start one.
  const { hasTeam, hasLegVolume } = useStartingPoint();
  return (
    <Stack gap="2">
      <PageHeader route={item} />
      {hasTeam === false && hasLegVolume === false && (
        <ShareYourLink text="No team members yet, so no volume on your legs. Share your link: whoever registers with it joins your team." />
      )}
      <LegVolumeChart />
      <Tabs.Root mt="4" defaultValue="binary" variant="line" colorPalette="teal" lazyMount unmountOnExit>
        <Tabs.List flexWrap="wrap" mb="4">
          <Tabs.Trigger value="binary">Binary Volume</Tabs.Trigger>
          <Tabs.Trigger value="rank">Rank Volume</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="binary">
          <DataTable
            list="binary.view_binary_transaction"
            total="binary.total_pagination_binary_transaction"
            columns={volumeColumns}
            caption="Binary volume"
          />
        </Tabs.Content>
        <Tabs.Content value="rank">
          <DataTable
            list="rank.view_rank_qualification"
            total="rank.total_pagination_rank_qualification"
            columns={volumeColumns}
            caption="Rank volume"
          />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}
