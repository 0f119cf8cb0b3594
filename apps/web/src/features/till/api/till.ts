import type { operations } from '@app/client';
import type { TillTerminal } from '@app/contract';
import { api } from '@/lib/api-client';
import { useResource } from '../lib/use-resource';

/** GET /till/terminals: the active terminals of the signed-in user's merchant. */
export async function getTillTerminals(signal?: AbortSignal): Promise<TillTerminal[]> {
  const response = await api.get('/api/v1/till/terminals', { signal });
  return response.data.data;
}

export const useTillTerminals = () => useResource('terminals', getTillTerminals);

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
export async function getTillOrders(
  terminalId: number | undefined,
  signal?: AbortSignal,
): Promise<TillOrder[]> {
  const response = await api.get('/api/v1/till/orders', {
    params: { query: terminalId === undefined ? {} : { terminal_id: terminalId } },
    signal,
  });
  return response.data.data;
}

/** Today's orders of `terminalId` (every terminal's: undefined), null: not asked yet. */
export const useTillOrders = (terminalId: number | undefined | null) =>
  useResource(terminalId === null ? null : `orders:${terminalId ?? 'all'}`, (signal) =>
    getTillOrders(terminalId ?? undefined, signal),
  );

export type RefundReason = 'cancelled' | 'rejected' | 'item_removed';

/** POST /till/orders/{id}/refund with the refund's own Idempotency-Key. */
export type RefundBody = { reason: RefundReason; amount?: number };
export type RefundResult =
  operations['refundAtTill']['responses'][200]['content']['application/json']['data'];

export async function refundAtTill(
  orderId: number,
  key: string,
  body: RefundBody,
): Promise<RefundResult> {
  const response = await api.post('/api/v1/till/orders/{id}/refund', {
    params: { path: { id: orderId }, header: { 'idempotency-key': key } },
    body,
  });
  return response.data.data;
}
