/**
 * npm run bench:data [-- --size full|triple|small|tiny --seed 42 --until 2026-06-01]
 *
 * Re-creates the bench database (BENCH_DATABASE_URL, default postgres://…/bench), generates the
 * programme into it from the seed, checks the ledger invariants and reports how long it all took.
 */
import {
  BENCH_DATABASE_URL,
  checkInvariants,
  createFreshDatabase,
  databaseBytes,
} from './lib/database';
import { seedOption, sizeOption, untilOption } from './lib/options';
import { generateProgramme } from './lib/programme';
import { saveProgramme } from './lib/saved-programme';

async function main() {
  const { name, size } = sizeOption();
  const seed = seedOption();
  const until = untilOption();
  const url = BENCH_DATABASE_URL;
  const log = (message: string) => console.log(message);
  log(
    `bench:data: ${name} programme, seed ${seed}, history until ${until.toISOString()}, into ${url}`,
  );

  const started = performance.now();
  await createFreshDatabase(url);
  const report = await generateProgramme(url, { size, seed, until, log });
  log('checking the ledger invariants …');
  const invariants = await checkInvariants(url);
  const bytes = await databaseBytes(url);
  const totalSeconds = Math.round((performance.now() - started) / 100) / 10;
  await saveProgramme(url, { ...report, invariants, databaseBytes: bytes, totalSeconds });

  const n = (value: number) => value.toLocaleString('en');
  log('');
  log(
    `companies ${n(report.rows.companies ?? 0)}, employees ${n(report.rows.employees ?? 0)}, merchants ${n(report.rows.merchants ?? 0)}, terminals ${n(report.rows.terminals ?? 0)}`,
  );
  log(
    `ledger rows ${n(report.info.ledgerRows)}, orders ${n(report.info.orders)}, resets ${n(report.rows.monthly_resets ?? 0)}`,
  );
  log(
    `simulate ${report.seconds.simulate} s, COPY ${report.seconds.copy} s, indexes ${report.seconds.indexes} s, ` +
      `vacuum ${report.seconds.vacuum} s, invariants ${Math.round(invariants.seconds * 10) / 10} s`,
  );
  log(`total ${totalSeconds} s; database ${(bytes / 2 ** 30).toFixed(2)} GiB; invariants hold`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
