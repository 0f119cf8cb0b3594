import fs from 'node:fs';
import path from 'node:path';
import type { Target } from './bench';
import { GROWTH_RATIO, type GrowthFile } from './growth';

/**
 * The rows of issue 16's targets table measured by runs of their own, not by `npm run bench`:
 * the soak (`npm run bench:soak -- --rate 150`, bench/soak.json) and Lighthouse
 * (`npm run bench:lighthouse -- --json bench/lighthouse.json`) and the growth of the reads
 * (`npm run bench:growth`, bench/growth.json), read from the files those runs
 * wrote beside results.json, with their date; and the targets no harness measures yet, as rows
 * that say so. A missing or older file gives a row "not measured", never a met one.
 */
export const SEPARATE_LABELS = ['8. soak', '9. Lighthouse', '11. growth'];

const SOAK_P99_MS = 100;
const SOAK_PEAK_MIB = 256;
const LIGHTHOUSE = { mobile: 90, desktop: 95 } as const;

interface SoakFile {
  ranAt: string;
  minutes: number;
  rate: number | null;
  transportErrors: number;
  timeouts: number;
  unexpectedAnswers: number;
  latencyByKindMs?: Record<string, { p99: number }>;
  memoryMiB: { start?: number; lastMinuteMax?: number; peak?: number };
  invariants?: unknown;
}

type LighthouseFile = Record<string, { score: { median: number } }> & {
  ranAt?: string;
  front?: string;
};

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

const notMeasured = (scenario: string, measure: string, target: string, how: string): Target => ({
  scenario,
  measure,
  target,
  value: `not measured (${how})`,
  isMet: false,
});

export function separateTargets(out: string): Target[] {
  const rows: Target[] = [];
  const soak = readJson<SoakFile>(path.join(out, 'soak.json'));
  const soakMeasure = 'mixed load for 10 min at a set rate: p99 of every kind of request';
  if (!soak?.latencyByKindMs || soak.rate === null) {
    rows.push(
      notMeasured(
        '8. soak',
        soakMeasure,
        `≤ ${SOAK_P99_MS} ms, zero errors`,
        'npm run bench:soak -- --rate 150',
      ),
    );
    rows.push(
      notMeasured(
        '8. soak',
        'peak resident memory of the API during the soak',
        `≤ ${SOAK_PEAK_MIB} MiB`,
        'npm run bench:soak -- --rate 150',
      ),
    );
  } else {
    const worst = Object.entries(soak.latencyByKindMs).sort((a, b) => b[1].p99 - a[1].p99)[0];
    const errors = soak.transportErrors + soak.timeouts + soak.unexpectedAnswers;
    const when = `${soak.minutes} min at ${soak.rate}/s, ${soak.ranAt.slice(0, 10)}`;
    rows.push({
      scenario: '8. soak',
      measure: soakMeasure,
      target: `≤ ${SOAK_P99_MS} ms, zero errors`,
      value: `worst p99 ${worst?.[1].p99} ms (${worst?.[0]}), ${errors} errors (${when})`,
      isMet: errors === 0 && (worst?.[1].p99 ?? Infinity) <= SOAK_P99_MS && soak.minutes >= 10,
    });
    const peak = soak.memoryMiB.peak ?? Infinity;
    rows.push({
      scenario: '8. soak',
      measure: 'peak resident memory of the API during the soak',
      target: `≤ ${SOAK_PEAK_MIB} MiB`,
      value: `${peak} MiB (start ${soak.memoryMiB.start}, last minute ${soak.memoryMiB.lastMinuteMax}; ${when})`,
      isMet: peak <= SOAK_PEAK_MIB,
    });
  }
  const lighthouse = readJson<LighthouseFile>(path.join(out, 'lighthouse.json'));
  for (const preset of ['mobile', 'desktop'] as const) {
    for (const page of ['sign-in', 'dashboard']) {
      const measure = `Lighthouse performance, ${page}, ${preset} preset`;
      const target = `≥ ${LIGHTHOUSE[preset]}`;
      const score = lighthouse?.[`${preset}:${page}`]?.score.median;
      rows.push(
        score === undefined
          ? notMeasured(
              '9. Lighthouse',
              measure,
              target,
              'npm run bench:lighthouse -- --json bench/lighthouse.json',
            )
          : {
              scenario: '9. Lighthouse',
              measure,
              target,
              value: `${score} (median; ${lighthouse?.front ?? 'http1'}, ${lighthouse?.ranAt?.slice(0, 10) ?? 'undated'})`,
              isMet: score >= LIGHTHOUSE[preset],
            },
      );
    }
  }
  const growth = readJson<GrowthFile>(path.join(out, 'growth.json'));
  const growthMeasure = 'reads p95 at 3× the bench data ÷ at 1×';
  rows.push(
    growth?.worst
      ? {
          scenario: '11. growth',
          measure: growthMeasure,
          target: `≤ ${GROWTH_RATIO}`,
          value:
            `worst ${growth.worst.ratio} (${growth.worst.name}; ` +
            `${(growth.databases.three.ledgerRows / 1e6).toFixed(1)} M ÷ ` +
            `${(growth.databases.one.ledgerRows / 1e6).toFixed(1)} M ledger rows, ${growth.ranAt.slice(0, 10)})`,
          isMet: growth.worst.ratio <= GROWTH_RATIO,
        }
      : notMeasured('11. growth', growthMeasure, `≤ ${GROWTH_RATIO}`, 'npm run bench:growth'),
  );
  return rows;
}
