import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { stringify } from 'csv-stringify/sync';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  EMPLOYEE_CSV_COLUMNS,
  EMPLOYEE_IMPORT_MAX_BYTES,
  dataOf,
  employeeImportOptionsSchema,
  employeeImportPreviewSchema,
  employeeImportResultSchema,
  errorEnvelopeSchema,
  type EmployeeImportOptions,
  type EmployeeImportPreview,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import { auditActorOf } from '../../lib/audit';
import { readCsvUpload } from '../../lib/csv-upload';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import {
  importEmployees,
  previewEmployeeImport,
  TEMPLATE_EXAMPLE_STAFF_NUMBER,
} from './employee-import.service';
import { csvFileSchema } from '../../openapi';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  413: errorEnvelopeSchema,
  415: errorEnvelopeSchema,
};

/**
 * The header row and one example row (decision 0008), which is nobody's: left in a file, it is
 * refused (`TEMPLATE_EXAMPLE_STAFF_NUMBER`), never a new employee nor a change to one (issue 41
 * item 7: the example was E0001, and a file that kept it renamed the demo's Ava Chen).
 */
export const EMPLOYEE_CSV_TEMPLATE = stringify(
  [
    [...EMPLOYEE_CSV_COLUMNS],
    [TEMPLATE_EXAMPLE_STAFF_NUMBER, 'jane.doe@example.com', 'Jane Doe', 'active'],
  ],
  { record_delimiter: 'windows' },
);

/** The uploaded `file` and the `deactivate_missing` field beside it (decision 0020). */
async function readUpload(
  request: FastifyRequest,
): Promise<{ buffer: Buffer; name: string; options: EmployeeImportOptions }> {
  const { buffer, name, fields } = await readCsvUpload(request, {
    maxBytes: EMPLOYEE_IMPORT_MAX_BYTES,
    fieldNames: ['deactivate_missing'],
  });
  const options = employeeImportOptionsSchema.safeParse(fields);
  if (!options.success) {
    throw new AppError('BODY_INVALID', { metadata: { deactivate_missing: 'v.invalid' } });
  }
  return { buffer, name, options: options.data };
}

/** The form of a preview or an import, for the document (the route reads its parts itself). */
const EMPLOYEE_UPLOAD = {
  file: 'The employees CSV (see the template), at most 10 MB',
  fields: {
    deactivate_missing: {
      type: 'string',
      enum: ['true', 'false'],
      description: '`true`: employees of the company missing from the file are deactivated',
    },
  },
};

/** Rows per chunk of the streamed preview answer. */
export const PREVIEW_CHUNK_ROWS = 1_000;

/**
 * The preview's answer (`{ data: preview }`) as JSON text, streamed a chunk of rows at a time. A
 * 100,000-row file's answer is 15 MB: serialised at once it was a validated copy of every row, then
 * one 15 MB string, then its bytes, all alive with the rows themselves. The rows are typed by the
 * contract (classifyRows), with its keys in its order; a test checks the answer against its schema.
 */
function previewAnswer(preview: EmployeeImportPreview): Readable {
  const { rows, summary } = preview;
  return Readable.from(
    (function* () {
      yield '{"data":{"rows":[';
      for (let start = 0; start < rows.length; start += PREVIEW_CHUNK_ROWS) {
        const chunk = rows.slice(start, start + PREVIEW_CHUNK_ROWS);
        yield (start === 0 ? '' : ',') + chunk.map((row) => JSON.stringify(row)).join(',');
      }
      yield `],"summary":${JSON.stringify(summary)}}}`;
    })(),
    { objectMode: false },
  );
}

/** /api/v1/employees/import: the employee CSV, previewed and applied, and its template. */
export default async function employeeImportRoutes(app: FastifyInstance) {
  // Scoped to these routes: only the import reads multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: EMPLOYEE_IMPORT_MAX_BYTES, files: 2, fields: 5, parts: 7 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/template',
    {
      preHandler: requirePermission('employees.import'),
      schema: {
        tags: ['employees'],
        operationId: 'getEmployeeImportTemplate',
        summary: 'The employee CSV template (text/csv): the header row and one example row',
        response: { 200: csvFileSchema },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="employees-template.csv"')
        .send(EMPLOYEE_CSV_TEMPLATE),
  );

  r.post(
    '/preview',
    {
      preHandler: requirePermission('employees.import'),
      schema: {
        tags: ['employees'],
        operationId: 'previewEmployeeImport',
        upload: EMPLOYEE_UPLOAD,
        summary:
          'Classify each row of an employee CSV (multipart `file`, optional `deactivate_missing=true`); nothing is written',
        consumes: ['multipart/form-data'],
        response: { 200: dataOf(employeeImportPreviewSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { buffer, options } = await readUpload(request);
      const preview = await previewEmployeeImport(
        app.deps,
        scopeOf(currentUser(request)),
        buffer,
        options,
      );
      // Fastify sends a stream as it is (no serializer); the schema above still documents it.
      const untyped: FastifyReply = reply;
      return untyped.type('application/json; charset=utf-8').send(previewAnswer(preview));
    },
  );

  r.post(
    '/',
    {
      preHandler: requirePermission('employees.import'),
      schema: {
        tags: ['employees'],
        operationId: 'importEmployees',
        upload: EMPLOYEE_UPLOAD,
        summary:
          'Import an employee CSV in one transaction (employees missing from it are deactivated only with `deactivate_missing=true`); invalid rows are skipped and counted',
        consumes: ['multipart/form-data'],
        response: { 200: dataOf(employeeImportResultSchema), ...errors },
      },
    },
    async (request) => {
      const { buffer, name, options } = await readUpload(request);
      return {
        data: await importEmployees(
          app.deps,
          scopeOf(currentUser(request)),
          buffer,
          auditActorOf(request),
          name || null,
          options,
        ),
      };
    },
  );
}
