import { useMutation } from '@tanstack/react-query';
import type { EmployeeImportPreview } from '@app/contract';
import { api } from '@/lib/api-client';

/**
 * The CSV as the multipart `file` part the import routes read, with `deactivate_missing` always
 * said in so many words (the server's default is false too: decision 0020).
 */
export function csvFormData(file: File, deactivateMissing = false): FormData {
  const body = new FormData();
  body.append('deactivate_missing', deactivateMissing ? 'true' : 'false');
  body.append('file', file, file.name);
  return body;
}

/**
 * POST /employees/import/preview: what importing the file would do, row by row; nothing is
 * written. Previewed without deactivation: employees missing from the file come back as `keep`,
 * which the dialog shows as `deactivate` when the admin opts in.
 */
export async function previewEmployeeImport(file: File): Promise<EmployeeImportPreview> {
  const response = await api.post('/api/v1/employees/import/preview', {
    // Sent as multipart with the boundary the browser picks.
    body: csvFormData(file),
  });
  return response.data.data;
}

export const usePreviewEmployeeImport = () => useMutation({ mutationFn: previewEmployeeImport });
