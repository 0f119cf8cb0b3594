import { z } from 'zod';

/** The directions a sorted list accepts (`order`); without `sort`, `order` is ignored. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * The `sort` and `order` query fields of a list (issue 19): `sort` is one of the list's own
 * allow-listed columns, anything else is 400 QUERY_PARAM_INVALID (`v.sort_invalid`); `order`
 * defaults to ascending. Without `sort` the list keeps its default order. Ties always fall back
 * to the row id in the same direction, so every sorted order is total and pages never overlap.
 */
export const sortQueryShape = <const C extends string>(columns: readonly [C, ...C[]]) => ({
  sort: z.enum(columns, 'v.sort_invalid').optional(),
  order: z.enum(SORT_ORDERS, 'v.sort_invalid').optional(),
});

export const EMPLOYEE_SORTS = [
  'employee_id',
  'name',
  'email',
  'status',
  'available_tokens',
  'token_month',
  'created_at',
] as const;
export type EmployeeSort = (typeof EMPLOYEE_SORTS)[number];

export const COMPANY_SORTS = [
  'code',
  'name',
  'status',
  'monthly_reset_day',
  'init_token',
  'token_balance',
  'created_at',
] as const;
export type CompanySort = (typeof COMPANY_SORTS)[number];

export const MERCHANT_SORTS = ['code', 'name', 'status', 'created_at'] as const;
export type MerchantSort = (typeof MERCHANT_SORTS)[number];

export const USER_SORTS = ['username', 'email', 'type', 'status', 'created_at'] as const;
export type UserSort = (typeof USER_SORTS)[number];

/**
 * The order history sorts on the order's own columns; with a sort, its keyset cursor carries the
 * sort, so a cursor made for one sort is refused under another.
 */
export const ORDER_SORTS = ['ordered_at', 'order_no', 'subtotal', 'refunded_amount'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

/** The audit log's sorts (by default newest first); `actor_username` sorts by who acted. */
export const AUDIT_SORTS = ['occurred_at', 'action', 'entity_type', 'actor_username'] as const;
export type AuditSort = (typeof AUDIT_SORTS)[number];
