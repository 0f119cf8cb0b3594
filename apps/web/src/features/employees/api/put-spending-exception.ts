import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SpendingException, SpendingExceptionBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { spendingExceptionKeys } from './get-spending-exception';

/** PUT /employees/{id}/spending-exception: what differs for this employee, until a date. */
export async function putSpendingException({
  employeeId,
  body,
}: {
  employeeId: number;
  body: SpendingExceptionBody;
}): Promise<SpendingException> {
  const response = await api.put('/api/v1/employees/{id}/spending-exception', {
    params: { path: { id: employeeId } },
    body,
  });
  return response.data.data;
}

export function usePutSpendingException() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putSpendingException,
    onSuccess: (exception, { employeeId }) => {
      queryClient.setQueryData(spendingExceptionKeys.employee(employeeId), exception);
    },
  });
}
