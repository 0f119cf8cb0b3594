import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer, type ServerProcess } from '../../api/test/server-process';
import { buildServerIfStale } from '../../api/scripts/build';
import { buildWebIfNeeded, DIST_DIR } from './build';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

/**
 * Builds the web app and the API's bundle if needed, starts the real API as production runs it
 * (its bundle; embedded PGlite with the demo programme in a fresh temporary DATA_DIR) on a free
 * port, and hands its address to the journeys.
 * `E2E_BASE_URL` points the journeys at a server you started yourself instead.
 */
export default async function setup(project: TestProject) {
  const external = process.env.E2E_BASE_URL;
  if (external) {
    project.provide('baseURL', external.replace(/\/$/, ''));
    return;
  }

  const server = await startJourneyServer();
  project.provide('baseURL', server.baseURL);

  return server.stop;
}

/**
 * Builds what is stale and starts the API with the demo programme on a fresh embedded database,
 * with `env` on top of the journeys' settings; `stop` ends it and removes its data. The screens
 * journey starts one of its own on a frozen clock (e2e/visual.ts).
 */
export async function startJourneyServer(
  env: Record<string, string> = {},
): Promise<{ baseURL: string; stop: () => Promise<void> }> {
  await buildWebIfNeeded();
  await buildServerIfStale();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'web-e2e-'));
  let server: ServerProcess;
  try {
    server = await startServer(
      {
        DATA_DIR: dataDir,
        SERVE_WEB: 'true',
        WEB_DIST_DIR: DIST_DIR,
        DEMO_DATA: 'true',
        JOBS_INTERVAL_SECONDS: '60',
        // The journeys sign in some thirty times within a few minutes, all from 127.0.0.1; the limit
        // itself is tested on the API (iam.test.ts).
        LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
        // The webhooks journey's receiver listens on 127.0.0.1 over plain http (decision 0038).
        WEBHOOKS_ALLOW_HTTP: 'true',
        WEBHOOKS_POLL_MS: '300',
        ...env,
      },
      { from: 'bundle' },
    );
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  let stopping = false;
  // A server that ends on its own leaves the journeys "connection refused": say why.
  server.child.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`the journeys' server ended (${code ?? signal}):\n${server.output()}`);
    }
  });
  return {
    baseURL: server.baseURL,
    stop: async () => {
      stopping = true;
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
