type Cleaned<T> = { [K in keyof T]?: Exclude<T[K], null | undefined> };

/** Drops null, undefined, empty-string and NaN values before list filters are sent (spec 5). */
export function cleanEmptyFilters<T extends Record<string, unknown>>(filters: T): Cleaned<T> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === null || value === undefined || value === '') continue;
    if (typeof value === 'number' && Number.isNaN(value)) continue;
    result[key] = value;
  }
  return result as Cleaned<T>;
}

/** Keeps the digits of a filter input only (spec 5, numeric-only filter). */
export function numericOnly(value: string): string {
  return value.replace(/\D/g, '');
}
