import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateEmployeeAccountBody, EmployeeAccount } from '@app/contract';
import { api } from '@/lib/api-client';
import { employeesKeys } from './get-employees';

/** POST /employees/{id}/account: the employee's own sign-in (decision 0033). */
export async function createEmployeeAccount({
  id,
  body,
}: {
  id: number;
  body: CreateEmployeeAccountBody;
}): Promise<EmployeeAccount> {
  const response = await api.post('/api/v1/employees/{id}/account', {
    params: { path: { id } },
    body,
  });
  return response.data.data;
}

export function useCreateEmployeeAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEmployeeAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesKeys.all }),
  });
}
