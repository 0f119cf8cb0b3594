// Decision 0071: with WEBHOOKS_ALLOW_HTTP=true (development and tests only) the server says so once,
// as a warning, when it starts; without it, nothing. On the real server process, each database.
// The same for CLOCK_START (decision 0085), whose clock the server then reads.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../test/databases';
import { httpAs, signInOverHttp } from '../test/http-session';
import { startServer, type ServerProcess } from '../test/server-process';

/** The JSON log lines of a server's output (pino writes one object a line). */
const logLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; setting?: string });

describe.each(await testDatabaseKinds())('the start warning on %s', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A fresh database of this kind for one server: PostgreSQL's URL, or an embedded directory. */
  const databaseEnv = async (): Promise<Record<string, string>> => {
    if (kind === 'postgres') {
      const db: TestDatabase = await createTestDatabase('postgres');
      cleanups.push(() => db.drop());
      return { DATABASE_URL: db.url! };
    }
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'start-warning-'));
    // The server may still be letting go of its files when a timed-out test cleans up.
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true, maxRetries: 5 }));
    return { DATA_DIR: dir };
  };

  const startedWith = async (
    env: Record<string, string>,
    meanwhile: (server: ServerProcess) => Promise<void> = async () => undefined,
  ): Promise<string> => {
    const server: ServerProcess = await startServer({ ...(await databaseEnv()), ...env });
    try {
      await meanwhile(server);
      return server.output();
    } finally {
      await server.stop();
    }
  };

  it('warns once at start with WEBHOOKS_ALLOW_HTTP=true, and not without it', async () => {
    const on = logLines(await startedWith({ WEBHOOKS_ALLOW_HTTP: 'true' }));
    const warnings = on.filter((line) => line.setting === 'WEBHOOKS_ALLOW_HTTP');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40 });
    expect(warnings[0]!.msg).toMatch(/^WEBHOOKS_ALLOW_HTTP=true: .*development and tests only/);

    const off = logLines(await startedWith({}));
    expect(off.filter((line) => line.setting === 'WEBHOOKS_ALLOW_HTTP')).toEqual([]);
    // Two real servers, each on a fresh database (PGlite's initdb and every migration): about 10 s
    // on a quiet machine, over 60 s on a busy two-core CI machine. A hang detector, not a measure.
  }, 240_000);

  it('warns once with CLOCK_START, whose day the server then takes for today', async () => {
    let month: string | undefined;
    const lines = logLines(
      await startedWith(
        {
          CLOCK_START: '2025-12-03T10:00:00Z',
          ADMIN_USERNAME: 'clock.admin',
          ADMIN_PASSWORD: 'Clock@2025x',
        },
        async ({ baseURL }) => {
          const session = await signInOverHttp(baseURL, 'clock.admin', 'Clock@2025x');
          const answer = await httpAs(baseURL, session, 'GET', '/api/v1/dashboard');
          month = (JSON.parse(answer.text) as { data: { month: string } }).data.month;
        },
      ),
    );
    const warnings = lines.filter((line) => line.setting === 'CLOCK_START');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toMatch(
      /^CLOCK_START=2025-12-03T10:00:00Z: .*development and tests only/,
    );
    expect(month).toBe('2025-12');
  }, 240_000);
});
