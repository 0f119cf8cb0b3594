import fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU milliseconds a process has used so far, from /proc (undefined once gone). */
export function cpuMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) in parentheses: utime is the 14th field.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The pids of PostgreSQL's backends connected to `database` (their title names it). */
function backendsOf(database: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `))
        pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * CPU used while a section runs by given processes and by the database's backends (sampled every
 * 100 ms, so a backend that lives less than that is missed; PostgreSQL's shared processes — WAL
 * writer, checkpointer — are not counted). Only where /proc exists (Linux); else zeros.
 */
export class CpuSampler {
  private readonly start = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly database: string,
    private readonly pids: Record<string, number>,
  ) {
    for (const pid of Object.values(pids)) this.start.set(pid, cpuMs(pid) ?? 0);
    this.sample();
    this.timer = setInterval(() => this.sample(), 100);
  }

  private sample(): void {
    for (const pid of backendsOf(this.database)) {
      const ms = cpuMs(pid);
      if (ms === undefined) continue;
      // A backend first seen now may have worked before the section: count from here.
      if (!this.start.has(pid)) this.start.set(pid, ms);
      this.last.set(pid, ms);
    }
  }

  /** Stops, and answers CPU milliseconds by name, and `database` for the backends. */
  stop(): Record<string, number> {
    this.sample();
    clearInterval(this.timer);
    const result: Record<string, number> = {};
    const named = new Set(Object.values(this.pids));
    for (const [name, pid] of Object.entries(this.pids)) {
      result[name] = (cpuMs(pid) ?? 0) - (this.start.get(pid) ?? 0);
    }
    result.database = 0;
    for (const [pid, ms] of this.last) {
      if (!named.has(pid)) result.database += ms - this.start.get(pid)!;
    }
    return result;
  }
}

/** CPU seconds of the API process and of the database's backends during a timed call. */
export interface CpuSeconds {
  api: number;
  database: number;
}

/** Starts a CpuSampler for the API and the database's backends; the function it returns stops it. */
export function startCpuMeter(databaseName: string, apiPid: number): () => CpuSeconds {
  const sampler = new CpuSampler(databaseName, { api: apiPid });
  return () => {
    const ms = sampler.stop();
    return { api: Math.round(ms.api!) / 1000, database: Math.round(ms.database!) / 1000 };
  };
}

/** The machine's CPU counters so far (all cores, from /proc/stat; zeros where it is missing). */
function machineTicks(): { busy: number; total: number } {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const ticks = fields.slice(1, 9).map(Number);
    const idle = ticks[3]! + ticks[4]!; // idle + iowait
    const total = ticks.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** Starts measuring the whole machine; the function it returns answers its busy share (0–1). */
export function startMachineMeter(): () => number {
  const start = machineTicks();
  return () => {
    const end = machineTicks();
    const total = end.total - start.total;
    return total > 0 ? Math.round(((end.busy - start.busy) / total) * 1000) / 1000 : 0;
  };
}
