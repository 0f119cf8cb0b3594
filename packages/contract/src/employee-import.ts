import { z } from 'zod';

/**
 * The employee CSV (DESIGN 4, decision 0008): UTF-8 (a BOM is allowed), comma-separated, a header
 * row naming these columns in any order and case. Only `employee_id` is required; an empty status
 * means `active`.
 */
export const EMPLOYEE_CSV_COLUMNS = ['employee_id', 'email', 'name', 'status'] as const;
export type EmployeeCsvColumn = (typeof EMPLOYEE_CSV_COLUMNS)[number];

/** The largest file the import accepts, in bytes (FILE_TOO_LARGE above it). */
export const EMPLOYEE_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The most data rows one file may hold (FILE_TOO_LARGE above it). */
export const EMPLOYEE_IMPORT_MAX_ROWS = 100_000;

export const EMPLOYEE_IMPORT_ACTIONS = ['create', 'override', 'deactivate', 'invalid'] as const;
export const employeeImportActionSchema = z.enum(EMPLOYEE_IMPORT_ACTIONS);
export type EmployeeImportAction = z.infer<typeof employeeImportActionSchema>;

/**
 * One line of the preview. Values are the file's, trimmed (for an existing employee missing from
 * the file: its current values, with `line: null`). `errors` maps a field (or `_row`) to a `v.*`
 * validation key or a catalogue error code, like the `metadata` of a BODY_INVALID answer.
 */
export const employeeImportRowSchema = z.object({
  line: z.number().int().nullable(),
  /** The existing employee this row overrides or deactivates; null for creations and invalid rows. */
  id: z.number().int().nullable(),
  employee_id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  status: z.string(),
  action: employeeImportActionSchema,
  errors: z.record(z.string(), z.string()).optional(),
});
export type EmployeeImportRow = z.infer<typeof employeeImportRowSchema>;

export const employeeImportSummarySchema = z.object({
  create: z.number().int(),
  override: z.number().int(),
  deactivate: z.number().int(),
  invalid: z.number().int(),
});
export type EmployeeImportSummary = z.infer<typeof employeeImportSummarySchema>;

/** POST /employees/import/preview. */
export const employeeImportPreviewSchema = z.object({
  rows: z.array(employeeImportRowSchema),
  summary: employeeImportSummarySchema,
});
export type EmployeeImportPreview = z.infer<typeof employeeImportPreviewSchema>;

/**
 * POST /employees/import: valid rows are applied, invalid ones rejected (partial success);
 * `rejected_rows` says which and why.
 */
export const employeeImportResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  deactivated: z.number().int(),
  rejected: z.number().int(),
  rejected_rows: z.array(
    z.object({
      line: z.number().int(),
      employee_id: z.string(),
      errors: z.record(z.string(), z.string()),
    }),
  ),
});
export type EmployeeImportResult = z.infer<typeof employeeImportResultSchema>;
