import { downloadCsv } from '@/lib/download';

/** GET /employees/import/template: the header row and one example row, as a CSV download. */
export const downloadEmployeeTemplate = (): Promise<void> =>
  downloadCsv('/api/v1/employees/import/template', {}, 'employees-template.csv');
