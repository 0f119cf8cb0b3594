/** One field of a change: its value before and after (undefined: the side has no such field). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields a change touched, in the record's own order (before's fields, then those only
 * after has): every field of a creation or a deletion, only the differing ones of an update.
 */
export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): { changed: FieldChange[]; unchanged: number } {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changed: FieldChange[] = [];
  let unchanged = 0;
  for (const field of keys) {
    const was = before?.[field];
    const is = after?.[field];
    if (before && after && same(was, is)) unchanged += 1;
    else changed.push({ field, before: was, after: is });
  }
  return { changed, unchanged };
}

/** A value as one readable line: text as it is, numbers and flags as typed, records as JSON. */
export function formatValue(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
