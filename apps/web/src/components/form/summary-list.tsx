/** Label/value rows summing up what a dialog confirms (package and amount, fee and final amount…). */
import { DataList } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function SummaryList({ rows }: { rows: readonly (readonly [string, ReactNode])[] }) {
  return (
    <DataList.Root orientation="horizontal" gap="2">
      {rows.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel minW="8rem">{label}</DataList.ItemLabel>
          <DataList.ItemValue fontWeight="semibold" justifyContent="flex-end">
            {value}
          </DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}
