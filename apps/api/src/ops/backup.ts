// Logical backups and restores of the API's database (issue 15 item 8, decision 0021).
//
// PostgreSQL: `pg_dump -Fc` of DATABASE_URL (one REPEATABLE READ snapshot: consistent while the
// API keeps writing), restored with `pg_restore` into an EMPTY database only. The client tools are
// the machine's, of the server's major version or newer.
// Embedded PGlite: the data directory as PGlite's own tarball (`dumpDataDir`), taken with the
// server STOPPED (PGlite is one process; a second opener would corrupt it), restored into an empty
// directory (`loadDataDir`). The tarball holds the whole directory, the MFA key file included.
//
// After either restore the migrations run (an older backup catches up with the code) and the
// ledger invariants are checked; anything off throws.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { childProcessEnvironment } from '../config';
import { createDatabase, PGLITE_EXTENSIONS } from '../db/client';
import { migrate } from '../db/migrate';
import { assertLedgerInvariants, type LedgerSummary } from '../modules/ledger';

const run = promisify(execFile);

/** What to back up or restore into: DATABASE_URL, or the embedded database's DATA_DIR. */
export type BackupTarget =
  | {
      kind: 'postgres';
      url: string;
      /** PG_BIN_DIR: where pg_dump and pg_restore are, when not where Debian puts them. */
      pgBinDir?: string | undefined;
    }
  | { kind: 'pglite'; dataDir: string };

/** A refusal the operator can act on (wrong kind of file, target not empty, server running). */
export class BackupRefused extends Error {
  override name = 'BackupRefused';
}

export interface BackupResult {
  file: string;
  bytes: number;
}

export interface RestoreResult {
  /** Migrations applied after the restore (newer than the backup). */
  applied: string[];
  /** What the invariant checker counted. */
  summary: LedgerSummary;
}

/** `pg_dump -Fc` archives start with these bytes; gzip (PGlite's tarball) with 1f 8b. */
const PG_ARCHIVE_MAGIC = Buffer.from('PGDMP');
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

export const extensionFor = (kind: BackupTarget['kind']) =>
  kind === 'postgres' ? 'dump' : 'tar.gz';

/** `backups/2026-07-01T09-30-00-000Z.dump`, under `root`. */
export function defaultBackupFile(root: string, kind: BackupTarget['kind'], now = new Date()) {
  const stamp = now.toISOString().replace(/:/g, '-').replace('.', '-');
  return path.join(root, 'backups', `${stamp}.${extensionFor(kind)}`);
}

export async function backup(target: BackupTarget, file: string): Promise<BackupResult> {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  if (fs.existsSync(file)) throw new BackupRefused(`${file} already exists; name another file`);
  // Written beside the target and renamed when complete: a failed dump leaves no file that looks
  // like a backup.
  const partial = `${file}.partial`;
  try {
    if (target.kind === 'postgres') await dumpPostgres(target, partial);
    else await dumpPglite(target.dataDir, partial);
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return { file, bytes: fs.statSync(file).size };
}

export async function restore(target: BackupTarget, file: string): Promise<RestoreResult> {
  if (!fs.existsSync(file)) throw new BackupRefused(`${file} does not exist`);
  const head = Buffer.alloc(5);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 5, 0);
  } finally {
    fs.closeSync(fd);
  }
  const isArchive = head.subarray(0, 5).equals(PG_ARCHIVE_MAGIC);
  const isTarball = head.subarray(0, 2).equals(GZIP_MAGIC);
  if (target.kind === 'postgres' && !isArchive) {
    throw new BackupRefused(
      `${file} is not a pg_dump custom-format archive` +
        (isTarball
          ? ' (it looks like an embedded-database backup: restore it without DATABASE_URL)'
          : ''),
    );
  }
  if (target.kind === 'pglite' && !isTarball) {
    throw new BackupRefused(
      `${file} is not an embedded-database backup` +
        (isArchive ? ' (it is a PostgreSQL archive: restore it with DATABASE_URL set)' : ''),
    );
  }
  if (target.kind === 'postgres') await restorePostgres(target, file);
  else await restorePglite(target.dataDir, file);
  return checkRestored(target);
}

/** Migrations, then the ledger invariants, on the restored database. */
async function checkRestored(target: BackupTarget): Promise<RestoreResult> {
  const database = await createDatabase(
    target.kind === 'postgres' ? { url: target.url, poolSize: 2 } : { dataDir: target.dataDir },
  );
  try {
    const applied = await migrate(database);
    const summary = await assertLedgerInvariants(database.db);
    return { applied, summary };
  } finally {
    await database.close();
  }
}

// ------------------------------------------------------------------------------------------------
// PostgreSQL

/**
 * The URL without its password, and the environment carrying it: a password in pg_dump's
 * arguments would show in `ps` to every user of the machine.
 */
function connection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env = childProcessEnvironment(password ? { PGPASSWORD: password } : {});
  return { url: parsed.toString(), env };
}

async function serverMajor(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>(
      "SELECT current_setting('server_version_num') AS v",
    );
    return Math.floor(Number(rows[0]!.v) / 10_000);
  } finally {
    await client.end();
  }
}

async function toolMajor(binary: string): Promise<number | null> {
  try {
    const { stdout } = await run(binary, ['--version']);
    const match = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * pg_dump or pg_restore able to handle a server of `major`: PG_BIN_DIR's when set, else Debian's
 * `/usr/lib/postgresql/<major>/bin`, else the newest installed there, else the one on the PATH;
 * each is asked its version, which must be `major` or newer (pg_dump refuses newer servers).
 */
export async function findPostgresTool(
  tool: 'pg_dump' | 'pg_restore',
  major: number,
  binDir?: string,
): Promise<string> {
  const candidates: string[] = [];
  if (binDir) candidates.push(path.join(binDir, tool));
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const installed = fs
      .readdirSync(debian)
      .map(Number)
      .filter((v) => Number.isInteger(v) && v >= major)
      .sort((a, b) => (a === major ? -1 : b === major ? 1 : b - a));
    for (const v of installed) candidates.push(path.join(debian, String(v), 'bin', tool));
  }
  candidates.push(tool);
  const seen: string[] = [];
  for (const candidate of candidates) {
    if (candidate.includes('/') && !fs.existsSync(candidate)) continue;
    const found = await toolMajor(candidate);
    if (found !== null && found >= major) return candidate;
    if (found !== null) seen.push(`${candidate} (${found})`);
  }
  throw new BackupRefused(
    `no ${tool} of PostgreSQL ${major} or newer found` +
      (seen.length ? ` (found ${seen.join(', ')})` : '') +
      `; install postgresql-client-${major} or set PG_BIN_DIR`,
  );
}

type PostgresTarget = Extract<BackupTarget, { kind: 'postgres' }>;

async function dumpPostgres({ url, pgBinDir }: PostgresTarget, file: string) {
  const major = await serverMajor(url);
  const pgDump = await findPostgresTool('pg_dump', major, pgBinDir);
  const { url: safeUrl, env } = connection(url);
  // One transaction at REPEATABLE READ: every table as of one instant, the API writing meanwhile.
  // No owners or grants: the archive restores into a database of another role.
  await runTool(
    pgDump,
    ['--format=custom', '--no-owner', '--no-acl', `--file=${file}`, safeUrl],
    env,
  );
  // The archive's table of contents reads back: the file is whole.
  await runTool(await findPostgresTool('pg_restore', major, pgBinDir), ['--list', file], env);
}

/** Relations in the database's own schemas: a non-empty target is refused. */
async function userRelations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT n.nspname || '.' || c.relname AS name
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
        ORDER BY 1 LIMIT 5`,
    );
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

async function restorePostgres({ url, pgBinDir }: PostgresTarget, file: string) {
  const existing = await userRelations(url);
  if (existing.length > 0) {
    throw new BackupRefused(
      `the target database is not empty (it has ${existing.join(', ')}…); ` +
        'restore into a new database (createdb) and point DATABASE_URL at it',
    );
  }
  const pgRestore = await findPostgresTool('pg_restore', await serverMajor(url), pgBinDir);
  const { url: safeUrl, env } = connection(url);
  // All or nothing: a failed restore leaves the database empty, to be tried again.
  await runTool(
    pgRestore,
    [
      '--no-owner',
      '--no-acl',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${safeUrl}`,
      file,
    ],
    env,
  );
}

async function runTool(binary: string, args: string[], env: NodeJS.ProcessEnv) {
  try {
    await run(binary, args, { env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`${path.basename(binary)} failed${stderr ? `:\n${stderr}` : ''}`, {
      cause: error,
    });
  }
}

// ------------------------------------------------------------------------------------------------
// Embedded PGlite

/** PGlite writes postmaster.pid while a process has the directory open and removes it on close. */
const PID_FILE = 'postmaster.pid';

async function dumpPglite(dataDir: string, file: string) {
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new BackupRefused(`${dataDir} holds no embedded database (no PG_VERSION)`);
  }
  if (fs.existsSync(path.join(dataDir, PID_FILE))) {
    throw new BackupRefused(
      `${dataDir} is open (${PID_FILE} present): stop the server first. If no server runs (it ` +
        'was killed), start it and stop it once so that it closes the database cleanly.',
    );
  }
  const client = await PGlite.create({ dataDir, extensions: PGLITE_EXTENSIONS });
  try {
    const tarball = await client.dumpDataDir('gzip');
    fs.writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  } finally {
    await client.close();
  }
}

async function restorePglite(dataDir: string, file: string) {
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new BackupRefused(
      `${dataDir} is not empty: restore into a new directory and point DATA_DIR at it`,
    );
  }
  const created = !fs.existsSync(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const client = await PGlite.create({
      dataDir,
      loadDataDir: new Blob([fs.readFileSync(file)]),
      extensions: PGLITE_EXTENSIONS,
    });
    await client.close();
  } catch (error) {
    // Leave nothing half-written behind; the directory was empty (or absent) before.
    if (created) fs.rmSync(dataDir, { recursive: true, force: true });
    else
      for (const entry of fs.readdirSync(dataDir))
        fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    throw error;
  }
}
