import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { employeesKeys } from './get-employees';

/** DELETE /employees/{id}: the employee goes; its ledger history stays. */
export async function deleteEmployee(id: number): Promise<void> {
  await api.delete('/api/v1/employees/{id}', { params: { path: { id } } });
}

export function useDeleteEmployee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEmployee,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesKeys.all }),
  });
}
