import { defineTableSearch } from '@/components/data-table';

/** The system periods list keeps only its page and page size in the URL. */
export const systemPeriodsSearch = defineTableSearch({ filters: {} });
