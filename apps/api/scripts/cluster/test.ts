// npm run cluster:test (issue 15 item 1, decision 0023): the loopback HA cluster under a steady
// load of terminal orders, through three faults:
//   (a) SIGKILL of one API instance,
//   (b) a Patroni switchover,
//   (c) SIGKILL of the primary's postgres, so Patroni fails over (a monthly reset falls due then).
// Prints a table per phase, then checks the ledger and the API's behaviour; exits 1 when a check
// fails. Everything it starts is stopped and its directory removed, on failure and Ctrl-C too
// (`--keep` keeps the directory and its logs).
import os from 'node:os';
import { parseArgs } from 'node:util';
import { behaviourChecks, databaseChecks, retryUnacknowledged, type Check } from './checks';
import { Cluster } from './cluster';
import { OrderLoad, ReadinessWatch } from './load';
import { ensurePackages } from './packages';
import {
  databaseUser,
  reportWaitsTo,
  sleep,
  StopWaiting,
  until,
  waitScale,
  Workspace,
} from './processes';
import { createProgramme } from './programme';
import { phaseStats, phaseTable, type Phase } from './report';

const { values } = parseArgs({
  options: {
    keep: { type: 'boolean', default: false },
    rate: { type: 'string', default: '20' },
  },
});
const RATE = Number(values.rate);
/**
 * The whole run is cut off after this × the load's scale (waitScale(), read at the start and again
 * then): CI must never wait on a stuck cluster.
 */
const DEADLINE_MS = 9 * 60_000;
/** Steady load between a fault's recovery and the next fault. */
const SETTLE_MS = 3_000;
/**
 * After the failover, the instances' /readyz must all answer 200 within this (× the load's scale,
 * as every wait: processes.ts `until`). The old primary's rewind and return as synchronous standby
 * are part of the recovery, and on CI the test shares two cores with the other suites (a run there
 * once needed more than 60 s, another more than 120 s).
 */
const READY_AGAIN_MS = 120_000;

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const log = (line: string) => console.log(`[cluster:test ${elapsed().padStart(7)}] ${line}`);

const ws = new Workspace('tokens-cluster-test-', databaseUser());
let failed = false;
ws.cleanupOnExit(() => values.keep || failed);
const startScale = waitScale();
function armDeadline(afterMs: number) {
  setTimeout(() => {
    const limit = DEADLINE_MS * Math.max(startScale, waitScale());
    const over = Date.now() - started;
    if (over < limit) {
      armDeadline(limit - over);
      return;
    }
    console.error(
      `cluster:test: over ${(limit / 60_000).toFixed(1)} minutes; stopping (logs kept in ${ws.dir})`,
    );
    failed = true;
    void ws.cleanup(true).finally(() => process.exit(1));
  }, afterMs).unref();
}
armDeadline(DEADLINE_MS * startScale);
reportWaitsTo(log);

async function main(): Promise<boolean> {
  const bin = ensurePackages(log);
  log(
    `waits are their quiet-machine limits × ${startScale.toFixed(1)} (load ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores; CLUSTER_WAIT_SCALE sets it)`,
  );
  log(`starting etcd, two Patroni nodes, HAProxy and three API instances in ${ws.dir}`);
  const cluster = await Cluster.start(ws, bin, {
    apiInstances: 3,
    apiEnv: { SERVE_WEB: 'false' },
    log,
  });
  log(`cluster up: ${(await cluster.members()).map((m) => `${m.name} ${m.role}`).join(', ')}`);
  const programme = await createProgramme(cluster.databaseUrl('write', 'cluster-test'));
  const [api1, api2, api3] = cluster.apis as [
    (typeof cluster.apis)[0],
    (typeof cluster.apis)[0],
    (typeof cluster.apis)[0],
  ];
  const survivors = [api1, api3].map((api) => ({ api, pidBefore: api.process!.pid }));

  const load = new OrderLoad(cluster.httpUrl, programme, RATE, 32);
  const watch = new ReadinessWatch(() => cluster.apis.filter((a) => a.process?.isRunning()));
  const phases: Phase[] = [];
  const begin = (name: string, fault: string) => {
    const now = Date.now();
    const previous = phases[phases.length - 1];
    if (previous) previous.endedAt = now;
    phases.push({ name, fault, at: now, endedAt: now });
    load.phase = name;
    log(`phase ${name}: ${fault}`);
  };
  load.start();
  watch.start();
  begin('steady', 'none');
  await sleep(SETTLE_MS);

  // (a) One API instance killed, restarted later as a supervisor would.
  begin('a', `SIGKILL ${api2.name}`);
  await cluster.killApi(api2);
  await sleep(SETTLE_MS);
  await cluster.startApi(api2);
  log(`${api2.name} restarted`);
  await sleep(1_000);

  // (b) Switchover: the primary hands over to the synchronous standby.
  begin('b', 'patronictl switchover');
  const switched = await cluster.switchover();
  log(`switched over from ${switched.from} to ${switched.to}`);
  await cluster.waitHealthy(60_000);
  await sleep(SETTLE_MS);

  // (c) Failover: the primary's postmaster killed; a reset falls due at the same moment.
  const [resetCompany] = await cluster.query<{ token_month: string }>(
    'write',
    'tokens',
    'SELECT token_month FROM companies WHERE id = $1',
    [programme.resetCompanyId],
  );
  await cluster.query(
    'write',
    'tokens',
    "UPDATE companies SET next_reset_at = now() + interval '200 milliseconds' WHERE id = $1",
    [programme.resetCompanyId],
  );
  begin('c', 'SIGKILL of the primary postgres');
  const killed = await cluster.killPrimaryPostgres();
  log(`killed postgres of ${killed.node} (pid ${killed.pid})`);
  const leader = await cluster.waitNewLeader(killed.node, 60_000);
  log(`${leader} is the new primary`);
  // What each instance answered last, named in the error when they do not all come back.
  const lastReady = new Map<string, string>();
  await until(
    () =>
      `every API instance ready again (last answers: ${[...lastReady].map(([n, a]) => `${n} ${a}`).join('; ')})`,
    async () => {
      // An instance that exited will not come back: say so at once, with the end of its log.
      const exited = cluster.apis.find((a) => !a.process!.isRunning());
      if (exited) {
        throw new StopWaiting(`${exited.name} exited:\n${ws.tail(exited.process!, 40)}`);
      }
      const answers = await Promise.all(
        cluster.apis.map(async (a) => {
          const answer = await fetch(`${a.url}/readyz`, { signal: AbortSignal.timeout(10_000) })
            .then(async (r) => `${r.status} ${await r.text()}`)
            .catch((error: unknown) => String(error));
          lastReady.set(a.name, answer);
          return answer.startsWith('200 ');
        }),
      );
      return answers.every(Boolean);
    },
    READY_AGAIN_MS,
  );
  await sleep(SETTLE_MS);
  begin('after', 'none');
  await sleep(2_000);
  await load.stop();
  phases[phases.length - 1]!.endedAt = Date.now();
  await watch.stop();

  const stats = phases.map((p) => phaseStats(p, load.attempts, watch.samples));
  console.log(`\n${phaseTable(stats)}\n`);

  log('waiting for the old primary to rejoin as synchronous standby');
  const members = await cluster.waitHealthy(90_000).catch(() => cluster.members());
  log(`members: ${members.map((m) => `${m.name} ${m.role} (${m.state})`).join(', ')}`);

  const retried = await retryUnacknowledged(cluster.httpUrl, programme, load.attempts);
  log(`retried ${retried.length} unacknowledged requests with their keys`);
  const checks: Check[] = [
    ...(await databaseChecks({
      url: cluster.databaseUrl('write', 'cluster-test-checks'),
      programme,
      attempts: load.attempts,
      retried,
      resetFromPeriod: resetCompany!.token_month,
      failoverAt: phases.find((p) => p.name === 'c')!.at,
    })),
    ...behaviourChecks({
      attempts: load.attempts,
      retried,
      ready: watch.samples,
      databasePhases: phases.filter((p) => p.name === 'b' || p.name === 'c'),
      readinessPhases: phases.filter((p) => p.name === 'c'),
      survivors: survivors.map(({ api, pidBefore }) => ({
        name: api.name,
        pidBefore,
        pidAfter: api.process!.pid,
        running: api.process!.isRunning(),
      })),
    }),
  ];
  for (const check of checks) {
    console.log(`${check.ok ? '  ok  ' : ' FAIL '} ${check.name}: ${check.detail}`);
  }
  await cluster.stop();
  return checks.every((c) => c.ok);
}

try {
  const ok = await main();
  failed = !ok;
  log(ok ? 'all checks passed' : 'some checks FAILED');
} catch (error) {
  failed = true;
  console.error(error);
  // CI keeps only what is printed: the end of every process's log, to tell why.
  console.error(ws.tails(60));
}
log(failed ? `stopping; logs kept in ${ws.dir}` : 'stopping and cleaning up');
await ws.cleanup(values.keep || failed);
log(`done in ${elapsed()}`);
process.exit(failed ? 1 : 0);
