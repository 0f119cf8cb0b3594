// Backups and restores (issue 15 item 8, decision 0021): a programme (two companies, employees,
// orders, refunds, a monthly reset) goes through backup and restore and comes back row for row,
// with the same balances and invariants; a non-empty target, a running embedded server and a
// backup of the other kind are refused. PostgreSQL goes through the two npm scripts as processes.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnvironment, REPO_ROOT } from '../config';
import { createDatabase, queryRows, type Database, type Executor } from '../db/client';
import { migrate } from '../db/migrate';
import { assertLedgerInvariants } from '../modules/ledger';
import { buildTestApp, createTestApp, type TestApp } from '../../test/app';
import { testDatabaseKinds } from '../../test/databases';
import { order } from '../../test/ledger';
import { buildProgramme, ledgerRows, type Programme } from '../../test/reporting';
import { backup, BackupRefused, defaultBackupFile, restore } from './backup';

const exec = promisify(execFile);

/** Everything a restore must bring back: the ledger, every balance, the orders, the invariants. */
async function snapshot(executor: Executor) {
  return {
    ledger: await ledgerRows(executor),
    companies: await queryRows(
      executor,
      sql`SELECT id, code, token_balance, token_month FROM companies ORDER BY id`,
    ),
    employees: await queryRows(
      executor,
      sql`SELECT id, company_id, employee_id, status, available_tokens, token_month
            FROM employees ORDER BY id`,
    ),
    orders: await queryRows(
      executor,
      sql`SELECT id, employee_id, subtotal, refunded_amount, status FROM orders ORDER BY id`,
    ),
    invariants: await assertLedgerInvariants(executor),
  };
}

/** One more order on a restored database: its sequences go on from the backup's. */
async function orderOnRestored(database: Database, programme: Programme) {
  const t = await buildTestApp({ database, url: undefined, drop: () => database.close() });
  try {
    const placed = await order(t.app.deps, programme.t1, programme.a, programme.a1, 5);
    const summary = await assertLedgerInvariants(database.db);
    return { placed, summary };
  } finally {
    await t.close();
  }
}

const tempDirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a backup file', () => {
  it('is named backups/<timestamp>.<ext> by default, the extension by database kind', () => {
    const now = new Date('2026-07-01T09:30:05.123Z');
    expect(defaultBackupFile('/srv/app', 'postgres', now)).toBe(
      '/srv/app/backups/2026-07-01T09-30-05-123Z.dump',
    );
    expect(defaultBackupFile('/srv/app', 'pglite', now)).toBe(
      '/srv/app/backups/2026-07-01T09-30-05-123Z.tar.gz',
    );
  });

  it('of one kind is refused by a restore of the other, which touches nothing', async () => {
    const dir = tempDir('backup-kinds-');
    const archive = path.join(dir, 'x.dump');
    fs.writeFileSync(archive, Buffer.concat([Buffer.from('PGDMP'), crypto.randomBytes(64)]));
    const target = path.join(dir, 'data');
    await expect(restore({ kind: 'pglite', dataDir: target }, archive)).rejects.toThrow(
      /is a PostgreSQL archive/,
    );
    expect(fs.existsSync(target)).toBe(false);
    const tarball = path.join(dir, 'x.tar.gz');
    fs.writeFileSync(tarball, Buffer.from([0x1f, 0x8b, 8, 0, 0]));
    await expect(
      restore({ kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' }, tarball),
    ).rejects.toThrow(/embedded-database backup/);
  });
});

describe('backup and restore of the embedded database (PGlite in a directory)', () => {
  const dir = tempDir('backup-pglite-');
  const source = path.join(dir, 'source');
  const restored = path.join(dir, 'restored');
  const file = path.join(dir, 'backups', 'programme.tar.gz');
  let t: TestApp;
  let programme: Programme;
  let before: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    const database = await createDatabase({ dataDir: source });
    await migrate(database);
    t = await buildTestApp({ database, url: undefined, drop: () => database.close() });
    programme = await buildProgramme(t);
    before = await snapshot(database.db);
    // The key file of an embedded database's TOTP secrets lives in DATA_DIR: it must travel too.
    fs.writeFileSync(path.join(source, 'mfa-encryption.key'), 'ab'.repeat(32), { mode: 0o600 });
  });

  it('refuses to back up a directory the server has open', async () => {
    await expect(backup({ kind: 'pglite', dataDir: source }, file)).rejects.toThrow(
      /is open \(postmaster\.pid present\): stop the server first/,
    );
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  });

  it('round-trips the programme once the server is stopped: same rows, balances, invariants', async () => {
    await t.close();
    const made = await backup({ kind: 'pglite', dataDir: source }, file);
    expect(made.bytes).toBeGreaterThan(0);
    expect(before.invariants).toMatchObject({ companies: 2, employees: 4, orders: 6 });
    expect(before.ledger.length).toBeGreaterThan(20);

    const { applied, summary } = await restore({ kind: 'pglite', dataDir: restored }, file);
    expect(applied).toEqual([]);
    expect(summary).toEqual(before.invariants);
    expect(fs.readFileSync(path.join(restored, 'mfa-encryption.key'), 'utf8')).toBe(
      'ab'.repeat(32),
    );

    const database = await createDatabase({ dataDir: restored });
    expect(await snapshot(database.db)).toEqual(before);
    const next = await orderOnRestored(database, programme);
    expect(next.placed.id).toBeGreaterThan(Math.max(...Object.values(programme.orders)));
    expect(next.summary.orders).toBe(7);
  });

  it('refuses a second backup onto an existing file and a restore into a non-empty directory', async () => {
    await expect(backup({ kind: 'pglite', dataDir: source }, file)).rejects.toThrow(
      /already exists/,
    );
    const rowsBefore = fs.readdirSync(restored).length;
    const refused = restore({ kind: 'pglite', dataDir: restored }, file);
    await expect(refused).rejects.toBeInstanceOf(BackupRefused);
    await expect(refused).rejects.toThrow(/is not empty/);
    expect(fs.readdirSync(restored)).toHaveLength(rowsBefore);
  });
});

const postgresKinds = (await testDatabaseKinds()).filter((k) => k === 'postgres');

describe.each(postgresKinds)('backup and restore on PostgreSQL (%s), through npm run', () => {
  const dir = tempDir('backup-postgres-');
  const made: string[] = [];
  let t: TestApp;
  let programme: Programme;
  let before: Awaited<ReturnType<typeof snapshot>>;

  /** The test server's maintenance database, beside the source database. */
  const adminUrl = () => {
    const url = new URL(t.db.url!);
    url.pathname = '/postgres';
    return url.toString();
  };
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  /** A new, empty database of this test's own. */
  const emptyDatabase = async () => {
    const name = `restore_${Date.now()}_${crypto.randomBytes(3).toString('hex')}`;
    await admin(`CREATE DATABASE ${name}`);
    made.push(name);
    const url = new URL(t.db.url!);
    url.pathname = `/${name}`;
    return url.toString();
  };
  /** `npm run backup` / `npm run restore`, as an operator runs them (the same tsx entry). */
  const script = async (name: 'backup' | 'restore', url: string, file: string) => {
    try {
      const { stdout } = await exec(
        process.execPath,
        ['--import', 'tsx', `apps/api/scripts/${name}.ts`, file],
        { cwd: REPO_ROOT, env: childProcessEnvironment({ DATABASE_URL: url }), timeout: 120_000 },
      );
      return { code: 0, stdout, stderr: '' };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  };

  beforeAll(async () => {
    t = await createTestApp('postgres');
    programme = await buildProgramme(t);
    before = await snapshot(t.db.database.db);
  });
  afterAll(async () => {
    await t.close();
    for (const name of made) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('round-trips the programme: same rows, balances, invariants, and the sequences go on', async () => {
    const file = path.join(dir, 'programme.dump');
    const dumped = await script('backup', t.db.url!, file);
    expect(dumped).toMatchObject({ code: 0 });
    expect(dumped.stdout).toContain(`Backup written: ${file}`);
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP');

    const target = await emptyDatabase();
    const restored = await script('restore', target, file);
    expect(restored).toMatchObject({ code: 0 });
    expect(restored.stdout).toContain('Migrations applied since the backup: none.');
    expect(restored.stdout).toContain(
      `Ledger invariants hold: ${before.invariants.rows} ledger rows, 2 companies, 4 employees, 6 orders`,
    );

    const database = await createDatabase({ url: target, poolSize: 4 });
    expect(await snapshot(database.db)).toEqual(before);
    const next = await orderOnRestored(database, programme);
    expect(next.placed.id).toBeGreaterThan(Math.max(...Object.values(programme.orders)));
    expect(next.summary.orders).toBe(7);
  });

  it('takes one consistent snapshot while orders keep coming', async () => {
    const file = path.join(dir, 'busy.dump');
    const { a, a1, b, b1, t1, t2 } = programme;
    const deps = t.app.deps;
    const orders = Array.from({ length: 12 }, (_, i) =>
      i % 2 ? order(deps, t1, a, a1, 1) : order(deps, t2, b, b1, 1),
    );
    const [result] = await Promise.all([
      backup({ kind: 'postgres', url: t.db.url! }, file),
      ...orders,
    ]);
    expect(result.bytes).toBeGreaterThan(0);
    const after = await assertLedgerInvariants(t.db.database.db);

    const target = await emptyDatabase();
    const { summary } = await restore({ kind: 'postgres', url: target }, file);
    // Whatever instant the dump saw, every order in it is whole (its purchase row, its balances).
    expect(summary.orders).toBeGreaterThanOrEqual(before.invariants.orders);
    expect(summary.orders).toBeLessThanOrEqual(after.orders);
    expect(summary.rows - before.invariants.rows).toBe(summary.orders - before.invariants.orders);
  });

  it('refuses to restore into a database that is not empty, and leaves it as it was', async () => {
    const file = path.join(dir, 'programme.dump');
    const summary = await assertLedgerInvariants(t.db.database.db);
    const refused = await script('restore', t.db.url!, file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Restore refused: the target database is not empty/);
    expect(await assertLedgerInvariants(t.db.database.db)).toEqual(summary);
  });
});
