import { can } from '@app/contract/permissions';
import { useTableSearch } from '@/components/data-table';
import { useMerchantOptions } from '@/features/merchants/api/get-merchant-options';
import { UsersPage } from '@/features/users/pages/users-page';
import { usersSearch } from '@/features/users/search';
import { useAuthStore } from '@/lib/auth-store';

/**
 * /user: the URL's list state, and the merchants for the admin's merchant filter and field (a
 * merchant admin manages its own merchant's staff and may not list merchants).
 */
export function Component() {
  const table = useTableSearch(usersSearch);
  const role = useAuthStore((state) => state.user?.type);
  const merchantOptions = useMerchantOptions({ enabled: can(role, 'merchants.view') });
  return <UsersPage table={table} merchantOptions={merchantOptions} />;
}
