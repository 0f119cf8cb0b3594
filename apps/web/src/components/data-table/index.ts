export { DataTable, type DataTableProps, type ListQueryState, type ListResult } from './data-table';
export { DataTableColumnHeader } from './data-table-column-header';
export { DataTableExportButton } from './data-table-export-button';
export { DataTableFacetedFilter, type Option } from './data-table-faceted-filter';
export { DataTablePagination } from './data-table-pagination';
export { DataTableRowActions, type RowAction } from './data-table-row-actions';
export { DataTableDateFilter, DataTableSearch, DataTableToolbar } from './data-table-toolbar';
export { DateTime, StatusBadge, Tokens } from './cells';
export {
  dateFilter,
  defineTableSearch,
  DEFAULT_PAGE_SIZE,
  idFilter,
  manyOf,
  oneOf,
  parseTableSearch,
  textFilter,
  toListQuery,
  useLocalPaging,
  useTableSearch,
  writeTableSearch,
  type FilterDef,
  type FilterDefs,
  type FilterValues,
  type PageSize,
  type PagingController,
  type TableSearch,
  type TableSearchConfig,
} from './table-search';
