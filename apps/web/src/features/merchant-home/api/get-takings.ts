import { useQuery } from '@tanstack/react-query';
import type { TillTakings } from '@app/contract';
import { api } from '@/lib/api-client';

export const takingsKeys = {
  day: (date: string | undefined) => ['till', 'takings', date ?? 'today'] as const,
};

/** GET /till/takings: a day's takings (today by default) of the merchant's terminals. */
export async function getTakings(date: string | undefined): Promise<TillTakings> {
  const response = await api.get('/api/v1/till/takings', {
    params: { query: date === undefined ? {} : { date } },
  });
  return response.data.data;
}

export const useTakings = (date: string | undefined) =>
  useQuery({
    queryKey: takingsKeys.day(date),
    queryFn: () => getTakings(date),
    staleTime: 15_000,
    // Today's figures move while the shop is open: kept fresh on the counter's screen.
    refetchInterval: date === undefined ? 60_000 : false,
  });
