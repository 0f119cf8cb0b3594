import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Employee } from '@app/contract';
import { api } from '@/lib/api-client';
import { employeesKeys } from './get-employees';

/** GET /employees/{id}: one employee and its wallet (changes to employees refresh it). */
export async function getEmployee(id: string): Promise<Employee> {
  const response = await api.get('/api/v1/employees/{id}', { params: { path: { id } } });
  return response.data.data;
}

export const employeeQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...employeesKeys.all, 'detail', id] as const,
    queryFn: () => getEmployee(id),
    meta: { silentError: true },
  });

export const useEmployee = (id: string) => useQuery(employeeQueryOptions(id));
