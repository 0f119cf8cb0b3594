import type { OrderHistoryFilter } from '@app/contract';
import { downloadCsv } from '@/lib/download';

/** GET /exports/orders: the order history's filters (no paging) as a CSV download. */
export const exportOrders = (filters: Partial<OrderHistoryFilter>): Promise<void> =>
  downloadCsv('/api/v1/exports/orders', { query: filters }, 'orders.csv');
