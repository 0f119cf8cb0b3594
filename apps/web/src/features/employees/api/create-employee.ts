import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateEmployeeBody, Employee } from '@app/contract';
import { api } from '@/lib/api-client';
import { employeesKeys } from './get-employees';

/** POST /employees: the company comes from the session. */
export async function createEmployee(body: CreateEmployeeBody): Promise<Employee> {
  const response = await api.post('/api/v1/employees', { body });
  return response.data.data;
}

export function useCreateEmployee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEmployee,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesKeys.all }),
  });
}
