import type { SettlementExportQuery } from '@app/contract';
import { API_PREFIX } from '@/lib/api-client';
import { downloadCsv, downloadFile } from '@/lib/download';

/** GET /exports/settlements: the list's range, one line per merchant, period and company. */
export const exportSettlements = (query: Partial<SettlementExportQuery>): Promise<void> =>
  downloadCsv(`${API_PREFIX}/exports/settlements`, query, 'settlements.csv');

/** GET /exports/settlements/{merchant_id}/{period_start}: every order of a statement. */
export const exportSettlementStatement = (merchantId: number, periodStart: string) =>
  downloadCsv(
    `${API_PREFIX}/exports/settlements/${merchantId}/${encodeURIComponent(periodStart)}`,
    {},
    `settlement-${periodStart}.csv`,
  );

/** GET /settlements/{merchant_id}/{period_start}/pdf: the statement as a PDF, in `lang`. */
export const downloadSettlementPdf = (merchantId: number, periodStart: string, lang: 'en' | 'zh') =>
  downloadFile(
    `${API_PREFIX}/settlements/${merchantId}/${encodeURIComponent(periodStart)}/pdf`,
    { lang },
    `settlement-${periodStart}.pdf`,
  );
