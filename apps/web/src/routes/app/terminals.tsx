import { useTableSearch } from '@/components/data-table';
import { useMerchantOptions } from '@/features/merchants/api/get-merchant-options';
import { TerminalsPage } from '@/features/terminals/pages/terminals-page';
import { terminalsSearch } from '@/features/terminals/search';

/** /terminals: the URL's list state, and the merchants for names, the filter and the form. */
export function Component() {
  const table = useTableSearch(terminalsSearch);
  const merchantOptions = useMerchantOptions();
  return <TerminalsPage table={table} merchantOptions={merchantOptions} />;
}
