import { z } from 'zod';
import { MONTH_PATTERN, type ValidationMessageKey } from './constants';
import { ORDER_SORTS, SORT_ORDERS, type OrderSort, type SortOrder } from './sorting';

/**
 * The one parser of days, months and page cursors (DESIGN 4, issue 14): every route's query and
 * body takes its dates through these, so 2026-02-31, a year outside YEAR_MIN–YEAR_MAX or a forged
 * cursor is refused the same way everywhere (QUERY_PARAM_INVALID in a query, BODY_INVALID in a
 * body), with a message saying what is wrong. Each check stays on the text: no Date is built from
 * a year the database cannot store.
 */
export const YEAR_MIN = 1970;
export const YEAR_MAX = 9999;

export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export { MONTH_PATTERN };

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;
const daysIn = (y: number, m: number) => (m === 2 && isLeap(y) ? 29 : DAYS[m - 1]!);

/** What is wrong with a YYYY-MM-DD day, or null when it is a real day of YEAR_MIN to YEAR_MAX. */
export function dayProblem(text: unknown): ValidationMessageKey | null {
  if (typeof text !== 'string' || !DAY_PATTERN.test(text)) return 'v.date_invalid';
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  if (y < YEAR_MIN || y > YEAR_MAX) return 'v.year_range';
  if (m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return 'v.date_not_in_calendar';
  return null;
}

/** What is wrong with a YYYY-MM month (a token month or a system period), or null. */
export function monthProblem(text: unknown): ValidationMessageKey | null {
  if (typeof text !== 'string' || !MONTH_PATTERN.test(text)) return 'v.month_invalid';
  const y = Number(text.slice(0, 4));
  return y < YEAR_MIN || y > YEAR_MAX ? 'v.year_range' : null;
}

const INSTANT_PATTERN = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z$/;

/** An instant as the server writes it in a cursor: UTC to the microsecond, on a real day. */
export const isCursorInstant = (text: unknown): text is string => {
  const match = typeof text === 'string' ? INSTANT_PATTERN.exec(text) : null;
  return match !== null && dayProblem(match[1]) === null;
};

/** One issue at most per field: the first thing wrong is what the caller is told. */
const checked = (
  base: z.ZodString,
  problem: (text: string) => ValidationMessageKey | null,
): z.ZodType<string, string> =>
  base.superRefine((text, ctx) => {
    const message = problem(text);
    if (message) ctx.addIssue({ code: 'custom', message, input: text });
  });

/** A calendar day, YYYY-MM-DD, that exists, in YEAR_MIN to YEAR_MAX. */
export const daySchema = checked(
  z
    .string({ error: (iss) => (iss.input === undefined ? 'v.required' : 'v.date_invalid') })
    .regex(DAY_PATTERN, 'v.date_invalid'),
  (text) => dayProblem(text),
).meta({ format: 'date', example: '2025-03-14' });

/**
 * A month, YYYY-MM, in YEAR_MIN to YEAR_MAX: a token month (the ledger's `period`, DESIGN 3.2 and
 * 3.5, by which dashboards and reports count rows) or a system period.
 */
export const monthSchema = checked(
  z
    .string({ error: (iss) => (iss.input === undefined ? 'v.required' : 'v.month_invalid') })
    .regex(MONTH_PATTERN, 'v.month_invalid'),
  (text) => monthProblem(text),
).meta({ example: '2025-03' });

/** `date_to` not before `date_from`, reported on `date_to`; for a query or body with both. */
export const datesInOrder: [
  (q: { date_from?: string | undefined; date_to?: string | undefined }) => boolean,
  { path: string[]; message: ValidationMessageKey },
] = [
  (q) => !q.date_from || !q.date_to || q.date_from <= q.date_to,
  { path: ['date_to'], message: 'v.date_order' },
];

// Base64url without padding, on the platform's atob/btoa (browser and Node alike): cursors hold
// ASCII JSON only, so the Latin-1 range of these functions is enough.
const platform = globalThis as unknown as {
  atob(text: string): string;
  btoa(text: string): string;
};
const toBase64Url = (text: string) =>
  platform.btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1) return null;
  try {
    return platform.atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
}

export const CURSOR_MAX_LENGTH = 200;
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]*$/;

export interface OpaqueCursor<T> {
  encode(position: T): string;
  /** The position, or null for anything the server did not write (forged, truncated, altered). */
  decode(text: string): T | null;
  /** The query field: a string that decodes, else `v.cursor_invalid`. */
  schema: z.ZodType<string, string>;
}

/**
 * A page position handed to clients as base64url of a JSON array, read back only when it has
 * exactly the shape `position` describes; anything else is `v.cursor_invalid`.
 */
export function opaqueCursor<T extends unknown[]>(
  position: z.ZodType<T>,
  /** A position to show in the document: its cursor is the field's example. */
  example: T,
): OpaqueCursor<T> {
  const decode = (text: string): T | null => {
    const json = text.length <= CURSOR_MAX_LENGTH ? fromBase64Url(text) : null;
    if (json === null) return null;
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return null;
    }
    const parsed = position.safeParse(value);
    return parsed.success ? parsed.data : null;
  };
  const encode = (value: T) => toBase64Url(JSON.stringify(value));
  return {
    encode,
    decode,
    schema: checked(
      z.string({ error: 'v.cursor_invalid' }).regex(CURSOR_PATTERN, 'v.cursor_invalid'),
      (text) => (decode(text) === null ? 'v.cursor_invalid' : null),
    ).meta({
      description: 'Opaque: the `next_cursor` of the previous page, as it came',
      example: encode(example),
    }),
  };
}

const positiveId = z.number().int().min(1);

/** GET /tokens/transactions: `[seq]`, the ledger position of the last row shown. */
export const transactionCursor = opaqueCursor<[number]>(z.tuple([positiveId]), [1042]);

/** GET /webhooks/{id}/deliveries: `[id]`, the last delivery shown (decision 0038). */
export const webhookDeliveryCursor = opaqueCursor<[number]>(z.tuple([positiveId]), [88]);

/** GET /orders/admin: `[ordered_at to the microsecond, id]`, the last order shown. */
export const orderCursor = opaqueCursor<[string, number]>(
  z.tuple([z.string().refine(isCursorInstant), positiveId]),
  ['2025-03-14T04:12:09.123456Z', 1042],
);

/**
 * GET /orders/admin with `sort`: `[sort, order, value of the sorted column, id]` of the last
 * order shown. It names its sort, so a cursor is read back only under the sort it was made for.
 */
export const orderSortedCursor = opaqueCursor<[OrderSort, SortOrder, string | number, number]>(
  z.tuple([
    z.enum(ORDER_SORTS),
    z.enum(SORT_ORDERS),
    z.union([z.string().max(64), z.number().int()]),
    positiveId,
  ]),
  ['subtotal', 'desc', 65, 1042],
);

/** The `cursor` of GET /orders/admin: either the default order's or a sorted one's. */
export const orderHistoryCursorSchema = checked(
  z.string({ error: 'v.cursor_invalid' }).regex(CURSOR_PATTERN, 'v.cursor_invalid'),
  (text) =>
    orderCursor.decode(text) === null && orderSortedCursor.decode(text) === null
      ? 'v.cursor_invalid'
      : null,
).meta({
  description:
    'Opaque: the `next_cursor` of the previous page, as it came; valid only under the `sort` and `order` it was made for',
  example: orderSortedCursor.encode(['ordered_at', 'asc', '2025-03-14T04:12:09.123456Z', 1042]),
});
