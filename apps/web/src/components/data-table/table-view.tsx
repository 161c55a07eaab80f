/** Desktop: a real <table> whose headers sort the current page (asc → desc → none, spec §4). */
import { Box, Table, chakra } from '@chakra-ui/react';
import { flexRender, type Table as TanTable } from '@tanstack/react-table';
import { LuArrowDown, LuArrowUp, LuArrowUpDown } from 'react-icons/lu';
import type { ReactNode } from 'react';

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

export function TableView<Row>({
  table,
  caption,
  empty,
}: {
  table: TanTable<Row>;
  caption: string;
  empty: ReactNode;
}) {
  const rows = table.getRowModel().rows;
  const columnCount = Math.max(1, table.getVisibleLeafColumns().length);
  return (
    <Table.ScrollArea borderWidth="1px" borderRadius="md">
      <Table.Root size="sm" striped data-testid="data-table">
        <Table.Caption srOnly>{caption}</Table.Caption>
        <Table.Header>
          {table.getHeaderGroups().map((group) => (
            <Table.Row key={group.id} bg="bg.muted">
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <Table.ColumnHeader
                    key={header.id}
                    scope="col"
                    aria-sort={sorted ? ARIA_SORT[sorted] : 'none'}
                    p="0"
                    verticalAlign="bottom"
                  >
                    <chakra.button
                      type="button"
                      display="inline-flex"
                      alignItems="center"
                      gap="1"
                      w="full"
                      px="2"
                      py="2"
                      fontWeight="semibold"
                      textAlign="start"
                      whiteSpace="normal"
                      cursor="pointer"
                      _hover={{ color: 'fg' }}
                      _focusVisible={{
                        outline: '2px solid',
                        outlineColor: 'colorPalette.focusRing',
                        outlineOffset: '-2px',
                      }}
                      onClick={header.column.getToggleSortingHandler()}
                    >
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      <Box as="span" aria-hidden color={sorted ? 'fg' : 'fg.subtle'}>
                        {sorted === 'asc' ? (
                          <LuArrowUp />
                        ) : sorted === 'desc' ? (
                          <LuArrowDown />
                        ) : (
                          <LuArrowUpDown />
                        )}
                      </Box>
                    </chakra.button>
                  </Table.ColumnHeader>
                );
              })}
            </Table.Row>
          ))}
        </Table.Header>
        <Table.Body>
          {rows.length === 0 ? (
            <Table.Row>
              <Table.Cell colSpan={columnCount} textAlign="center" py="8" color="fg.muted">
                {empty}
              </Table.Cell>
            </Table.Row>
          ) : (
            rows.map((row) => (
              <Table.Row key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <Table.Cell
                    key={cell.id}
                    whiteSpace={cell.column.columnDef.meta?.nowrap ? 'nowrap' : 'normal'}
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </Table.Cell>
                ))}
              </Table.Row>
            ))
          )}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
