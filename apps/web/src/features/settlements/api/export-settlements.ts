import type { SettlementExportQuery } from '@app/contract';
import { downloadCsv, downloadFile } from '@/lib/download';

/** GET /exports/settlements: the list's range, one line per merchant, period and company. */
export const exportSettlements = (query: Partial<SettlementExportQuery>): Promise<void> =>
  downloadCsv('/api/v1/exports/settlements', { query }, 'settlements.csv');

/** GET /exports/settlements/{merchant_id}/{period_start}: every order of a statement. */
export const exportSettlementStatement = (merchantId: number, periodStart: string) =>
  downloadCsv(
    '/api/v1/exports/settlements/{merchant_id}/{period_start}',
    { path: { merchant_id: merchantId, period_start: periodStart } },
    `settlement-${periodStart}.csv`,
  );

/** GET /settlements/{merchant_id}/{period_start}/pdf: the statement as a PDF, in `lang`. */
export const downloadSettlementPdf = (merchantId: number, periodStart: string, lang: 'en' | 'zh') =>
  downloadFile(
    '/api/v1/settlements/{merchant_id}/{period_start}/pdf',
    { path: { merchant_id: merchantId, period_start: periodStart }, query: { lang } },
    `settlement-${periodStart}.pdf`,
  );
