/**
 * Mobile: one card per row (spec §2). The card's face shows the few columns that matter
 * (DataColumn.summary, else the first four visible), two to a line; the rest are a tap away
 * ('Show details'). A 'Sort by' control does on a phone what the desktop's column headers do.
 */
import { useId, useState, type ReactNode } from 'react';
import { Box, Button, Card, Field, HStack, IconButton, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { flexRender, type Cell, type Row as TanRow, type Table as TanTable } from '@tanstack/react-table';
import { LuArrowDown, LuArrowUp, LuChevronDown, LuChevronUp } from 'react-icons/lu';
import { useT } from '@/lib/i18n/i18n.tsx';

/** How many visible columns a card shows on its face when no column is marked `summary`. */
export const CARD_FACE_COLUMNS = 4;
const SERVER_ORDER = '';

export function CardView<Row>({
  table,
  caption,
  empty,
}: {
  table: TanTable<Row>;
  caption: string;
  empty: ReactNode;
}) {
  const rows = table.getRowModel().rows;
  return (
    <Stack gap="3">
      <CardSort table={table} />
      {rows.length === 0 ? (
        <Box textAlign="center" py="8" color="fg.muted" borderWidth="1px" borderRadius="md">
          {empty}
        </Box>
      ) : (
        <Stack as="ul" aria-label={caption} gap="3" listStyleType="none" m="0" p="0">
          {rows.map((row) => (
            <RowCard key={row.id} row={row} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** Sort by a column (ascending or descending) or keep the server's order: the current page only, as on desktop. */
function CardSort<Row>({ table }: { table: TanTable<Row> }) {
  const t = useT();
  const id = useId();
  const sorting = table.getState().sorting[0];
  const columns = table.getVisibleLeafColumns().filter((column) => column.getCanSort());
  const direction = sorting?.desc ? 'descending' : 'ascending';
  return (
    <HStack gap="2" align="end">
      <Field.Root flex="1" minW="0">
        <Field.Label htmlFor={id} fontSize="xs" color="fg.muted">
          {t('tables.sortBy')}
        </Field.Label>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            id={id}
            value={sorting?.id ?? SERVER_ORDER}
            onChange={(event) => {
              const value = event.target.value;
              table.setSorting(value === SERVER_ORDER ? [] : [{ id: value, desc: sorting?.desc ?? false }]);
            }}
          >
            <option value={SERVER_ORDER}>{t('tables.defaultOrder')}</option>
            {columns.map((column) => (
              <option key={column.id} value={column.id}>
                {String(column.columnDef.header)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <IconButton
        size="sm"
        variant="outline"
        disabled={!sorting}
        aria-label={t(direction === 'ascending' ? 'tables.sortDescending' : 'tables.sortAscending')}
        title={
          sorting
            ? t(direction === 'ascending' ? 'tables.sortedAscending' : 'tables.sortedDescending')
            : undefined
        }
        onClick={() => sorting && table.setSorting([{ id: sorting.id, desc: !sorting.desc }])}
      >
        {sorting?.desc ? <LuArrowDown /> : <LuArrowUp />}
      </IconButton>
    </HStack>
  );
}

function RowCard<Row>({ row }: { row: TanRow<Row> }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const cells = row.getVisibleCells();
  const marked = cells.filter((cell) => cell.column.columnDef.meta?.summary);
  const chosen = marked.length > 0 ? marked : cells.slice(0, CARD_FACE_COLUMNS);
  // One field behind a button is not worth the tap: the card then shows everything.
  const face = cells.length - chosen.length <= 1 ? cells : chosen;
  const rest = cells.filter((cell) => !face.includes(cell));
  return (
    <Card.Root as="li" size="sm" variant="outline" data-testid="data-card">
      <Card.Body gap="2">
        <Fields cells={face} />
        {rest.length > 0 && (
          <>
            {open && (
              <Box id={detailsId} borderTopWidth="1px" pt="2">
                <Fields cells={rest} />
              </Box>
            )}
            <Button
              size="xs"
              variant="ghost"
              alignSelf="start"
              px="1"
              aria-expanded={open}
              aria-controls={detailsId}
              onClick={() => setOpen((v) => !v)}
            >
              {open ? <LuChevronUp /> : <LuChevronDown />}
              {open ? t('tables.hideDetails') : t('tables.showDetails', { count: rest.length })}
            </Button>
          </>
        )}
      </Card.Body>
    </Card.Root>
  );
}

/** Label above value, two to a line: a phone's width holds two short figures side by side. */
function Fields<Row>({ cells }: { cells: Cell<Row, unknown>[] }) {
  return (
    <Box
      as="dl"
      display="grid"
      gridTemplateColumns="repeat(2, minmax(0, 1fr))"
      columnGap="3"
      rowGap="2"
      m="0"
    >
      {cells.map((cell) => (
        <Box key={cell.id} minW="0">
          <Text as="dt" fontSize="xs" color="fg.muted">
            {String(cell.column.columnDef.header)}
          </Text>
          <Box as="dd" fontSize="sm" overflowWrap="anywhere" m="0">
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
