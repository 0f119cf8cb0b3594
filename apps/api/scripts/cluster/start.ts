// npm run cluster: the loopback HA cluster of `npm run cluster:test` (etcd, two Patroni-managed
// PostgreSQL nodes, HAProxy, three API instances), left running for a person to try; Ctrl-C stops
// it and removes everything it made.
import { Cluster, ADMIN_USERNAME } from './cluster';
import { ensurePackages } from './packages';
import { databaseUser, Workspace } from './processes';
import { createProgramme } from './programme';

const log = (line: string) => console.log(`[cluster] ${line}`);

const ws = new Workspace('tokens-cluster-', databaseUser());
ws.cleanupOnExit(() => false);
try {
  const bin = ensurePackages(log);
  const cluster = await Cluster.start(ws, bin, {
    apiInstances: 3,
    apiEnv: { SERVE_WEB: 'true', LOG_LEVEL: 'info' },
    log,
  });
  const programme = await createProgramme(cluster.databaseUrl('write', 'cluster-setup'));
  const members = await cluster.members();
  const [pg1, pg2] = cluster.nodes;
  console.log(`
The cluster is up (${ws.dir}). Ctrl-C stops it and removes everything.

  Web app and API (HAProxy)   ${cluster.httpUrl}     sign in: ${ADMIN_USERNAME} / ${cluster.adminPassword}
${cluster.apis.map((a) => `  ${a.name.padEnd(27)} ${a.url}`).join('\n')}
  PostgreSQL, primary         ${cluster.databaseUrl('write')}
  PostgreSQL, replica         ${cluster.databaseUrl('read')}
  HAProxy stats               http://127.0.0.1:${cluster.ports.stats}/
  Patroni REST                http://127.0.0.1:${pg1!.rest}/cluster, http://127.0.0.1:${pg2!.rest}/cluster
  patronictl                  patronictl -c ${pg1!.config} list
  Members                     ${members.map((m) => `${m.name} ${m.role} (${m.state})`).join(', ')}

  A terminal order:
    curl -s ${cluster.httpUrl}/api/v1/orders -H 'authorization: Bearer ${programme.terminalKey}' \\
      -H "idempotency-key: $(cat /proc/sys/kernel/random/uuid)" -H 'content-type: application/json' \\
      -d '{"company_code":"${programme.companyCode}","employee_id":"${programme.staffNumbers[0]}","order_type":"dine_in","items":[{"name":"Meal","quantity":1,"unit_tokens":1}]}'

  Try a fault: kill -9 an API instance's pid, patronictl switchover, or kill -9 the primary's postmaster
  (its pid is the first line of <node dir>/data/postmaster.pid). Logs: ${ws.dir}/*.log
`);
  await new Promise(() => undefined); // until Ctrl-C
} catch (error) {
  console.error(error);
  await ws.cleanup();
  process.exit(1);
}
