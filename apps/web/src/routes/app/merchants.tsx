import { useTableSearch } from '@/components/data-table';
import { MerchantsPage } from '@/features/merchants/pages/merchants-page';
import { merchantsSearch } from '@/features/merchants/search';

export function Component() {
  const table = useTableSearch(merchantsSearch);
  return <MerchantsPage table={table} />;
}
