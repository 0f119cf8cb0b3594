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
