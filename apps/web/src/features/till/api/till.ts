import { useQuery } from '@tanstack/react-query';
import type { operations } from '@app/client';
import type { TillTerminal } from '@app/contract';
import { api } from '@/lib/api-client';

export const tillKeys = {
  terminals: ['till', 'terminals'] as const,
  orders: (terminalId: number | undefined) => ['till', 'orders', terminalId ?? 'all'] as const,
};

/** GET /till/terminals: the active terminals of the signed-in user's merchant. */
export async function getTillTerminals(): Promise<TillTerminal[]> {
  const response = await api.get('/api/v1/till/terminals');
  return response.data.data;
}

export const useTillTerminals = () =>
  useQuery({ queryKey: tillKeys.terminals, queryFn: getTillTerminals, staleTime: 60_000 });

type Charge = operations['chargeAtTill'];
export type ChargeBody = Charge['requestBody']['content']['application/json'];
export type PlacedOrder = Charge['responses'][201]['content']['application/json']['data'];
export type TillOrder =
  operations['listTillOrders']['responses'][200]['content']['application/json']['data'][number];

/** POST /till/terminals/{id}/orders with the charge's own Idempotency-Key. */
export async function chargeAtTill(
  terminalId: number,
  key: string,
  body: ChargeBody,
): Promise<PlacedOrder> {
  const response = await api.post('/api/v1/till/terminals/{id}/orders', {
    params: { path: { id: terminalId }, header: { 'idempotency-key': key } },
    body,
  });
  return response.data.data;
}

/** GET /till/orders: today's orders of one terminal, or of every terminal (supervisors). */
export async function getTillOrders(terminalId: number | undefined): Promise<TillOrder[]> {
  const response = await api.get('/api/v1/till/orders', {
    params: { query: terminalId === undefined ? {} : { terminal_id: terminalId } },
  });
  return response.data.data;
}

export const useTillOrders = (terminalId: number | undefined, enabled: boolean) =>
  useQuery({
    queryKey: tillKeys.orders(terminalId),
    queryFn: () => getTillOrders(terminalId),
    enabled,
    staleTime: 10_000,
  });

export type RefundReason = 'cancelled' | 'rejected' | 'item_removed';

/** POST /till/orders/{id}/refund with the refund's own Idempotency-Key. */
export async function refundAtTill(
  orderId: number,
  key: string,
  body: { reason: RefundReason; amount?: number },
) {
  const response = await api.post('/api/v1/till/orders/{id}/refund', {
    params: { path: { id: orderId }, header: { 'idempotency-key': key } },
    body,
  });
  return response.data.data;
}
