import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { DashboardQuery } from '@app/contract';
import { MONTH_PATTERN } from '@app/contract/constants';

export interface DashboardSearch {
  /** What GET /dashboard is sent: invalid values in a link read as absent. */
  query: DashboardQuery;
  setMonth: (month: string | undefined) => void;
  setCompanyId: (companyId: number | undefined) => void;
}

/** The dashboard's month (YYYY-MM) and company filter, kept in the URL. */
export function useDashboardSearch(): DashboardSearch {
  const [params, setParams] = useSearchParams();
  const monthParam = params.get('month');
  const companyParam = params.get('company_id');

  const query = useMemo(() => {
    const next: DashboardQuery = {};
    if (monthParam && MONTH_PATTERN.test(monthParam)) next.month = monthParam;
    if (companyParam && /^[1-9]\d{0,9}$/.test(companyParam)) next.company_id = Number(companyParam);
    return next;
  }, [monthParam, companyParam]);

  const update = useCallback(
    (key: string, value: string | undefined) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      }),
    [setParams],
  );

  return {
    query,
    setMonth: useCallback((month: string | undefined) => update('month', month), [update]),
    setCompanyId: useCallback(
      (companyId: number | undefined) =>
        update('company_id', companyId ? String(companyId) : undefined),
      [update],
    ),
  };
}
