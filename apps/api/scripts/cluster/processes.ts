// The processes a cluster run starts, and the one place that ends them: each child leads its own
// process group (so postgres under Patroni dies with it), the whole set is stopped on success,
// failure, Ctrl-C or SIGTERM, and the temporary directory goes with it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The OS user the database side runs as: `postgres` when we are root (PostgreSQL refuses root). */
export interface RunAs {
  uid: number;
  gid: number;
  name: string;
  home: string;
}

export function databaseUser(): RunAs | null {
  if (process.getuid?.() !== 0) return null;
  try {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
    const home = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).split(':')[5];
    return { uid: id('-u'), gid: id('-g'), name: 'postgres', home: home || '/tmp' };
  } catch {
    throw new Error('running as root, but there is no `postgres` OS user to run PostgreSQL as');
  }
}

/** The ports handed out by `freePort` in this process. */
const handedOut = new Set<number>();

/**
 * A port free now on 127.0.0.1, never one already handed out here. The ports are bound later, by
 * the processes they are for; meanwhile the system may offer a released port again (a CI run
 * failed when HAProxy's write port was also given to a Patroni node's PostgreSQL).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await probeFreePort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

function probeFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Thrown by a check to stop waiting at once (a process died): `until` rethrows it. */
export class StopWaiting extends Error {}

/** The most a wait is stretched for the machine's load (a stuck cluster must still fail). */
export const MAX_WAIT_SCALE = 4;

/**
 * How many times its quiet-machine timeout a wait may take (issue 39): CLUSTER_WAIT_SCALE when set
 * (a number, at least 1), else the machine's load per core (the 1-minute load average over the
 * cores), between 1 and MAX_WAIT_SCALE. On CI this test shares two cores with the other suites, and
 * a recovery that takes 40 s alone took over 120 s there.
 */
export function waitScale(): number {
  const configured = Number(process.env.CLUSTER_WAIT_SCALE);
  if (process.env.CLUSTER_WAIT_SCALE && Number.isFinite(configured) && configured >= 1) {
    return configured;
  }
  const perCore = (os.loadavg()[0] ?? 0) / Math.max(1, os.availableParallelism());
  return Math.min(MAX_WAIT_SCALE, Math.max(1, perCore));
}

/** Where `until` reports a long wait (the cluster's log); silent until set. */
let reportWait: ((line: string) => void) | null = null;
export function reportWaitsTo(log: (line: string) => void): void {
  reportWait = log;
}
/** A wait longer than this says so, and again every as long, with what it is waiting for. */
const REPORT_EVERY_MS = 20_000;

/**
 * Polls `check` until it answers true; fails naming `what` after `timeoutMs` × waitScale(), the
 * scale read when the wait starts and again when it would end (a machine that got busier meanwhile
 * stretches it). Other errors of the check count as "not yet" (a connection refused while a server
 * starts). A long wait reports its progress through reportWaitsTo's log.
 */
export async function until(
  what: string | (() => string),
  check: () => Promise<boolean> | boolean,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<void> {
  const describe = () => (typeof what === 'string' ? what : what());
  const startedAt = Date.now();
  let scale = waitScale();
  let reportAt = startedAt + REPORT_EVERY_MS;
  for (;;) {
    const ok = await Promise.resolve()
      .then(check)
      .catch((error: unknown) => {
        if (error instanceof StopWaiting) throw error;
        return false;
      });
    if (ok) return;
    const waited = Date.now() - startedAt;
    if (waited > timeoutMs * scale) scale = Math.max(scale, waitScale());
    if (waited > timeoutMs * scale) {
      throw new Error(
        `timed out after ${waited} ms (${timeoutMs} ms × load scale ${scale.toFixed(1)}) waiting for ${describe()}`,
      );
    }
    if (reportWait && Date.now() >= reportAt) {
      reportAt += REPORT_EVERY_MS;
      reportWait(
        `still waiting after ${Math.round(waited / 1000)} s (up to ${Math.round((timeoutMs * scale) / 1000)} s) for ${describe()}`,
      );
    }
    await sleep(everyMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Managed {
  name: string;
  child: ChildProcess;
  pid: number;
  logFile: string;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
  isRunning(): boolean;
  /** Signals the whole process group. */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as this user (root only). */
  runAs?: RunAs | null;
}

/**
 * Everything one run made: its temporary directory and its processes. `cleanup()` is idempotent
 * and also runs on SIGINT/SIGTERM and on an uncaught error.
 */
export class Workspace {
  readonly dir: string;
  private readonly processes: Managed[] = [];
  private cleaned: Promise<void> | null = null;

  constructor(
    prefix: string,
    readonly runAs: RunAs | null,
  ) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    fs.chmodSync(this.dir, 0o755);
    this.chown(this.dir);
  }

  /** A directory under the workspace, owned by the database user. */
  mkdir(...parts: string[]): string {
    const dir = path.join(this.dir, ...parts);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.chown(dir);
    return dir;
  }

  /** Writes a file under the workspace, readable by the database user. */
  write(relative: string, text: string, mode = 0o600): string {
    const file = path.join(this.dir, relative);
    fs.writeFileSync(file, text, { mode });
    this.chown(file);
    return file;
  }

  private chown(file: string) {
    if (this.runAs) fs.chownSync(file, this.runAs.uid, this.runAs.gid);
  }

  spawn(name: string, command: string, args: string[], options: SpawnOptions = {}): Managed {
    const logFile = path.join(this.dir, `${name}.log`);
    const out = fs.openSync(logFile, 'a');
    const runAs = options.runAs ?? null;
    const child = spawn(command, args, {
      cwd: options.cwd ?? this.dir,
      env: {
        ...(options.env ?? process.env),
        ...(runAs ? { HOME: runAs.home, USER: runAs.name, LOGNAME: runAs.name } : {}),
      },
      stdio: ['ignore', out, out],
      detached: true,
      ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
    });
    fs.closeSync(out);
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    child.on('error', () => undefined);
    const isRunning = () => child.exitCode === null && child.signalCode === null;
    const signal = (sig: NodeJS.Signals) => {
      if (!child.pid) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        // already gone
      }
    };
    const managed: Managed = {
      name,
      child,
      pid: child.pid ?? -1,
      logFile,
      exited,
      isRunning,
      signal,
      stop: async (graceMs = 10_000) => {
        if (!isRunning()) {
          signal('SIGKILL'); // the group may outlive its leader (postgres under a dead Patroni)
          return;
        }
        signal('SIGTERM');
        const timer = setTimeout(() => signal('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
        signal('SIGKILL');
      },
    };
    this.processes.push(managed);
    return managed;
  }

  /** The last lines of every process's log in this run, each under its name. */
  tails(lines = 30): string {
    // A restarted process appends to the same file: each file once.
    return [...new Set(this.processes.map((p) => p.logFile))]
      .map(
        (logFile) =>
          `----- ${path.basename(logFile)}: last ${lines} lines -----\n${this.tail({ logFile }, lines)}`,
      )
      .join('\n');
  }

  /**
   * The last lines of a process's log, for an error message, each cut to its first 400 characters:
   * an API's error line with its query and stack runs to kilobytes, and 60 of them from one
   * instance once filled CI's log so that the other instances' ends (a crash) were never shown.
   */
  tail(managed: Pick<Managed, 'logFile'>, lines = 30): string {
    try {
      return fs
        .readFileSync(managed.logFile, 'utf8')
        .split('\n')
        .slice(-lines)
        .map((line) => (line.length > 400 ? `${line.slice(0, 400)}…` : line))
        .join('\n');
    } catch {
      return '';
    }
  }

  /** Stops every process (last started first), then removes the directory unless `keep`. */
  cleanup(keep = false): Promise<void> {
    this.cleaned ??= (async () => {
      // All at once (two cores: stopping one by one costs seconds each), the coordinator (etcd)
      // last so that Patroni can still release its leader key while it stops.
      const last = this.processes.filter((p) => p.name === 'etcd');
      const first = this.processes.filter((p) => p.name !== 'etcd');
      await Promise.all(first.map((p) => p.stop(5_000).catch(() => undefined)));
      await Promise.all(last.map((p) => p.stop(5_000).catch(() => undefined)));
      // Anything of the database user still holding a file here (a postmaster orphaned by a
      // killed Patroni keeps its own process group) is found by its data directory and ended.
      killLeftovers(this.dir);
      if (!keep) fs.rmSync(this.dir, { recursive: true, force: true });
    })();
    return this.cleaned;
  }

  /** Cleans up on Ctrl-C, SIGTERM and a crash, then exits with `code`. */
  cleanupOnExit(keep: () => boolean) {
    const onSignal = (sig: NodeJS.Signals) => {
      console.error(`\n${sig}: stopping the cluster …`);
      void this.cleanup(keep()).finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
}

/** Ends postmasters whose data directory is under `dir` (from their postmaster.pid files). */
function killLeftovers(dir: string) {
  const pids: number[] = [];
  const walk = (at: string, depth: number) => {
    if (depth > 3) return;
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(at, entry.name);
      if (entry.isFile() && entry.name === 'postmaster.pid') {
        const pid = Number(fs.readFileSync(full, 'utf8').split('\n')[0]);
        if (pid > 0) pids.push(pid);
      } else if (entry.isDirectory()) walk(full, depth + 1);
    }
  };
  walk(dir, 0);
  for (const pid of pids) {
    // Only a live postgres of ours: a stale pid file's number may belong to someone else by now.
    let command = '';
    try {
      command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!command.includes('postgres') || !command.includes(dir)) continue;
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
}
