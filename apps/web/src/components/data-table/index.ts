export { DataTable, type DataTableProps, type ListResult } from './data-table';
export { DataTableColumnHeader } from './data-table-column-header';
export { DataTableExportButton } from './data-table-export-button';
export { DataTableFacetedFilter, type Option } from './data-table-faceted-filter';
export { DataTableRowActions, type RowAction } from './data-table-row-actions';
export { DataTableStatusFilter } from './data-table-status-filter';
export { DataTableDateRangeFilter, DataTableSearch, DataTableToolbar } from './data-table-toolbar';
export { DateTime, StatusBadge, Tokens } from './cells';
export {
  dateFilter,
  defineTableSearch,
  idFilter,
  manyOf,
  oneOf,
  textFilter,
  useLocalPaging,
  useTableSearch,
  type FilterDef,
  type FilterDefs,
  type FilterValues,
  type PageSize,
  type TableSearch,
  type TableSearchOf,
} from './table-search';
