import { z } from 'zod';
import { ORDER_STATUSES, STATUSES } from './constants';

export { ORDER_STATUSES, STATUSES } from './constants';

export const statusSchema = z.enum(STATUSES, 'v.status_required');
export type Status = z.infer<typeof statusSchema>;

export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const statusChangeBodySchema = z.strictObject({ status: statusSchema });
export type StatusChangeBody = z.infer<typeof statusChangeBodySchema>;
