// The API as the benchmarks see it (`@app/api/bench`, declared in apps/api/package.json): the one
// door from bench/ into this package, so the bench depends on these names, not on src/** files.
// The architecture test refuses any other import of apps/api from bench/.
export { createDatabase, type Database } from '../src/db/client';
export { migrate } from '../src/db/migrate';
export {
  addMonths,
  formatPeriod,
  nextPeriod,
  parsePeriod,
  periodAt,
  periodStart,
} from '../src/lib/periods';
export { hashPassword } from '../src/modules/iam';
export { terminalKeyFrom } from '../src/modules/terminals';
export { assertLedgerInvariants, type LedgerSummary } from './invariants';
export { signInOverHttp } from './http-session';
export { startServer } from './server-process';
export { buildServerIfStale } from '../scripts/build';
