import { defineTableSearch } from '@/components/data-table';

/** The endpoints list's state in the URL: its page (GET /webhooks takes no filter). */
export const webhooksSearch = defineTableSearch({ filters: {} });
