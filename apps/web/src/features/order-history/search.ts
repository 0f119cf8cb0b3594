import { DECLINE_CODES, ORDER_SORTS, ORDER_STATUSES, REFUND_STATES } from '@app/contract';
import {
  dateFilter,
  defineTableSearch,
  idFilter,
  oneOf,
  textFilter,
} from '@/components/data-table';

/**
 * The order history's state in the URL: GET /orders/admin filters by status, refund state (partially refunded), company, merchant,
 * order number and a range of order days.
 */
export const orderHistorySearch = defineTableSearch({
  filters: {
    order_no: textFilter(50),
    status: oneOf(ORDER_STATUSES),
    refund_state: oneOf(REFUND_STATES),
    company_id: idFilter(),
    merchant_id: idFilter(),
    date_from: dateFilter(),
    date_to: dateFilter(),
  },
  sortable: ORDER_SORTS,
});

/**
 * The Declined tab's state in the URL: GET /orders/declines filters by the refusal's code,
 * company, merchant and a range of days.
 */
export const declinesSearch = defineTableSearch({
  filters: {
    code: oneOf(DECLINE_CODES),
    company_id: idFilter(),
    merchant_id: idFilter(),
    date_from: dateFilter(),
    date_to: dateFilter(),
  },
});
