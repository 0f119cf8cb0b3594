// The configuration `npm run cluster:test` gives Patroni and HAProxy (decision 0023): the settings
// its guarantees rest on, checked without starting anything (the cluster run itself is the test
// of the behaviour; it takes a minute and a half, so CI runs it as its own step).
// HAProxy reads the file for real in that run: it refuses to start on a file it cannot parse.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { haproxyConfig, patroniYaml, type Ports } from '../../scripts/cluster/config-files';

const ports: Ports = {
  etcdClient: 2379,
  etcdPeer: 2380,
  write: 5000,
  read: 5001,
  http: 8080,
  stats: 8404,
};
const nodes = [
  { name: 'pg1', postgres: 6001, rest: 8001 },
  { name: 'pg2', postgres: 6002, rest: 8002 },
];
const apis = [
  { name: 'api1', port: 7001 },
  { name: 'api2', port: 7002 },
  { name: 'api3', port: 7003 },
];

/** The lines of one section (`backend pg_primary`) of an HAProxy configuration. */
function section(config: string, header: string): string {
  const start = config.indexOf(`\n${header}\n`);
  expect(start, header).toBeGreaterThanOrEqual(0);
  const rest = config.slice(start + header.length + 2);
  const end = rest.search(/^\S/m);
  return end === -1 ? rest : rest.slice(0, end);
}

describe('the loopback cluster configuration', () => {
  it('gives Patroni a synchronous standby and an immediate failover on a crash', () => {
    const config = parse(
      patroniYaml({ node: nodes[0]!, ports, dir: '/tmp/x/pg1', postgresBin: '/usr/lib/pg/bin' }),
    );
    const dcs = config.bootstrap.dcs;
    expect(dcs.synchronous_mode).toBe(true);
    expect(dcs.primary_start_timeout).toBe(0);
    // Patroni's own rule for its timings: loop_wait + 2 × retry_timeout ≤ ttl.
    expect(dcs.loop_wait + 2 * dcs.retry_timeout).toBeLessThanOrEqual(dcs.ttl);
    expect(dcs.postgresql.use_pg_rewind).toBe(true);
    expect(dcs.postgresql.parameters.wal_log_hints).toBe('on');
    // synchronous_commit is left at its default (on): an acknowledged commit is on both nodes.
    expect(dcs.postgresql.parameters.synchronous_commit).toBeUndefined();
    expect(config.postgresql.listen).toBe('127.0.0.1:6001');
    expect(config.restapi.listen).toBe('127.0.0.1:8001');
    expect(config.etcd3.hosts).toBe('127.0.0.1:2379');
  });

  it('routes writes to the primary, reads to a replica or else the primary, and HTTP to every instance', () => {
    const config = haproxyConfig({ ports, nodes, apis });
    const primary = section(config, 'backend pg_primary');
    expect(primary).toMatch(/option httpchk OPTIONS \/primary\n/);
    expect(primary).toMatch(/on-marked-down shutdown-sessions/);
    expect(primary).toMatch(/server pg1 127\.0\.0\.1:6001 check port 8001/);
    expect(primary).toMatch(/server pg2 127\.0\.0\.1:6002 check port 8002/);
    expect(section(config, 'frontend pg_write')).toMatch(
      /tcp-request connection reject if \{ nbsrv\(pg_primary\) eq 0 \}/,
    );
    expect(section(config, 'backend pg_replicas')).toMatch(/option httpchk OPTIONS \/replica\n/);
    const read = section(config, 'frontend pg_read');
    expect(read).toMatch(/use_backend pg_replicas if \{ nbsrv\(pg_replicas\) ge 1 \}/);
    expect(read).toMatch(/default_backend pg_primary/);
    const http = section(config, 'backend api_instances');
    expect(http).toMatch(/option httpchk GET \/readyz\n/);
    expect(http).toMatch(/option allbackups/);
    for (const api of apis) {
      expect(http).toContain(`server ${api.name} 127.0.0.1:${api.port} check`);
      expect(http).toContain(`server ${api.name}-unchecked 127.0.0.1:${api.port} backup`);
    }
  });
});
