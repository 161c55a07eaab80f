/** Mobile: one card per row, each visible column as a 'label: value' pair (spec §2). */
import type { ReactNode } from 'react';
import { Box, Card, Stack, Text } from '@chakra-ui/react';
import { flexRender, type Table as TanTable } from '@tanstack/react-table';

export function CardView<Row>({ table, caption, empty }: { table: TanTable<Row>; caption: string; empty: ReactNode }) {
  const rows = table.getRowModel().rows;
  if (rows.length === 0) {
    return (
      <Text textAlign="center" py="8" color="fg.muted" borderWidth="1px" borderRadius="md">
        {empty}
      </Text>
    );
  }
  return (
    <Stack as="ul" aria-label={caption} gap="3" listStyleType="none" m="0" p="0">
      {rows.map((row) => (
        <Card.Root as="li" key={row.id} size="sm" variant="outline" data-testid="data-card">
          <Card.Body as="dl" display="grid" gridTemplateColumns="minmax(7rem, auto) 1fr" columnGap="3" rowGap="1.5">
            {row.getVisibleCells().map((cell) => (
              <Box key={cell.id} display="contents">
                <Text as="dt" fontSize="sm" color="fg.muted">
                  {String(cell.column.columnDef.header)}:
                </Text>
                <Box as="dd" fontSize="sm" minW="0" overflowWrap="anywhere" m="0">
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </Box>
              </Box>
            ))}
          </Card.Body>
        </Card.Root>
      ))}
    </Stack>
  );
}
