import { useMutation } from '@tanstack/react-query';
import type { EmployeeImportPreview } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';

/** The CSV as the multipart `file` part the import routes read. */
export function csvFormData(file: File): FormData {
  const body = new FormData();
  body.append('file', file, file.name);
  return body;
}

/** POST /employees/import/preview: what importing the file would do, row by row; nothing is written. */
export async function previewEmployeeImport(file: File): Promise<EmployeeImportPreview> {
  const response = await api.post<{ data: EmployeeImportPreview }>(
    `${API_PREFIX}/employees/import/preview`,
    // Sent as multipart with the boundary the browser picks.
    csvFormData(file),
  );
  return response.data.data;
}

export const usePreviewEmployeeImport = () => useMutation({ mutationFn: previewEmployeeImport });
