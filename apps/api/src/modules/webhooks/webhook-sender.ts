import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './webhook-targets';

/** A receiver has this long to answer, body included (DESIGN 6). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** The most of an answer's body read before the connection is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** The most of it kept in the delivery log. */
const KEPT_RESPONSE_CHARS = 500;

export interface SendResult {
  /** The answer's status, or null when none came (refused, timed out, connection lost). */
  statusCode: number | null;
  /** The start of the answer's body, or why there was none. */
  response: string;
}

/**
 * POSTs one signed webhook to a checked target (decision 0038): connects to the address that was
 * checked (its own lookup returns it: no second resolution between check and connect), follows no
 * redirect (a 3xx is an answer like any other non-2xx), gives up after DELIVERY_TIMEOUT_MS and
 * reads at most MAX_RESPONSE_BYTES of the answer.
 */
export function sendWebhook(
  target: CheckedTarget,
  body: string,
  headers: Record<string, string>,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendResult> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) {
      callback(null, [{ address: target.address, family: target.family }]);
    } else {
      callback(null, target.address, target.family);
    }
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'token-back-office-webhooks/1',
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({
            statusCode: response.statusCode ?? null,
            response: Buffer.concat(chunks).toString('utf8').slice(0, KEPT_RESPONSE_CHARS),
          });
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
          else done();
        });
        response.on('end', done);
        response.on('error', done);
        response.on('aborted', done);
      },
    );
    const timer = setTimeout(
      () => finish({ statusCode: null, response: `no answer within ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    timer.unref();
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ statusCode: null, response: `connection failed: ${error.code ?? error.message}` }),
    );
    request.end(body);
  });
}
