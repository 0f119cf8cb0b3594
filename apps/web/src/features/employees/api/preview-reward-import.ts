import { useMutation } from '@tanstack/react-query';
import type { RewardImportPreview } from '@app/contract';
import { api } from '@/lib/api-client';
import { downloadCsv } from '@/lib/download';

/**
 * POST /tokens/topup-token/employees/preview: who a reward CSV (employee_id,amount) gives what,
 * against the company's balance; nothing is written (decision 0025).
 */
export async function previewRewardImport(file: File): Promise<RewardImportPreview> {
  const body = new FormData();
  body.append('file', file, file.name);
  const response = await api.post('/api/v1/tokens/topup-token/employees/preview', { body });
  return response.data.data;
}

export const usePreviewRewardImport = () => useMutation({ mutationFn: previewRewardImport });

/** GET /tokens/topup-token/employees/template, as a CSV download. */
export const downloadRewardTemplate = (): Promise<void> =>
  downloadCsv('/api/v1/tokens/topup-token/employees/template', {}, 'rewards-template.csv');
