import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { SortingState } from '@tanstack/react-table';
import { calendarDaySchema, PAGE_SIZES } from '@app/contract';
import { cleanEmptyFilters } from '@/lib/filters';

export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = PAGE_SIZES[0];

export const isPageSize = (value: unknown): value is PageSize =>
  (PAGE_SIZES as readonly unknown[]).includes(value);

/**
 * One filter kept in the URL: how to read it back (anything invalid reads as absent) and
 * whether it repeats (`?type=a&type=b`, DESIGN 4).
 */
export interface FilterDef<T> {
  multiple: boolean;
  parse: (values: string[]) => T | undefined;
}

/** Free text (a search box), trimmed; at most `max` characters. */
export const textFilter = (max = 100): FilterDef<string> => ({
  multiple: false,
  parse: ([value]) => {
    const text = value?.trim().slice(0, max);
    return text ? text : undefined;
  },
});

/** One of `options` (e.g. a status). */
export const oneOf = <V extends string>(options: readonly V[]): FilterDef<V> => ({
  multiple: false,
  parse: ([value]) =>
    (options as readonly string[]).includes(value ?? '') ? (value as V) : undefined,
});

/** Any of `options`, repeated in the URL (e.g. user types). */
export const manyOf = <V extends string>(options: readonly V[]): FilterDef<V[]> => ({
  multiple: true,
  parse: (values) => {
    const picked = [...new Set(values)].filter((value): value is V =>
      (options as readonly string[]).includes(value),
    );
    return picked.length > 0 ? picked : undefined;
  },
});

/** A positive id (e.g. company_id). */
export const idFilter = (): FilterDef<number> => ({
  multiple: false,
  parse: ([value]) => (value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : undefined),
});

/** A calendar day, YYYY-MM-DD. */
export const dateFilter = (): FilterDef<string> => ({
  multiple: false,
  parse: ([value]) => (calendarDaySchema.safeParse(value).success ? value : undefined),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each filter has its own type
export type FilterDefs = Record<string, FilterDef<any>>;
export type FilterValues<F extends FilterDefs> = {
  [K in keyof F]?: F[K] extends FilterDef<infer T> ? T : never;
};

/** What a list keeps in the URL: its filters and the columns it can sort by on the server. */
export interface TableSearchConfig<F extends FilterDefs, S extends string = never> {
  filters: F;
  /** The columns the list's API sorts by (its allow-list, from the contract). */
  sortable?: readonly S[];
}

export const defineTableSearch = <F extends FilterDefs, S extends string = never>(
  config: TableSearchConfig<F, S>,
) => config;

export interface TableSearchState<F extends FilterDefs> {
  page: number;
  pageSize: PageSize;
  sorting: SortingState;
  filters: FilterValues<F>;
}

const PAGE = 'page';
const PAGE_SIZE = 'page_size';
const SORT = 'sort';
const ORDER = 'order';

/** Reads a list's state from the URL; anything invalid falls back to the default. */
export function parseTableSearch<F extends FilterDefs, S extends string = never>(
  config: TableSearchConfig<F, S>,
  params: URLSearchParams,
): TableSearchState<F> {
  const pageText = params.get(PAGE) ?? '';
  const page = /^[1-9]\d{0,6}$/.test(pageText) ? Number(pageText) : 1;
  const sizeValue = Number(params.get(PAGE_SIZE));
  const pageSize = isPageSize(sizeValue) ? sizeValue : DEFAULT_PAGE_SIZE;
  const sortId = params.get(SORT);
  const sorting: SortingState =
    sortId && (config.sortable as readonly string[] | undefined)?.includes(sortId)
      ? [{ id: sortId, desc: params.get(ORDER) === 'desc' }]
      : [];
  const filters: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(config.filters)) {
    const raw = params.getAll(key);
    const value = raw.length > 0 ? def.parse(raw) : undefined;
    if (value !== undefined) filters[key] = value;
  }
  return { page, pageSize, sorting, filters: filters as FilterValues<F> };
}

/**
 * Writes a list's state into `params` (other keys kept). Defaults are left out, so the plain
 * path is the first page of 10 unfiltered rows.
 */
export function writeTableSearch<F extends FilterDefs, S extends string = never>(
  config: TableSearchConfig<F, S>,
  params: URLSearchParams,
  state: TableSearchState<F>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of [PAGE, PAGE_SIZE, SORT, ORDER, ...Object.keys(config.filters)])
    next.delete(key);
  if (state.page > 1) next.set(PAGE, String(state.page));
  if (state.pageSize !== DEFAULT_PAGE_SIZE) next.set(PAGE_SIZE, String(state.pageSize));
  const [sort] = state.sorting;
  if (sort) {
    next.set(SORT, sort.id);
    next.set(ORDER, sort.desc ? 'desc' : 'asc');
  }
  for (const key of Object.keys(config.filters)) {
    const value: unknown = state.filters[key];
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item === undefined || item === null || item === '') continue;
      next.append(key, String(item));
    }
  }
  return next;
}

/**
 * The query a list sends: paging, sort and the filters, empty ones dropped (spec 5). The sort is
 * one of the config's `sortable` columns (parseTableSearch keeps no other).
 */
export function toListQuery<F extends FilterDefs, S extends string = never>(
  state: TableSearchState<F>,
) {
  const [sort] = state.sorting;
  return cleanEmptyFilters({
    page: state.page,
    page_size: state.pageSize,
    sort: sort?.id,
    order: sort ? (sort.desc ? 'desc' : 'asc') : undefined,
    ...state.filters,
  }) as { page: number; page_size: PageSize; sort?: S; order?: 'asc' | 'desc' } & {
    [K in keyof F]?: Exclude<FilterValues<F>[K], undefined>;
  };
}

/** Paging and sorting of a table, wherever they are kept (URL or component state). */
export interface PagingController {
  page: number;
  pageSize: PageSize;
  sorting: SortingState;
  setPage: (page: number) => void;
  setPageSize: (pageSize: PageSize) => void;
  setSorting: (sorting: SortingState) => void;
}

/** The state of the list a `defineTableSearch` config describes, its sort columns typed. */
export type TableSearchOf<C> =
  C extends TableSearchConfig<infer F, infer S> ? TableSearch<F, S> : never;

/** A list's state in the URL; `S` is the columns it sorts by (any, for the kit's components). */
export interface TableSearch<
  F extends FilterDefs,
  S extends string = string,
> extends PagingController {
  config: TableSearchConfig<F, string>;
  filters: FilterValues<F>;
  /** Sets one filter (undefined or empty clears it) and goes back to the first page. */
  setFilter: <K extends keyof F>(key: K, value: FilterValues<F>[K] | undefined) => void;
  /** Sets several filters in one history entry (a date range's two ends), back to page 1. */
  setFilters: (values: Partial<FilterValues<F>>) => void;
  resetFilters: () => void;
  isFiltered: boolean;
  /** The query for the list call: paging, sort and filters, empty values dropped. */
  query: ReturnType<typeof toListQuery<F, S>>;
}

/**
 * A list's table state kept in the URL search params, so a reload or a shared link shows the
 * same view. Changing a filter, the sort or the page size goes back to page 1.
 */
export function useTableSearch<F extends FilterDefs, S extends string = never>(
  config: TableSearchConfig<F, S>,
): TableSearch<F, S> {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseTableSearch(config, params), [config, params]);

  const update = useCallback(
    (
      change: (base: TableSearchState<F>) => TableSearchState<F>,
      options: { replace?: boolean } = {},
    ) => {
      setParams(
        (current) => writeTableSearch(config, current, change(parseTableSearch(config, current))),
        { replace: options.replace ?? false },
      );
    },
    [config, setParams],
  );

  return useMemo<TableSearch<F, S>>(
    () => ({
      config,
      ...state,
      setPage: (page) => update((base) => ({ ...base, page })),
      setPageSize: (pageSize) => update((base) => ({ ...base, pageSize, page: 1 })),
      setSorting: (sorting) => update((base) => ({ ...base, sorting, page: 1 })),
      setFilter: (key, value) =>
        update((base) => ({ ...base, filters: { ...base.filters, [key]: value }, page: 1 }), {
          // Typing in a box should not add a history entry per letter.
          replace: typeof value === 'string',
        }),
      setFilters: (values) =>
        update((base) => ({ ...base, filters: { ...base.filters, ...values }, page: 1 })),
      resetFilters: () => update((base) => ({ ...base, filters: {}, page: 1 })),
      isFiltered: Object.keys(state.filters).length > 0,
      query: toListQuery<F, S>(state),
    }),
    [config, state, update],
  );
}

/** Paging and sorting in component state, for a table inside a dialog. */
export function useLocalPaging(initialPageSize: PageSize = DEFAULT_PAGE_SIZE): PagingController {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState<PageSize>(initialPageSize);
  const [sorting, setSortingState] = useState<SortingState>([]);
  return useMemo(
    () => ({
      page,
      pageSize,
      sorting,
      setPage,
      setPageSize: (size: PageSize) => {
        setPageSizeState(size);
        setPage(1);
      },
      setSorting: (next: SortingState) => {
        setSortingState(next);
        setPage(1);
      },
    }),
    [page, pageSize, sorting],
  );
}
