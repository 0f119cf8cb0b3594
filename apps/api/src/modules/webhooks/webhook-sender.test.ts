// The webhook sender (decision 0038): it connects to the address that was checked, follows no
// redirect, gives up at its timeout and reads a bounded part of the answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWebhook } from './webhook-sender';
import { checkWebhookTarget } from './webhook-targets';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handler: http.RequestListener): Promise<number> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const target = (url: string) =>
  checkWebhookTarget(url, {
    allowHttp: true,
    allowedPorts: [443, 8443],
    // A name that exists nowhere, "resolved" to this machine: the request must use this answer.
    resolve: async () => [{ address: '127.0.0.1', family: 4 }],
  });

describe('sending a webhook', () => {
  it('connects to the checked address, never looking the name up again', async () => {
    const hosts: string[] = [];
    const port = await serve((request, response) => {
      hosts.push(request.headers.host ?? '');
      response.writeHead(200).end('ok');
    });
    const result = await sendWebhook(
      await target(`http://hooks.invalid:${port}/in`),
      '{"id":"msg_1"}',
      { 'webhook-id': 'msg_1' },
    );
    expect(result).toEqual({ statusCode: 200, response: 'ok' });
    expect(hosts).toEqual([`hooks.invalid:${port}`]);
  });

  it('follows no redirect', async () => {
    let calls = 0;
    const port = await serve((_request, response) => {
      calls += 1;
      response.writeHead(307, { location: 'http://169.254.169.254/' }).end();
    });
    const result = await sendWebhook(await target(`http://127.0.0.1:${port}/`), '{}', {});
    expect(result.statusCode).toBe(307);
    expect(calls).toBe(1);
  });

  it('gives up when no answer comes in time', async () => {
    const port = await serve(() => {
      // never answers
    });
    const started = Date.now();
    const result = await sendWebhook(await target(`http://127.0.0.1:${port}/`), '{}', {}, 300);
    expect(result).toEqual({ statusCode: null, response: 'no answer within 0.3 s' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reads a bounded part of a large answer and keeps its start', async () => {
    const port = await serve((_request, response) => {
      response.writeHead(500);
      const chunk = 'x'.repeat(64 * 1024);
      // 16 MiB offered; the sender stops reading after 64 KiB.
      const write = (left: number) => {
        if (left === 0 || response.destroyed) return response.end();
        if (response.write(chunk)) write(left - 1);
        else response.once('drain', () => write(left - 1));
      };
      write(256);
    });
    const result = await sendWebhook(await target(`http://127.0.0.1:${port}/`), '{}', {});
    expect(result.statusCode).toBe(500);
    expect(result.response).toBe('x'.repeat(500));
  });

  it('reports a refused connection', async () => {
    const port = await serve(() => undefined);
    server!.close();
    server!.closeAllConnections();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const result = await sendWebhook(await target(`http://127.0.0.1:${port}/`), '{}', {});
    expect(result.statusCode).toBeNull();
    expect(result.response).toMatch(/^connection failed: ECONNREFUSED/);
  });
});
