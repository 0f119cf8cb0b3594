// A real HTTP receiver of webhooks on 127.0.0.1, for the webhook tests (decision 0038).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { queryRows, type Executor } from '../src/db/client';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  json: {
    id: string;
    type: string;
    timestamp: string;
    sequence: number;
    test: boolean;
    data: Record<string, unknown>;
  };
}

interface WebhookSection {
  webhooks: Record<
    string,
    { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }
  >;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

/**
 * What is wrong with a received body by the app's own OpenAPI document (decision 0084): its type
 * must be one of the document's `webhooks`, the body valid against that webhook's schema (JSON
 * Schema 2020-12, formats checked), and neither the body nor its `data` may hold a field the
 * schema does not name (the schemas allow new fields, so validity alone would not catch one).
 * Answers the problems, none when the body is as documented.
 */
export function webhookDocumentChecker(app: FastifyInstance): (body: ReceivedWebhook) => string[] {
  const document = app.swagger() as unknown as WebhookSection;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ components: document.components }, 'doc');
  const componentOf = (ref: string) => ref.replace('#/components/schemas/', '');
  return (received) => {
    const webhook = document.webhooks[received.json.type];
    if (!webhook) return [`${received.json.type}: not in the document's webhooks`];
    const ref = webhook.post.requestBody.content['application/json'].schema.$ref;
    const validate = ajv.getSchema(`doc${ref}`)!;
    const problems: string[] = [];
    if (!validate(received.json)) problems.push(JSON.stringify(validate.errors));
    const envelope = document.components.schemas[componentOf(ref)]!;
    const dataRef = (envelope.properties!.data as { $ref: string }).$ref;
    const dataFields = Object.keys(document.components.schemas[componentOf(dataRef)]!.properties!);
    for (const key of Object.keys(received.json)) {
      if (!(key in envelope.properties!)) problems.push(`undocumented field ${key}`);
    }
    for (const key of Object.keys(received.json.data)) {
      if (!dataFields.includes(key)) problems.push(`undocumented data field ${key}`);
    }
    return problems;
  };
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
