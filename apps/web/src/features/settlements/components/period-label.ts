import { formatDate } from '@/lib/format';

/** '01/03/2026 – 15/03/2026' (English), '2026-03-01 – 2026-03-15' (Chinese). */
export const periodLabel = (period: { period_start: string; period_end: string }): string =>
  `${formatDate(period.period_start)} – ${formatDate(period.period_end)}`;
