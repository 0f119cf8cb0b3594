// Once per `vitest run`: one PGlite cluster, migrated by this checkout's migrations, dumped to a
// file that every test file's in-memory PGlite starts from (test/databases.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../src/db/client';
import { migrate } from '../src/db/migrate';

export default async function setup(project: TestProject) {
  const database = await createDatabase({});
  try {
    await migrate(database);
    const dump = await database.dumpDataDir!();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-template-'));
    const file = path.join(dir, 'migrated.tar');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', file);
    return () => fs.rmSync(dir, { recursive: true, force: true });
  } finally {
    await database.close();
  }
}
