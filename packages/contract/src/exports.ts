import type { z } from 'zod';
import { employeeListQuerySchema } from './employees';

/**
 * CSV exports (decision 0007): every list has one, taking the list's own filters (paging aside),
 * streamed in batches and capped at EXPORT_MAX_ROWS rows (server setting, this by default). A
 * request matching more is refused with EXPORT_TOO_LARGE before any byte is sent.
 */
export const EXPORT_MAX_ROWS_DEFAULT = 100_000;

/** GET /exports/employees: the employees list's filters (paging aside), so the export holds the list's rows. */
export const employeeExportQuerySchema = employeeListQuerySchema.omit({
  page: true,
  page_size: true,
  sort: true,
  order: true,
});
export type EmployeeExportQuery = z.infer<typeof employeeExportQuerySchema>;
