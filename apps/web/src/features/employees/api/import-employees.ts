import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EmployeeImportResult } from '@app/contract';
import { api } from '@/lib/api-client';
import { employeesKeys } from './get-employees';
import { csvFormData } from './preview-employee-import';

export interface ImportEmployeesInput {
  file: File;
  /** Deactivate the active employees missing from the file (an opt-in, decision 0020). */
  deactivateMissing: boolean;
}

/** POST /employees/import: valid rows applied in one transaction, invalid ones skipped. */
export async function importEmployees({
  file,
  deactivateMissing,
}: ImportEmployeesInput): Promise<EmployeeImportResult> {
  const response = await api.post('/api/v1/employees/import', {
    // Sent as multipart with the boundary the browser picks.
    body: csvFormData(file, deactivateMissing),
  });
  return response.data.data;
}

export function useImportEmployees() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importEmployees,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesKeys.all }),
  });
}
