// Helpers for the security tests: what a well-formed refusal looks like, and multipart bodies.
import crypto from 'node:crypto';
import { ERROR_CATALOGUE, errorEnvelopeSchema, type ErrorCode } from '@app/contract';

interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * Why an answer breaks the error contract (DESIGN 4), or null when it keeps it: never a 5xx
 * other than the ones the catalogue names for an outage or a timeout, and every 4xx/5xx the JSON
 * envelope with a catalogue code whose status is the answer's.
 */
export function envelopeProblem(res: Answer, allowed5xx: readonly ErrorCode[] = []): string | null {
  const head = `${res.statusCode} ${res.body.slice(0, 300)}`;
  if (res.statusCode < 400) return null;
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) {
    return `not JSON: ${head}`;
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `unparsable: ${head}`;
  }
  const envelope = errorEnvelopeSchema.safeParse(body);
  if (!envelope.success) return `not the envelope: ${head}`;
  const { code, statusCode, message } = envelope.data;
  if (statusCode !== res.statusCode) return `statusCode differs: ${head}`;
  if (!code || !Object.hasOwn(ERROR_CATALOGUE, code)) return `no catalogue code: ${head}`;
  if (ERROR_CATALOGUE[code as ErrorCode].status !== res.statusCode) {
    return `status is not the catalogue's: ${head}`;
  }
  if (!message) return `empty message: ${head}`;
  if (res.statusCode >= 500 && !allowed5xx.includes(code as ErrorCode)) return `5xx: ${head}`;
  return null;
}

/** A multipart/form-data body with one file part (and optional plain fields), as a browser sends it. */
export function multipart(
  content: string | Buffer,
  options: { field?: string; filename?: string; fields?: Record<string, string> } = {},
) {
  const { field = 'file', filename = 'employees.csv', fields = {} } = options;
  const boundary = `----security${crypto.randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const payload = Buffer.concat([
    Buffer.from(parts.join('')),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        'Content-Type: text/csv\r\n\r\n',
    ),
    typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
