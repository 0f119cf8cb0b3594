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

/** What GET /dashboard is sent for these search parameters: invalid values read as absent. */
export function dashboardQueryOf(month: string | null, companyId: string | null): DashboardQuery {
  const query: DashboardQuery = {};
  if (month && MONTH_PATTERN.test(month)) query.month = month;
  if (companyId && /^[1-9]\d{0,9}$/.test(companyId)) query.company_id = Number(companyId);
  return query;
}

/** The dashboard's month (YYYY-MM) and company filter, kept in the URL. */
export function useDashboardSearch(): DashboardSearch {
  const [params, setParams] = useSearchParams();
  const monthParam = params.get('month');
  const companyParam = params.get('company_id');

  const query = useMemo(
    () => dashboardQueryOf(monthParam, companyParam),
    [monthParam, companyParam],
  );

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
