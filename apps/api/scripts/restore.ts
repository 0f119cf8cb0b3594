// npm run restore -- <file>: restores a backup into the configured database, which must be EMPTY
// (decision 0021), then applies the migrations and checks the ledger invariants.
//
//   DATABASE_URL set: pg_restore of a .dump into that (empty) database
//   unset:            a .tar.gz into DATA_DIR (absent or empty directory)
//
// Exits non-zero when the restore was refused or failed, or an invariant does not hold.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config';
import { BackupRefused, restore, type BackupTarget } from '../src/ops/backup';

const USAGE =
  'usage: npm run restore -- <file>   (into an empty DATABASE_URL database or DATA_DIR)';

try {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length !== 1) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig();
  const target: BackupTarget = config.DATABASE_URL
    ? { kind: 'postgres', url: config.DATABASE_URL, pgBinDir: config.PG_BIN_DIR }
    : { kind: 'pglite', dataDir: config.dataDir };
  const file = path.resolve(positionals[0]!);
  const where = target.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : target.dataDir;
  console.log(`Restoring ${file} into ${where} …`);
  const { applied, summary } = await restore(target, file);
  console.log(
    `Restored. Migrations applied since the backup: ${applied.length ? applied.join(', ') : 'none'}.`,
  );
  console.log(
    `Ledger invariants hold: ${summary.rows} ledger rows, ${summary.companies} companies, ` +
      `${summary.employees} employees, ${summary.orders} orders, ${summary.total} tokens held.`,
  );
} catch (error) {
  console.error(error instanceof BackupRefused ? `Restore refused: ${error.message}` : error);
  process.exit(1);
}
