// A real HTTP receiver of webhooks on 127.0.0.1, for the webhook tests (decision 0038).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../src/db/client';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  json: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** The statuses to answer with, one per request, then 200 (`status` otherwise). */
  answers: number[];
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const answers: number[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string') headers[name] = value;
      }
      received.push({ headers, body, json: JSON.parse(body) });
      const status = answers.shift() ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How many outbox events of a type exist for an order. */
export async function eventsOfOrder(
  executor: Executor,
  type: string,
  orderId: number,
): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    executor,
    sql`SELECT count(*)::int AS n FROM webhook_events
         WHERE type = ${type} AND (data ->> 'order_id')::bigint = ${orderId}`,
  );
  return row!.n;
}

export async function countEvents(executor: Executor, type?: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    executor,
    type
      ? sql`SELECT count(*)::int AS n FROM webhook_events WHERE type = ${type}`
      : sql`SELECT count(*)::int AS n FROM webhook_events`,
  );
  return row!.n;
}
