import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { stringify } from 'csv-stringify/sync';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  REWARD_CSV_COLUMNS,
  REWARD_IMPORT_MAX_BYTES,
  dataOf,
  errorEnvelopeSchema,
  rewardImportPreviewSchema,
} from '@app/contract';
import { readCsvUpload } from '../../lib/csv-upload';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import { previewRewardImport } from './reward-import.service';
import { csvFileSchema } from '../../openapi';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  413: errorEnvelopeSchema,
  415: errorEnvelopeSchema,
  422: errorEnvelopeSchema,
};

/** The header row and two example rows (decision 0025). */
export const REWARD_CSV_TEMPLATE = stringify(
  [[...REWARD_CSV_COLUMNS], ['E0001', '100'], ['E0002', '250']],
  { record_delimiter: 'windows' },
);

/** /api/v1/tokens/topup-token/employees: rewards from a CSV, previewed (decision 0025). */
export default async function rewardImportRoutes(app: FastifyInstance) {
  // Scoped to these routes, as the employee import's.
  await app.register(multipart, {
    limits: { fileSize: REWARD_IMPORT_MAX_BYTES, files: 2, fields: 5, parts: 7 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/template',
    {
      preHandler: requirePermission('tokens.distribute'),
      schema: {
        tags: ['tokens'],
        operationId: 'getRewardImportTemplate',
        summary: 'The reward CSV template (text/csv): employee_id,amount and two example rows',
        response: { 200: csvFileSchema },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="rewards-template.csv"')
        .send(REWARD_CSV_TEMPLATE),
  );

  r.post(
    '/preview',
    {
      preHandler: requirePermission('tokens.distribute'),
      schema: {
        tags: ['tokens'],
        operationId: 'previewRewardImport',
        upload: { file: 'The rewards CSV (see the template), at most 1 MB' },
        summary:
          'Read a reward CSV (multipart `file`: employee_id,amount) and say who gets what against the company balance; nothing is written',
        consumes: ['multipart/form-data'],
        response: { 200: dataOf(rewardImportPreviewSchema), ...errors },
      },
    },
    async (request) => {
      const { buffer } = await readCsvUpload(request, { maxBytes: REWARD_IMPORT_MAX_BYTES });
      return {
        data: await previewRewardImport(app.deps, scopeOf(currentUser(request)), buffer),
      };
    },
  );
}
