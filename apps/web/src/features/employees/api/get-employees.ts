import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Employee, EmployeeListQuery } from '@app/contract';
import type { ListResult } from '@/components/data-table';
import { api } from '@/lib/api-client';

export const employeesKeys = {
  all: ['employees'] as const,
  list: (query: Partial<EmployeeListQuery>) => ['employees', 'list', query] as const,
};

/** GET /employees: the company's employees and their wallets, paged. */
export async function getEmployees(
  query: Partial<EmployeeListQuery>,
): Promise<ListResult<Employee>> {
  const response = await api.get('/api/v1/employees', { params: { query } });
  return response.data;
}

export const employeesQueryOptions = (query: Partial<EmployeeListQuery>) =>
  queryOptions({
    queryKey: employeesKeys.list(query),
    queryFn: () => getEmployees(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useEmployees = (query: Partial<EmployeeListQuery>) =>
  useQuery(employeesQueryOptions(query));
