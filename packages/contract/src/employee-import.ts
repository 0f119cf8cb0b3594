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

/**
 * What a preview row does (decision 0020): `override` changes an existing employee, `unchanged`
 * names one whose values are already the file's, `deactivate` turns an active employee inactive
 * (a file row saying `inactive`, or an employee missing from the file when `deactivate_missing`
 * is on), `keep` is an active employee missing from the file that stays as it is (the default).
 */
export const EMPLOYEE_IMPORT_ACTIONS = [
  'create',
  'override',
  'unchanged',
  'deactivate',
  'keep',
  'invalid',
] as const;
export const employeeImportActionSchema = z.enum(EMPLOYEE_IMPORT_ACTIONS);
export type EmployeeImportAction = z.infer<typeof employeeImportActionSchema>;

/**
 * One line of the preview. Values are the file's, trimmed (for an existing employee missing from
 * the file: its current values, with `line: null`). `errors` maps a field (or `_row`) to a `v.*`
 * validation key or a catalogue error code, like the `metadata` of a BODY_INVALID answer.
 */
export const employeeImportRowSchema = z.object({
  line: z.number().int().nullable(),
  /** The existing employee this row names; null for creations and invalid rows. */
  id: z.number().int().nullable(),
  employee_id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  status: z.string(),
  action: employeeImportActionSchema,
  errors: z.record(z.string(), z.string()).optional(),
});
export type EmployeeImportRow = z.infer<typeof employeeImportRowSchema>;

/** How many rows of each action; `override` counts only rows that change something. */
export const employeeImportSummarySchema = z.object({
  create: z.number().int(),
  override: z.number().int(),
  unchanged: z.number().int(),
  deactivate: z.number().int(),
  keep: z.number().int(),
  invalid: z.number().int(),
});
export type EmployeeImportSummary = z.infer<typeof employeeImportSummarySchema>;

/**
 * The multipart fields sent beside `file` on preview and import. Deactivating the active
 * employees missing from the file is an opt-in (`deactivate_missing=true`); without the field
 * they are kept (decision 0020).
 */
export const employeeImportOptionsSchema = z.object({
  deactivate_missing: z
    .enum(['true', 'false'], 'v.invalid')
    .optional()
    .transform((value) => value === 'true'),
});
export type EmployeeImportOptions = z.output<typeof employeeImportOptionsSchema>;

/** POST /employees/import/preview. */
export const employeeImportPreviewSchema = z.object({
  rows: z.array(employeeImportRowSchema),
  summary: employeeImportSummarySchema,
});
export type EmployeeImportPreview = z.infer<typeof employeeImportPreviewSchema>;

/**
 * POST /employees/import: valid rows are applied, invalid ones skipped (partial success);
 * `rejected_rows` says which and why. Each employee is counted once: `updated` changed something
 * (other than turning active to inactive), `unchanged` already had the file's values,
 * `deactivated` went from active to inactive. `skipped` counts the invalid rows; `rejected` is
 * the same number, kept for older clients.
 */
export const employeeImportResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  deactivated: z.number().int(),
  skipped: z.number().int(),
  /** Whether employees missing from the file were deactivated (the request's opt-in). */
  deactivate_missing: z.boolean(),
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
