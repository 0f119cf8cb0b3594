/**
 * npm run bench:growth [-- --one postgres://…/bench --three postgres://…/bench3x --read-calls 200]
 *
 * The reads at 3× the bench data ÷ at 1× (issue 16; bench/lib/growth.ts). The 3× database is
 * made once with `BENCH_DATABASE_URL=postgres://…/bench3x npm run bench:data -- --size triple`
 * (~35 M ledger rows, ~32 GB, ~25 min). Writes bench/growth.json, which `npm run bench` turns
 * into the row "reads p95 at 3× the bench data ÷ at 1×".
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_DATABASE_URL, databaseName, serverVersion } from './lib/database';
import { runGrowth } from './lib/growth';
import { argument } from './lib/options';

const here = path.dirname(fileURLToPath(import.meta.url));
const log = (message: string) => console.log(message);

async function main() {
  const one = argument('one') ?? BENCH_DATABASE_URL;
  const three = argument('three') ?? `${one.replace(/\/[^/]*$/, '')}/${databaseName(one)}3x`;
  log(
    `bench:growth: ${databaseName(one)} (1×) against ${databaseName(three)} (3×), PostgreSQL ${await serverVersion(one)}`,
  );
  const growth = await runGrowth({
    one,
    three,
    calls: Number(argument('read-calls') ?? 200),
    log,
  });
  log('');
  const n = (rows: number) => `${(rows / 1e6).toFixed(1)} M`;
  log(
    `ledger rows: ${n(growth.databases.one.ledgerRows)} (1×), ${n(growth.databases.three.ledgerRows)} (3×)`,
  );
  for (const read of growth.reads) {
    log(
      `  ${read.name}: p95 1× ${read.p95Ms.one.join(' / ')} ms, 3× ${read.p95Ms.three.join(' / ')} ms: ${read.ratio}`,
    );
  }
  log(`worst ratio ${growth.worst.ratio} (${growth.worst.name}), target ≤ ${growth.target}`);
  fs.writeFileSync(path.join(here, 'growth.json'), `${JSON.stringify(growth, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
