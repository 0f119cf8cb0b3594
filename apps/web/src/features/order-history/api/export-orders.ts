import type { OrderHistoryFilter } from '@app/contract';
import { API_PREFIX } from '@/lib/api-client';
import { downloadCsv } from '@/lib/download';

/** GET /exports/orders: the order history's filters (no paging) as a CSV download. */
export const exportOrders = (filters: Partial<OrderHistoryFilter>): Promise<void> =>
  downloadCsv(`${API_PREFIX}/exports/orders`, filters, 'orders.csv');
