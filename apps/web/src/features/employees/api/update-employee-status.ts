import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Employee, Status } from '@app/contract';
import { api } from '@/lib/api-client';
import { employeesKeys } from './get-employees';

/** PATCH /employees/{id}/status */
export async function updateEmployeeStatus({
  id,
  status,
}: {
  id: number;
  status: Status;
}): Promise<Employee> {
  const response = await api.patch('/api/v1/employees/{id}/status', {
    params: { path: { id } },
    body: { status },
  });
  return response.data.data;
}

export function useUpdateEmployeeStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEmployeeStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesKeys.all }),
  });
}
