import { can } from '@app/contract';
import { useTableSearch } from '@/components/data-table';
import { useSettlementMerchantOptions } from '@/features/settlements/api/get-settlement-merchants';
import { SettlementsPage } from '@/features/settlements/pages/settlements-page';
import { settlementsSearch } from '@/features/settlements/search';
import { useAuthStore } from '@/lib/auth-store';

/**
 * /settlements: the URL's list state, and the merchant filter for the roles that read every
 * merchant's statements (admin, Group HR); a merchant role sees its own only (decision 0040).
 */
export function Component() {
  const table = useTableSearch(settlementsSearch);
  const role = useAuthStore((state) => state.user?.type);
  const readsAll = role === 'admin' || role === 'super_hr';
  const merchantOptions = useSettlementMerchantOptions({
    enabled: readsAll && can(role, 'settlements.read'),
  });
  return <SettlementsPage table={table} merchantOptions={readsAll ? merchantOptions : undefined} />;
}
