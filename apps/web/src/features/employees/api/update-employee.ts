import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Employee, UpdateEmployeeBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { employeesKeys } from './get-employees';

/** PUT /employees/{id}: the fields given change, the others stay. */
export async function updateEmployee({
  id,
  body,
}: {
  id: number;
  body: UpdateEmployeeBody;
}): Promise<Employee> {
  const response = await api.put('/api/v1/employees/{id}', { params: { path: { id } }, body });
  return response.data.data;
}

export function useUpdateEmployee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEmployee,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesKeys.all }),
  });
}
