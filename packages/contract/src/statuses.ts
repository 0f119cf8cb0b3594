import { z } from 'zod';

export const STATUSES = ['active', 'inactive'] as const;
export const statusSchema = z.enum(STATUSES, 'v.status_required');
export type Status = z.infer<typeof statusSchema>;

export const ORDER_STATUSES = ['ordered', 'refunded'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const statusChangeBodySchema = z.strictObject({ status: statusSchema });
export type StatusChangeBody = z.infer<typeof statusChangeBodySchema>;
