// Once per `vitest run`: the migrated starting points that every test database copies
// (test/databases.ts): a PGlite cluster dumped to a file, and, when the server is reachable, a
// PostgreSQL database used as a template. Both are made by this checkout's migrations.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { OPENAPI_FILE } from '../src/openapi-document';
import {
  adminQuery,
  isPostgresReachable,
  postgresDatabaseUrl,
  TEST_CONNECT_TIMEOUT_MS,
} from './postgres-admin';

async function pgliteTemplate(): Promise<{ file: string; remove(): void }> {
  const database = await createDatabase({});
  try {
    await migrate(database);
    const dump = await database.dumpDataDir!();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-template-'));
    const file = path.join(dir, 'migrated.tar');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
  } finally {
    await database.close();
  }
}

async function postgresTemplate(): Promise<{ name: string; remove(): Promise<void> } | null> {
  if (!(await isPostgresReachable())) return null;
  const name = `test_template_${crypto.randomBytes(6).toString('hex')}`;
  const remove = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${name}`);
  try {
    const database = await createDatabase({
      url: postgresDatabaseUrl(name),
      connectTimeoutMs: TEST_CONNECT_TIMEOUT_MS,
    });
    try {
      await migrate(database);
    } finally {
      // A template must have no session open while it is copied.
      await database.close();
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { name, remove };
}

/**
 * The operations the document lists that no test's app answered (test/contract.ts records them).
 * The full suite (`npm test`, CONTRACT_COVERAGE=1) fails on any, so every operation is exercised
 * and so checked against the document; a run of some files only does not check.
 */
function unexercisedOperations(dir: string): string[] {
  const exercised = new Set(
    fs
      .readdirSync(dir)
      .flatMap((file) => fs.readFileSync(path.join(dir, file), 'utf8').split('\n'))
      .filter(Boolean),
  );
  const document = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths)
    .flatMap(([p, byMethod]) => Object.keys(byMethod).map((m) => `${m.toUpperCase()} ${p}`))
    .filter((operation) => !exercised.has(operation));
}

export default async function setup(project: TestProject) {
  const [pglite, postgres] = await Promise.all([pgliteTemplate(), postgresTemplate()]);
  const coverage = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-coverage-'));
  project.provide('pgliteTemplate', pglite.file);
  project.provide('postgresTemplate', postgres?.name ?? '');
  project.provide('contractCoverageDir', coverage);
  return async () => {
    pglite.remove();
    await postgres?.remove();
    const missing = process.env.CONTRACT_COVERAGE === '1' ? unexercisedOperations(coverage) : [];
    fs.rmSync(coverage, { recursive: true, force: true });
    if (missing.length > 0) {
      throw new Error(
        `No test exercised these operations of docs/openapi.json:\n  ${missing.join('\n  ')}`,
      );
    }
  };
}
