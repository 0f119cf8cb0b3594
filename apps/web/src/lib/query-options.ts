import type {
  keepPreviousData as keepPreviousDataOfQuery,
  queryOptions as queryOptionsOfQuery,
} from '@tanstack/react-query';

/*
 * TanStack Query's `queryOptions` and `keepPreviousData`, for the modules of the dashboard's first
 * load (decision 0060): both return what they are given, and importing them from the library
 * brought the whole query chunk into that first load. Their types are the library's.
 */

export const queryOptions = ((options: unknown) => options) as typeof queryOptionsOfQuery;

export const keepPreviousData = (<T>(previousData: T) =>
  previousData) as typeof keepPreviousDataOfQuery;
