import { useTableSearch } from '@/components/data-table';
import { WebhooksPage } from '@/features/webhooks/pages/webhooks-page';
import { webhooksSearch } from '@/features/webhooks/search';

/** /webhooks: the URL's list state (decision 0038). */
export function Component() {
  return <WebhooksPage table={useTableSearch(webhooksSearch)} />;
}
