// The API's bundle (decision 0041), what `npm start` and the container image run: built by
// apps/api/scripts/build.ts, it starts with plain node on an empty embedded database (migrations and
// the ledger's SQL read from the sources through src/config/locations.ts), serves the API, and
// drains and exits 0 on SIGTERM.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROOT } from '../config';
import { buildServer } from '../../scripts/build';
import { startServer, type ServerProcess } from '../../test/server-process';

describe('the API bundle', () => {
  let server: ServerProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-bundle-'));
  // A bundle of its own beside apps/api/dist, which a browser journey or the cluster test may be
  // running from at the same moment.
  const bundleDir = path.join(API_ROOT, `.bundle-test-${process.pid}`);
  const entry = path.join(bundleDir, 'server.mjs');

  beforeAll(async () => {
    await buildServer(bundleDir);
    server = await startServer(
      { DATA_DIR: dataDir, ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'Bundle#Start2026' },
      { from: { bundle: entry } },
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(bundleDir, { recursive: true, force: true });
  });

  it('is ECMAScript modules whose npm imports stay imports of node_modules', () => {
    const chunks = fs.readdirSync(bundleDir).filter((file) => file.endsWith('.mjs'));
    expect(chunks).toContain(path.basename(entry));
    const code = chunks.map((file) => fs.readFileSync(path.join(bundleDir, file), 'utf8')).join('');
    // Fastify and pg are loaded from node_modules (so OpenTelemetry can patch them), the
    // workspace's contract is inside.
    expect(code).toMatch(/from "fastify"/);
    expect(code).toMatch(/from "pg"/);
    expect(code).not.toMatch(/from "@app\/contract/);
  });

  it('migrates an empty database, signs in and answers the API', async () => {
    const login = await fetch(`${server.baseURL}/api/v1/iam/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'Bundle#Start2026' }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { data: { user: { type: string } } }).data.user.type).toBe(
      'admin',
    );
    const migrated = await fetch(`${server.baseURL}/readyz`);
    expect(migrated.status).toBe(200);
  });

  it('drains and exits 0 on SIGTERM', async () => {
    await server.stop();
    expect(server.child.exitCode).toBe(0);
  });
});
