/**
 * CPU seconds spent during a scenario by the API process and by the bench database's server
 * processes (PostgreSQL on this machine: read from /proc). On a machine other work shares, wall
 * times stretch with the load; the CPU a change saves shows through it.
 */
import fs from 'node:fs';
import { withClient } from './database';

/** Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ, 100 on every common build). */
const TICKS_PER_SECOND = 100;

export interface CpuSeconds {
  api: number;
  /** Null when the server's processes cannot be read (not on this machine). */
  database: number | null;
}

/** user + system ticks of a process; null once it is gone or when it cannot be read. */
function ticks(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

async function backendPids(databaseUrl: string): Promise<number[]> {
  return withClient(databaseUrl, async (c) => {
    const { rows } = await c.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rows.map((r) => r.pid);
  });
}

/** Starts counting; the function it returns stops and answers the seconds since. */
export async function startCpuMeter(
  databaseUrl: string,
  apiPid: number,
): Promise<() => Promise<CpuSeconds>> {
  const before = new Map<number, number | null>();
  for (const pid of await backendPids(databaseUrl)) before.set(pid, ticks(pid));
  const api = ticks(apiPid) ?? 0;
  return async () => {
    const apiNow = ticks(apiPid) ?? api;
    let database: number | null = 0;
    for (const pid of await backendPids(databaseUrl)) {
      const now = ticks(pid);
      if (now === null || (before.has(pid) && before.get(pid) === null)) {
        database = null;
        break;
      }
      database += now - (before.get(pid) ?? 0);
    }
    return {
      api: (apiNow - api) / TICKS_PER_SECOND,
      database: database === null ? null : database / TICKS_PER_SECOND,
    };
  };
}
