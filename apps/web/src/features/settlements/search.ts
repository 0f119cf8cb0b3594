import { dateFilter, defineTableSearch, idFilter } from '@/components/data-table';

/**
 * The settlement list's state in the URL: a merchant (admin and Group HR) and a range of days;
 * without a range the server reads this month and the last (decision 0040).
 */
export const settlementsSearch = defineTableSearch({
  filters: {
    merchant_id: idFilter(),
    from: dateFilter(),
    to: dateFilter(),
  },
});
