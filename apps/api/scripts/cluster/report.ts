// The per-phase table: requests, acknowledged orders, 503s, other errors, time to recover.
import type { Attempt, ReadinessSample } from './load';

export interface Phase {
  name: string;
  /** What was done to the cluster. */
  fault: string;
  /** When the fault was injected (ms since the epoch). */
  at: number;
  /** When the phase ended (the next one began). */
  endedAt: number;
}

export interface PhaseStats {
  phase: Phase;
  requests: number;
  acknowledged: number;
  unavailable: number;
  otherErrors: number;
  /** Status (or error name) → count, of the other errors. */
  otherKinds: Record<string, number>;
  /** From the fault to the answer of the last failed request of the phase; 0 when none failed. */
  recoverMs: number;
  slowestMs: number;
  /** Time /readyz answered 503 on some instance during the phase (ms), from the watch. */
  notReadyMs: number;
}

export function phaseStats(
  phase: Phase,
  attempts: Attempt[],
  ready: ReadinessSample[],
): PhaseStats {
  const mine = attempts.filter((a) => a.phase === phase.name);
  const failed = mine.filter((a) => a.status !== 201);
  const otherKinds: Record<string, number> = {};
  for (const a of failed) {
    if (a.status === 503) continue;
    const kind = a.status === 0 ? (a.error ?? 'no answer') : String(a.status);
    otherKinds[kind] = (otherKinds[kind] ?? 0) + 1;
  }
  const lastFailure = Math.max(phase.at, ...failed.map((a) => a.doneAt));
  const notReady = ready.filter(
    (s) => s.at >= phase.at && s.at <= phase.endedAt && s.status === 503,
  );
  return {
    phase,
    requests: mine.length,
    acknowledged: mine.filter((a) => a.status === 201).length,
    unavailable: mine.filter((a) => a.status === 503).length,
    otherErrors: failed.filter((a) => a.status !== 503).length,
    otherKinds,
    recoverMs: failed.length > 0 ? lastFailure - phase.at : 0,
    slowestMs: Math.max(0, ...mine.map((a) => a.doneAt - a.sentAt)),
    notReadyMs: notReady.length > 0 ? notReady[notReady.length - 1]!.at - notReady[0]!.at + 100 : 0,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function phaseTable(stats: PhaseStats[]): string {
  const header = [
    'phase',
    'fault',
    'requests',
    'acknowledged',
    '503s',
    'other errors',
    'time to recover',
    '/readyz 503 for',
    'slowest answer',
  ];
  const rows = stats.map((s) => [
    s.phase.name,
    s.phase.fault,
    String(s.requests),
    String(s.acknowledged),
    String(s.unavailable),
    s.otherErrors === 0
      ? '0'
      : `${s.otherErrors} (${Object.entries(s.otherKinds)
          .map(([k, n]) => `${k}: ${n}`)
          .join(', ')})`,
    seconds(s.recoverMs),
    seconds(s.notReadyMs),
    seconds(s.slowestMs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}
