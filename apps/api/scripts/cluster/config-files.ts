// The configuration of each part of the loopback cluster, as text: etcd's arguments, one Patroni
// YAML per PostgreSQL node, and HAProxy's configuration (database write and read ports, the HTTP
// frontend of the API instances, a stats page).
import { stringify } from 'yaml';

export const SCOPE = 'tokens';

export interface Ports {
  etcdClient: number;
  etcdPeer: number;
  /** HAProxy: the current primary (Patroni's GET /primary answers 200 there). */
  write: number;
  /** HAProxy: a streaming replica (GET /replica), else the primary. */
  read: number;
  /** HAProxy: the API instances. */
  http: number;
  stats: number;
}

export interface NodePorts {
  name: string;
  postgres: number;
  /** Patroni's REST API. */
  rest: number;
}

export function etcdArguments(dataDir: string, ports: Ports): string[] {
  const client = `http://127.0.0.1:${ports.etcdClient}`;
  const peer = `http://127.0.0.1:${ports.etcdPeer}`;
  return [
    '--name=etcd1',
    `--data-dir=${dataDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=etcd1=${peer}`,
    '--initial-cluster-state=new',
    '--log-level=warn',
  ];
}

/**
 * A Patroni node. Timings are cut down for a loopback test (the defaults are ttl 30, loop_wait
 * 10, retry_timeout 10): a node checks every second, and `primary_start_timeout: 0` makes a
 * crashed primary fail over at once instead of being restarted in place (safe with
 * `synchronous_mode`, which only promotes the synchronous standby).
 */
export function patroniYaml(options: {
  node: NodePorts;
  ports: Ports;
  dir: string;
  postgresBin: string;
}): string {
  const { node, ports, dir, postgresBin } = options;
  return stringify({
    scope: SCOPE,
    name: node.name,
    log: { level: 'INFO' },
    restapi: {
      listen: `127.0.0.1:${node.rest}`,
      connect_address: `127.0.0.1:${node.rest}`,
    },
    etcd3: { hosts: `127.0.0.1:${ports.etcdClient}` },
    bootstrap: {
      dcs: {
        ttl: 10,
        loop_wait: 1,
        retry_timeout: 3,
        primary_start_timeout: 0,
        maximum_lag_on_failover: 1_048_576,
        synchronous_mode: true,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: {
            max_connections: 100,
            shared_buffers: '32MB',
            // pg_rewind lets the old primary rejoin as a standby after a failover.
            wal_log_hints: 'on',
            // No fsync on a throwaway loopback cluster (2 shared cores); synchronous replication
            // (synchronous_commit on, the default) is what this test is about.
            fsync: 'off',
            wal_keep_size: '128MB',
          },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C' }],
    },
    postgresql: {
      listen: `127.0.0.1:${node.postgres}`,
      connect_address: `127.0.0.1:${node.postgres}`,
      data_dir: `${dir}/data`,
      bin_dir: postgresBin,
      pgpass: `${dir}/pgpass`,
      authentication: {
        superuser: { username: 'postgres', password: 'postgres' },
        replication: { username: 'replicator', password: 'replicator' },
      },
      // Loopback only, and a throwaway cluster: trust.
      pg_hba: [
        'local all all trust',
        'host all all 127.0.0.1/32 trust',
        'host replication all 127.0.0.1/32 trust',
      ],
      parameters: { unix_socket_directories: dir },
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  });
}

/**
 * HAProxy in front of everything. The database ports are TCP: a server is in when its Patroni
 * says so (`/primary`, `/replica`), checked every 500 ms, and `on-marked-down shutdown-sessions`
 * cuts the connections of a node that stops being primary, so no client keeps writing to a
 * demoted one. Reads fall back to the primary when no replica is up. The API port is HTTP,
 * balanced over the instances whose /readyz answers 200, and over all of them when none does.
 */
export function haproxyConfig(options: {
  ports: Ports;
  nodes: NodePorts[];
  apis: { name: string; port: number }[];
}): string {
  const { ports, nodes, apis } = options;
  const pgServers = nodes
    .map((n) => `    server ${n.name} 127.0.0.1:${n.postgres} check port ${n.rest}`)
    .join('\n');
  const apiServers = [
    ...apis.map((a) => `    server ${a.name} 127.0.0.1:${a.port} check`),
    ...apis.map((a) => `    server ${a.name}-unchecked 127.0.0.1:${a.port} backup`),
  ].join('\n');
  return `# Written by apps/api/scripts/cluster (npm run cluster / cluster:test).
global
    maxconn 2000

defaults
    mode tcp
    timeout connect 2s
    timeout client 5m
    timeout server 5m
    timeout check 1s

frontend pg_write
    bind 127.0.0.1:${ports.write}
    # No primary (mid-failover): refuse at once rather than queue, so the API answers 503 quickly.
    tcp-request connection reject if { nbsrv(pg_primary) eq 0 }
    default_backend pg_primary

backend pg_primary
    # A node that refuses (its postgres just died) is not retried: the API answers 503 at once.
    retries 0
    option httpchk OPTIONS /primary
    http-check expect status 200
    default-server inter 500ms fall 1 rise 1 on-marked-down shutdown-sessions
${pgServers}

frontend pg_read
    bind 127.0.0.1:${ports.read}
    use_backend pg_replicas if { nbsrv(pg_replicas) ge 1 }
    default_backend pg_primary

backend pg_replicas
    retries 0
    option httpchk OPTIONS /replica
    http-check expect status 200
    default-server inter 500ms fall 1 rise 1 on-marked-down shutdown-sessions
${pgServers}

frontend api
    mode http
    bind 127.0.0.1:${ports.http}
    timeout client 30s
    timeout http-request 10s
    default_backend api_instances

backend api_instances
    mode http
    balance roundrobin
    timeout server 30s
    option httpchk GET /readyz
    http-check expect status 200
    # When no instance is ready (the database is away: every /readyz says 503), requests still
    # go to all of them (the unchecked backups), so a client gets the API's own 503 with
    # Retry-After, and the first request after the failover succeeds without waiting for a check.
    option allbackups
    # A connection refused (an instance just killed) is tried on another instance; a request
    # already sent is never resent by the proxy: the client retries with its Idempotency-Key.
    retries 2
    option redispatch
    retry-on conn-failure
    default-server inter 500ms fall 2 rise 1
${apiServers}

listen stats
    mode http
    bind 127.0.0.1:${ports.stats}
    stats enable
    stats uri /
    stats refresh 2s
`;
}
