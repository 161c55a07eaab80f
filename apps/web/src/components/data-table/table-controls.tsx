/**
 * Search, date range, column chooser, preset filters and Export. Desktop: one row above the table.
 * Below 768 px: a 'Filter' button opens a 'Filters' panel holding the same controls (spec §2);
 * Export stays beside it, one tap away.
 */
import { useState } from 'react';
import { Box, Button, Field, Flex, HStack, Heading, Input, InputGroup, Stack } from '@chakra-ui/react';
import { LuColumns3, LuDownload, LuFilter, LuSearch, LuX } from 'react-icons/lu';
import { TEXT_MAX } from '@md/shared';
import { useT } from '@/lib/i18n/i18n.tsx';
import { CheckboxMenu, type CheckboxMenuItem } from './checkbox-menu.tsx';
import type { PresetFilter } from './types.ts';
import type { TableAction, TableViewState } from './use-table-state.ts';

interface TableControlsProps {
  state: TableViewState;
  dispatch: (action: TableAction) => void;
  columns: readonly CheckboxMenuItem[];
  onToggleColumn: (key: string, visible: boolean) => void;
  presetFilters: readonly PresetFilter[];
  searchPlaceholder: string;
  mobile: boolean;
  /** Opens the export dialog (all pages of the rows matching these controls, as CSV). */
  onExport: () => void;
}

function ExportButton({ onExport }: { onExport: () => void }) {
  const t = useT();
  return (
    <Button size="sm" variant="outline" onClick={onExport} aria-haspopup="dialog">
      <LuDownload />
      {t('tables.export')}
    </Button>
  );
}

export function TableControls({ mobile, onExport, ...props }: TableControlsProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (!mobile) {
    return (
      <Flex gap="3" wrap="wrap" align="end">
        <ControlFields {...props} />
        <ExportButton onExport={onExport} />
      </Flex>
    );
  }
  return (
    <Stack gap="3">
      <HStack gap="2">
        <Button
          size="sm"
          variant="outline"
          aria-expanded={open}
          aria-controls="table-filters-panel"
          onClick={() => setOpen((v) => !v)}
        >
          <LuFilter />
          {t('tables.filter')}
        </Button>
        <ExportButton onExport={onExport} />
      </HStack>
      {open && (
        <Box
          id="table-filters-panel"
          role="region"
          aria-label={t('tables.filters')}
          borderWidth="1px"
          borderRadius="md"
          p="4"
          bg="bg.subtle"
        >
          <Heading as="h2" size="sm" mb="3">
            {t('tables.filters')}
          </Heading>
          <Stack gap="3">
            <ControlFields {...props} />
          </Stack>
        </Box>
      )}
    </Stack>
  );
}

function ControlFields({
  state,
  dispatch,
  columns,
  onToggleColumn,
  presetFilters,
  searchPlaceholder,
}: Omit<TableControlsProps, 'mobile' | 'onExport'>) {
  const t = useT();
  return (
    <>
      <InputGroup startElement={<LuSearch />} flex="1" minW={{ base: 'full', md: '56' }}>
        <Input
          size="sm"
          type="search"
          aria-label={t('tables.search')}
          placeholder={searchPlaceholder}
          // The server refuses longer search text (TEXT_MAX); the box stops there instead.
          maxLength={TEXT_MAX.search}
          value={state.search}
          onChange={(event) => dispatch({ type: 'search', value: event.target.value })}
        />
      </InputGroup>
      <DateField
        label={t('tables.startDate')}
        value={state.startDate}
        max={state.endDate}
        onChange={(value) => dispatch({ type: 'startDate', value })}
      />
      <DateField
        label={t('tables.endDate')}
        value={state.endDate}
        min={state.startDate}
        onChange={(value) => dispatch({ type: 'endDate', value })}
      />
      <Flex gap="2" wrap="wrap">
        <CheckboxMenu
          label={
            <>
              <LuColumns3 />
              {t('tables.columns')}
            </>
          }
          items={columns}
          onToggle={onToggleColumn}
        />
        {presetFilters.map((filter) => {
          const picked = state.filters[filter.column] ?? [];
          return (
            <CheckboxMenu
              key={filter.column}
              label={
                picked.length > 0
                  ? t('tables.filterPicked', { label: filter.label, count: picked.length })
                  : filter.label
              }
              ariaLabel={t('tables.filterBy', { label: filter.label })}
              items={filter.options.map((option) => ({
                value: option,
                label: filter.optionLabel?.(option) ?? option,
                checked: picked.includes(option),
              }))}
              onToggle={(option, checked) =>
                dispatch({
                  type: 'filter',
                  column: filter.column,
                  values: checked ? [...picked, option] : picked.filter((value) => value !== option),
                })
              }
            />
          );
        })}
        <Button size="sm" variant="ghost" onClick={() => dispatch({ type: 'clear' })}>
          <LuX />
          {t('tables.clearFilters')}
        </Button>
      </Flex>
    </>
  );
}

function DateField({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field.Root w={{ base: 'full', md: 'auto' }}>
      <Field.Label fontSize="xs" color="fg.muted">
        {label}
      </Field.Label>
      {/* type=date gives YYYY-MM-DD, the format start_date and end_date are sent in. */}
      <Input
        size="sm"
        type="date"
        value={value}
        min={min || undefined}
        max={max || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field.Root>
  );
}
