// A PostgreSQL cluster of a test's own, in a temporary directory on a free port, that the test may
// stop and start at will (the shared server on 5432 must never be restarted: other test files use
// it). Run as the `postgres` OS user when the tests run as root, as PostgreSQL refuses root.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process';

const run = promisify(execFile);

/** The directory holding initdb and pg_ctl: PG_BIN_DIR, else the newest /usr/lib/postgresql/N/bin. */
export function postgresBinDir(): string | null {
  const explicit = process.env.PG_BIN_DIR;
  if (explicit) return fs.existsSync(path.join(explicit, 'initdb')) ? explicit : null;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

const isRoot = () => process.getuid?.() === 0;

function postgresUserIds(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/**
 * Why a private cluster cannot be made here, or null when it can. Under REQUIRE_POSTGRES=1 (CI)
 * a missing cluster is a failure, not a reason to skip.
 */
export function privatePostgresUnavailable(): string | null {
  let reason: string | null = null;
  if (!postgresBinDir()) reason = 'no initdb found (set PG_BIN_DIR)';
  else if (isRoot() && !postgresUserIds()) reason = 'running as root without a postgres OS user';
  if (reason && process.env.REQUIRE_POSTGRES === '1') {
    throw new Error(`REQUIRE_POSTGRES=1 but a private PostgreSQL cannot be started: ${reason}`);
  }
  return reason;
}

export interface PrivatePostgres {
  port: number;
  /** postgres://… of a database on this cluster. */
  url(database?: string, applicationName?: string): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('startPrivatePostgres: no initdb found (set PG_BIN_DIR)');
  const owner = isRoot() ? postgresUserIds() : null;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-private-'));
  const data = path.join(base, 'data');
  const socket = path.join(base, 'socket');
  const log = path.join(base, 'postgres.log');
  fs.mkdirSync(data, { mode: 0o700 });
  fs.mkdirSync(socket);
  fs.writeFileSync(log, '');
  if (owner) {
    fs.chmodSync(base, 0o755);
    for (const p of [data, socket, log]) fs.chownSync(p, owner.uid, owner.gid);
  }
  const asOwner = (tool: string, args: string[]) =>
    owner
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], {
          timeout: 120_000,
        })
      : run(path.join(bin, tool), args, { timeout: 120_000 });

  await asOwner('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${socket}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=60',
    '-c shared_buffers=32MB',
  ].join(' ');
  const start = async () => {
    await asOwner('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '120', '-o', options, 'start']);
  };
  const stop = async () => {
    await asOwner('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '120', 'stop']);
  };
  await start();
  let running = true;
  return {
    port,
    url: (database = 'postgres', applicationName?: string) =>
      `postgres://postgres@127.0.0.1:${port}/${database}` +
      (applicationName ? `?application_name=${applicationName}` : ''),
    stop: async () => {
      await stop();
      running = false;
    },
    start: async () => {
      await start();
      running = true;
    },
    destroy: async () => {
      if (running) await stop().catch(() => undefined);
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
