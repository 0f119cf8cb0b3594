import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The front a phone reaches the back-office through in production (docs/OPERATIONS.md section 6:
 * a load balancer that terminates HTTPS): TLS with HTTP/2 offered by ALPN (HTTP/1.1 still
 * accepted), each request passed to the API over HTTP/1.1 keep-alive, bytes and headers as the
 * API sent them (its compression and caching). The bench's stand-in for HAProxy's
 * `bind … ssl alpn h2,http/1.1`, so Lighthouse measures the page as deployed: with HTTP/1.1 a
 * browser opens at most six connections to a host, and the dashboard's first load waits for
 * ~20 files in waves of six (bench/lighthouse.md).
 *
 * The certificate is self-signed for 127.0.0.1, made by `openssl` (Debian's) in a temporary
 * directory; the browser is started with `--ignore-certificate-errors`.
 */
export async function startTlsFront(
  target: string,
): Promise<{ baseURL: string; stop: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-tls-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http2.createSecureServer({
    key: fs.readFileSync(key),
    cert: fs.readFileSync(cert),
    allowHTTP1: true,
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('request', (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!name.startsWith(':') && name !== 'connection') headers[name] = value;
    }
    headers.host = upstream.host;
    headers['x-forwarded-proto'] = 'https';
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers,
        agent,
      },
      (answer) => {
        const back: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          // Connection-specific headers have no place in HTTP/2 (RFC 9113 section 8.2.2).
          if (!['connection', 'keep-alive', 'transfer-encoding', 'upgrade'].includes(name)) {
            back[name] = value;
          }
        }
        res.writeHead(answer.statusCode ?? 502, back);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `https://127.0.0.1:${port}`,
    stop: async () => {
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
