import type { SystemPeriodListQuery } from '@app/contract';

export const systemKeys = {
  all: ['sys'] as const,
  currentPeriod: ['sys', 'current-period'] as const,
  resetDate: ['sys', 'reset-date'] as const,
  periods: (query: Partial<SystemPeriodListQuery>) => ['sys', 'system-periods', query] as const,
};
