// npm run backup [-- <file>]: a consistent backup of the configured database (decision 0021).
//
//   DATABASE_URL set: pg_dump -Fc of it (the API may keep running), default backups/<time>.dump
//   unset:            the embedded database in DATA_DIR (stop the server first), backups/<time>.tar.gz
//
// Exits non-zero, with the reason, when the backup was not made.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, REPO_ROOT } from '../src/config';
import { backup, BackupRefused, defaultBackupFile, type BackupTarget } from '../src/ops/backup';

const USAGE = 'usage: npm run backup [-- <file>]   (default backups/<timestamp>.dump|.tar.gz)';

try {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length > 1) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig();
  const target: BackupTarget = config.DATABASE_URL
    ? { kind: 'postgres', url: config.DATABASE_URL, pgBinDir: config.PG_BIN_DIR }
    : { kind: 'pglite', dataDir: config.dataDir };
  const file = positionals[0]
    ? path.resolve(positionals[0])
    : defaultBackupFile(REPO_ROOT, target.kind);
  const where = target.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : target.dataDir;
  console.log(`Backing up ${where} …`);
  const result = await backup(target, file);
  console.log(`Backup written: ${result.file} (${result.bytes} bytes)`);
} catch (error) {
  console.error(error instanceof BackupRefused ? `Backup refused: ${error.message}` : error);
  process.exit(1);
}
