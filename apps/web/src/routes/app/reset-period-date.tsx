import { useTableSearch } from '@/components/data-table';
import { ResetPeriodDatePage } from '@/features/system/pages/reset-period-date-page';
import { systemPeriodsSearch } from '@/features/system/search';

export function Component() {
  const table = useTableSearch(systemPeriodsSearch);
  return <ResetPeriodDatePage table={table} />;
}
