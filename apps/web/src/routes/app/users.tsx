import { useTableSearch } from '@/components/data-table';
import { useMerchantOptions } from '@/features/merchants/api/get-merchant-options';
import { UsersPage } from '@/features/users/pages/users-page';
import { usersSearch } from '@/features/users/search';

/** /user: the URL's list state, and the merchants for the merchant filter and field. */
export function Component() {
  const table = useTableSearch(usersSearch);
  const merchantOptions = useMerchantOptions();
  return <UsersPage table={table} merchantOptions={merchantOptions} />;
}
