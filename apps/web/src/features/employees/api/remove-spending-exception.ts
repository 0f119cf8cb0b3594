import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { spendingExceptionKeys } from './get-spending-exception';

/** DELETE /employees/{id}/spending-exception: the company's rules apply again. */
export async function removeSpendingException(employeeId: number): Promise<void> {
  await api.delete('/api/v1/employees/{id}/spending-exception', {
    params: { path: { id: employeeId } },
  });
}

export function useRemoveSpendingException() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeSpendingException,
    onSuccess: (_, employeeId) => {
      queryClient.setQueryData(spendingExceptionKeys.employee(employeeId), null);
    },
  });
}
