// Starts the loopback HA cluster: etcd, two Patroni-managed PostgreSQL nodes (primary and
// synchronous standby), HAProxy, and N instances of the real API server behind it.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { REPO_ROOT } from '../../src/config';
import { BUNDLE_ENTRY, buildServerIfStale, NODE_FLAGS } from '../build';
import {
  etcdArguments,
  haproxyConfig,
  patroniYaml,
  SCOPE,
  type NodePorts,
  type Ports,
} from './config-files';
import type { Binaries } from './packages';
import {
  freePort,
  sleep,
  StopWaiting,
  until,
  waitScale,
  type Managed,
  type Workspace,
} from './processes';

const run = promisify(execFile);

export const DATABASE = 'tokens';
export const ADMIN_USERNAME = 'clusteradmin';

export interface PgNode extends NodePorts {
  dir: string;
  config: string;
  patroni: Managed;
}

export interface ApiInstance {
  name: string;
  port: number;
  url: string;
  process: Managed | null;
}

export interface Member {
  name: string;
  role: string;
  state: string;
  timeline?: number;
  lag?: number | string;
}

export interface ClusterOptions {
  apiInstances: number;
  /** Environment of the API instances on top of the cluster's own. */
  apiEnv?: Record<string, string>;
  log: (line: string) => void;
}

export class Cluster {
  readonly nodes: PgNode[] = [];
  readonly apis: ApiInstance[] = [];
  // Upper and lower case, a digit and a symbol whatever the random part holds (spec 5's rules).
  readonly adminPassword = `Cl-9${crypto.randomBytes(9).toString('base64url')}`;
  private readonly mfaKey = crypto.randomBytes(32).toString('hex');
  private haproxy: Managed | null = null;

  private constructor(
    readonly ws: Workspace,
    readonly bin: Binaries,
    readonly ports: Ports,
    private readonly options: ClusterOptions,
  ) {}

  /** postgres:// through HAProxy's write port (the primary), or its read port. */
  databaseUrl(kind: 'write' | 'read' = 'write', applicationName?: string): string {
    const port = kind === 'write' ? this.ports.write : this.ports.read;
    return (
      `postgres://postgres@127.0.0.1:${port}/${DATABASE}` +
      (applicationName ? `?application_name=${applicationName}` : '')
    );
  }

  get httpUrl(): string {
    return `http://127.0.0.1:${this.ports.http}`;
  }

  static async start(ws: Workspace, bin: Binaries, options: ClusterOptions): Promise<Cluster> {
    const ports: Ports = {
      etcdClient: await freePort(),
      etcdPeer: await freePort(),
      write: await freePort(),
      read: await freePort(),
      http: await freePort(),
      stats: await freePort(),
    };
    const cluster = new Cluster(ws, bin, ports, options);
    await cluster.startEtcd();
    await cluster.startPostgres();
    await cluster.startHaproxy();
    await cluster.createDatabase();
    // The API instances run the bundle, as production does (decision 0041).
    await buildServerIfStale();
    await Promise.all(cluster.apis.map((api) => cluster.startApi(api)));
    return cluster;
  }

  private async startEtcd() {
    const { log } = this.options;
    const dataDir = this.ws.mkdir('etcd');
    log(`etcd on 127.0.0.1:${this.ports.etcdClient}`);
    const etcd = this.ws.spawn('etcd', this.bin.etcd, etcdArguments(dataDir, this.ports), {
      runAs: this.ws.runAs,
    });
    await until(
      'etcd to be healthy',
      async () => {
        if (!etcd.isRunning()) throw new StopWaiting(`etcd exited:\n${this.ws.tail(etcd)}`);
        const res = await fetch(`http://127.0.0.1:${this.ports.etcdClient}/health`);
        return res.ok && ((await res.json()) as { health?: string }).health === 'true';
      },
      30_000,
    );
  }

  private async startPostgres() {
    const { log } = this.options;
    for (const name of ['pg1', 'pg2']) {
      const dir = this.ws.mkdir(name);
      const node = { name, postgres: await freePort(), rest: await freePort() };
      const config = this.ws.write(
        `${name}.yml`,
        patroniYaml({ node, ports: this.ports, dir, postgresBin: this.bin.postgresBin }),
      );
      this.nodes.push({ ...node, dir, config, patroni: this.spawnPatroni(name, config) });
      // The first node bootstraps the cluster; the second clones it once it has a leader.
      if (name === 'pg1') {
        log(`Patroni ${name}: PostgreSQL on 127.0.0.1:${node.postgres}, REST on ${node.rest}`);
        await until('pg1 to become the primary', () => this.isPrimary(this.nodes[0]!), 90_000, 250);
      } else {
        log(`Patroni ${name}: PostgreSQL on 127.0.0.1:${node.postgres}, REST on ${node.rest}`);
      }
    }
    await this.waitHealthy(90_000);
  }

  private spawnPatroni(name: string, config: string): Managed {
    return this.ws.spawn(`patroni-${name}`, this.bin.patroni, [config], {
      runAs: this.ws.runAs,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
    });
  }

  private async isPrimary(node: PgNode): Promise<boolean> {
    if (!node.patroni.isRunning()) {
      throw new StopWaiting(`Patroni ${node.name} exited:\n${this.ws.tail(node.patroni)}`);
    }
    const res = await fetch(`http://127.0.0.1:${node.rest}/primary`, {
      signal: AbortSignal.timeout(2_000),
    });
    return res.status === 200;
  }

  /** The members as Patroni lists them (GET /cluster on any node that answers). */
  async members(): Promise<Member[]> {
    for (const node of this.nodes) {
      try {
        const res = await fetch(`http://127.0.0.1:${node.rest}/cluster`, {
          signal: AbortSignal.timeout(2_000),
        });
        if (res.ok) return ((await res.json()) as { members: Member[] }).members;
      } catch {
        // try the next node
      }
    }
    return [];
  }

  async leader(): Promise<string | null> {
    return (await this.members()).find((m) => m.role === 'leader')?.name ?? null;
  }

  /** Both nodes running: a leader, and a synchronous standby streaming from it. */
  async waitHealthy(timeoutMs = 60_000): Promise<Member[]> {
    let members: Member[] = [];
    await until(
      'a primary and a synchronous standby',
      async () => {
        members = await this.members();
        return (
          members.some((m) => m.role === 'leader' && m.state === 'running') &&
          members.some(
            (m) => m.role === 'sync_standby' && ['running', 'streaming'].includes(m.state),
          )
        );
      },
      timeoutMs,
      250,
    );
    return members;
  }

  private async startHaproxy() {
    for (let i = 1; i <= this.options.apiInstances; i += 1) {
      const port = await freePort();
      this.apis.push({ name: `api${i}`, port, url: `http://127.0.0.1:${port}`, process: null });
    }
    const file = this.ws.write(
      'haproxy.cfg',
      haproxyConfig({ ports: this.ports, nodes: this.nodes, apis: this.apis }),
      0o644,
    );
    await run(this.bin.haproxy, ['-c', '-q', '-f', file]);
    this.haproxy = this.ws.spawn('haproxy', this.bin.haproxy, ['-db', '-f', file]);
    // HAProxy counts a server up until its first check fails: wait for the checks to settle.
    const leader = await this.leader();
    await until('HAProxy to route writes to the primary only', async () => {
      if (!this.haproxy!.isRunning())
        throw new StopWaiting(`haproxy exited:\n${this.ws.tail(this.haproxy!)}`);
      const up = await this.haproxyUp();
      return (
        up.pg_primary?.length === 1 && up.pg_primary[0] === leader && up.pg_replicas?.length === 1
      );
    });
  }

  /** The servers HAProxy has up, per backend (from its stats page's CSV). */
  async haproxyUp(): Promise<Record<string, string[]>> {
    const res = await fetch(`http://127.0.0.1:${this.ports.stats}/;csv`, {
      signal: AbortSignal.timeout(2_000),
    });
    const lines = (await res.text()).split('\n').slice(1);
    const up: Record<string, string[]> = {};
    for (const line of lines) {
      const [backend, server, ...rest] = line.split(',');
      if (!backend || !server || server === 'FRONTEND' || server === 'BACKEND') continue;
      // Column 18 of the CSV (index 17) is the status.
      if (rest[15]?.startsWith('UP')) (up[backend] ??= []).push(server);
    }
    return up;
  }

  /** One query on a fresh connection through HAProxy. */
  async query<T extends pg.QueryResultRow>(
    kind: 'write' | 'read',
    database: string,
    text: string,
    values: unknown[] = [],
  ): Promise<T[]> {
    const port = kind === 'write' ? this.ports.write : this.ports.read;
    const client = new pg.Client({
      connectionString: `postgres://postgres@127.0.0.1:${port}/${database}`,
      connectionTimeoutMillis: 3_000,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private async createDatabase() {
    await this.query('write', 'postgres', `CREATE DATABASE ${DATABASE}`);
  }

  /** The environment of an API instance: the real server, pointed at HAProxy. */
  private apiEnvironment(api: ApiInstance): NodeJS.ProcessEnv {
    const base: NodeJS.ProcessEnv = { ...process.env };
    for (const key of Object.keys(base)) {
      if (/^(DATABASE_|ADMIN_|DEMO_|MFA_|OTEL_|METRICS_)/.test(key)) delete base[key];
    }
    return {
      ...base,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(api.port),
      DATABASE_URL: this.databaseUrl('write', api.name),
      DATABASE_READ_URL: this.databaseUrl('read', `${api.name}-read`),
      DATABASE_POOL_SIZE: '8',
      DATABASE_STATEMENT_TIMEOUT_MS: '5000',
      ADMIN_USERNAME,
      ADMIN_PASSWORD: this.adminPassword,
      DEMO_DATA: 'false',
      MFA_REQUIRED_ROLES: 'none',
      MFA_ENCRYPTION_KEY: this.mfaKey,
      JOBS_INTERVAL_SECONDS: '1',
      TERMINAL_RATE_LIMIT_PER_MINUTE: '100000',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      SHUTDOWN_TIMEOUT_MS: '5000',
      LOG_LEVEL: 'warn',
      ...this.options.apiEnv,
    };
  }

  async startApi(api: ApiInstance): Promise<void> {
    const child = this.ws.spawn(api.name, process.execPath, [...NODE_FLAGS, BUNDLE_ENTRY], {
      cwd: REPO_ROOT,
      env: this.apiEnvironment(api),
    });
    api.process = child;
    await until(
      `${api.name} to be ready`,
      async () => {
        if (!child.isRunning())
          throw new StopWaiting(`${api.name} exited:\n${this.ws.tail(child)}`);
        return (await fetch(`${api.url}/readyz`)).status === 200;
      },
      120_000,
      200,
    );
  }

  /** SIGKILL of one API instance: no shutdown hook runs, its requests in flight are cut. */
  async killApi(api: ApiInstance): Promise<void> {
    api.process?.signal('SIGKILL');
    await api.process?.exited;
  }

  /** `patronictl switchover` from the current leader to the other node; resolves when done. */
  async switchover(): Promise<{ from: string; to: string }> {
    const from = await this.leader();
    const to = this.nodes.find((n) => n.name !== from)?.name;
    if (!from || !to) throw new Error('switchover: no leader or no candidate');
    await run(
      this.bin.patronictl,
      [
        '-c',
        this.nodes[0]!.config,
        'switchover',
        SCOPE,
        '--leader',
        from,
        '--candidate',
        to,
        '--force',
      ],
      { timeout: 60_000 * waitScale() },
    );
    return { from, to };
  }

  /** SIGKILL of the primary's postmaster (Patroni lives on and fails over to the standby). */
  async killPrimaryPostgres(): Promise<{ node: string; pid: number }> {
    const name = await this.leader();
    const node = this.nodes.find((n) => n.name === name);
    if (!node) throw new Error('no primary to kill');
    const pid = Number(
      fs.readFileSync(path.join(node.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    process.kill(pid, 'SIGKILL');
    return { node: node.name, pid };
  }

  /** Waits until `name` is no longer the leader and another node is. */
  async waitNewLeader(previous: string, timeoutMs = 60_000): Promise<string> {
    let leader: string | null = null;
    await until(
      `a new leader instead of ${previous}`,
      async () => {
        leader = await this.leader();
        return leader !== null && leader !== previous;
      },
      timeoutMs,
      100,
    );
    return leader!;
  }

  async stop(): Promise<void> {
    // The API instances first (their SIGTERM drains requests), then HAProxy, Patroni, etcd.
    await Promise.all(this.apis.map((api) => api.process?.stop(8_000)));
    await sleep(0);
  }
}
