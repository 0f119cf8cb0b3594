import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, useLocalPaging } from '@/components/data-table';
import { useDeclines } from '../api/get-declines';
import { declinesColumns } from './declines-columns';

/**
 * An employee's declined orders (DESIGN 7), under its ledger: when, where, how much and why,
 * newest first, paged here.
 */
export function EmployeeDeclines({ employeeId }: { employeeId: number }) {
  const { t, i18n } = useTranslation();
  const paging = useLocalPaging();
  const declines = useDeclines({
    employee_id: employeeId,
    page: paging.page,
    page_size: paging.pageSize,
  });
  const columns = useMemo(
    () => declinesColumns(t, i18n.language, { forEmployee: true }),
    [t, i18n.language],
  );
  return (
    <section className="flex flex-col gap-3" aria-labelledby="employee-declines-heading">
      <h2 id="employee-declines-heading" className="text-lg font-semibold">
        {t('declines.employee_title')}
      </h2>
      <DataTable
        label={t('declines.employee_title')}
        columns={columns}
        query={declines}
        paging={paging}
        emptyMessage={t('declines.employee_empty')}
        skeletonRows={3}
        getRowId={(decline) => String(decline.id)}
      />
    </section>
  );
}
