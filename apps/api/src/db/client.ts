import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { SQLWrapper } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The query builder every repository receives: the same on PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle, as passed to repositories (STYLE 3). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything a repository can run a query on: the database or an open transaction. */
export type Executor = Db | Tx;

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<T>(executor: Executor, query: SQLWrapper | string): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A connection pool's state, for the metrics (DESIGN 4.2). */
export interface PoolStats {
  /** Connections open, idle or in use. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** The pool's ceiling (DATABASE_POOL_SIZE). */
  max: number;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  /** The primary: every write, and every read that must see a just-made write. */
  db: Db;
  /**
   * Reports, dashboards and exports only: the read-only pool of DATABASE_READ_URL (a streaming
   * replica, which may lag the primary), or `db` itself when none is configured (decision 0023).
   */
  read: Db;
  /** Runs SQL text that may hold several statements (migrations). */
  exec(sqlText: string): Promise<void>;
  /** Runs `fn` while holding a session-level advisory lock, on one connection. */
  withAdvisoryLock<T>(
    key: number,
    fn: (exec: (sqlText: string) => Promise<void>) => Promise<T>,
  ): Promise<T>;
  /** True when the database answers. */
  ping(): Promise<boolean>;
  /** The pool's state; null on PGlite, which has one connection and no pool. */
  poolStats(): PoolStats | null;
  /** The read pool's state; null when reads share the primary's pool (or on PGlite). */
  readPoolStats(): PoolStats | null;
  /** PGlite only: the whole cluster as an uncompressed tarball (a migrated template for tests). */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… for a real server; absent for the embedded PGlite. */
  url?: string | undefined;
  /**
   * postgres://… of a read replica for reports, dashboards and exports (PostgreSQL only); absent:
   * they read `url`. Its sessions are read-only whatever the server is, so no write can land there.
   */
  readUrl?: string | undefined;
  /** Directory of the embedded database; absent means in memory (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
  /** Cut off any statement running longer than this (PostgreSQL only). */
  statementTimeoutMs?: number;
  /**
   * Give up on a new connection after this (PostgreSQL only; 5 s, so a failover answers 503
   * quickly). The test suites' own databases wait longer on a machine running every suite at once.
   */
  connectTimeoutMs?: number;
  /** PGlite in memory only: start from this dump (`dumpDataDir`) instead of an empty cluster. */
  loadDataDir?: Blob | undefined;
  /**
   * PGlite only: its shared_buffers (`16MB`) instead of the cluster's 128MB. The test suites
   * start hundreds of short-lived instances, each of which spent a quarter of its start-up
   * setting up buffers it never filled.
   */
  pgliteSharedBuffers?: string | undefined;
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? createPostgres(options.url, options)
    : createPglite(options.dataDir, options.loadDataDir, options.pgliteSharedBuffers);
}

// int8 and numeric come back as strings from pg; token amounts are integers within 2^53,
// which the schema enforces, so parsing them as numbers is exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Gives up on a connection that cannot be made within this: a failover answers 503 quickly. */
const CONNECT_TIMEOUT_MS = 5_000;

function createPool(url: string, max: number, options: DatabaseOptions, readOnly: boolean) {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    // A replica refuses writes anyway; this makes a read pool on any server refuse them too.
    ...(readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  // Nor may a checked-out one: the pool listens only while a client is idle, and a client held by a
  // transaction or the migration lock whose server goes (a failover, a terminated backend) emits
  // 'error' with no listener, which ends the process (seen in the cluster test, an API instance
  // exiting when the primary was killed). Its queries are rejected anyway; the pool drops it.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

const statsOf = (pool: pg.Pool, max: number): PoolStats => ({
  total: pool.totalCount,
  idle: pool.idleCount,
  waiting: pool.waitingCount,
  max,
});

async function createPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const max = options.poolSize ?? 20;
  const pool = createPool(url, max, options, false);
  const readPool = options.readUrl ? createPool(options.readUrl, max, options, true) : null;
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as Db;
  const read = readPool
    ? (drizzlePg({ client: readPool, schema, casing: 'snake_case' }) as unknown as Db)
    : db;
  return {
    kind: 'postgres',
    db,
    read,
    exec: async (sqlText) => {
      await pool.query(sqlText);
    },
    withAdvisoryLock: async (key, fn) => {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [key]);
        try {
          return await fn(async (sqlText) => {
            await client.query(sqlText);
          });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [key]);
        }
      } finally {
        client.release();
      }
    },
    ping: async () => {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    poolStats: () => statsOf(pool, max),
    readPoolStats: () => (readPool ? statsOf(readPool, max) : null),
    close: async () => {
      await Promise.all([pool.end(), readPool?.end()]);
    },
  };
}

/**
 * The extensions the migrations create, which PGlite loads only when named: pg_trgm and btree_gin
 * serve the employee search (migrations 0011, 0025). Every PGlite the app opens names these.
 */
export const PGLITE_EXTENSIONS = { pg_trgm, btree_gin };

async function createPglite(
  dataDir: string | undefined,
  loadDataDir: Blob | undefined,
  sharedBuffers: string | undefined,
): Promise<Database> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    ...(sharedBuffers
      ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] }
      : {}),
    extensions: PGLITE_EXTENSIONS,
  });
  const db = drizzlePglite({ client, schema, casing: 'snake_case' }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    read: db,
    exec: async (sqlText) => {
      await client.exec(sqlText);
    },
    // PGlite has one connection and runs one statement at a time: the lock is the process itself.
    withAdvisoryLock: (_key, fn) =>
      fn(async (sqlText) => {
        await client.exec(sqlText);
      }),
    ping: async () => {
      try {
        await client.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    poolStats: () => null,
    readPoolStats: () => null,
    dumpDataDir: () => client.dumpDataDir('none'),
    close: () => client.close(),
  };
}
