export { DataTable, type DataTableProps } from './data-table.tsx';
export type {
  ColumnFormat,
  DataColumn,
  PagedListName,
  PagedTotalName,
  PresetFilter,
  RowOf,
} from './types.ts';
