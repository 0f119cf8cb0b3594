/**
 * Scenario 7: a newcomer's first start. The API starts on the embedded database (PGlite) in an
 * empty data directory with the demo programme, as `npm start` does on a fresh checkout; the
 * figure is the time until /readyz answers 200 (migrations, demo users and three months of demo
 * history). This was a wall-clock assertion in demo-programme.test.ts; tests assert behaviour,
 * the bench times it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '@app/api/bench';
import { round } from '../stats';

export interface FirstStartScenario {
  /** From spawning the API process to /readyz answering 200. */
  seconds: number;
}

export async function runFirstStartScenario(
  log: (message: string) => void,
): Promise<FirstStartScenario> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-first-start-'));
  const started = performance.now();
  const server = await startServer({ DATA_DIR: dataDir, DEMO_DATA: 'true' });
  const seconds = round((performance.now() - started) / 1000, 1);
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  log(`  first start on PGlite with the demo programme: ${seconds} s`);
  return { seconds };
}
