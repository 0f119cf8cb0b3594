// The API as the benchmarks see it (`@app/api/bench`, declared in apps/api/package.json): the one
// door from bench/ into this package, so the bench depends on these names, not on src/** files.
// The architecture test refuses any other import of apps/api from bench/.
import { parseKey32 } from '../src/config';
import { AppState } from '../src/lib/app-state';
import { requireMfaKeyring } from '../src/modules/iam';
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

/**
 * The keyring the API opens from MFA_ENCRYPTION_KEY (decision 0015): the till's bench seals its
 * pay devices' secrets with it, so that the rows it seeds are the rows POST /me/pay-devices writes.
 */
export function mfaKeyringOfKey(key: string): Promise<{ encrypt(plain: string): string }> {
  const mfaEncryptionKey = parseKey32(key);
  if (!mfaEncryptionKey) throw new Error('MFA key: 32 bytes, hex or base64');
  return requireMfaKeyring({
    config: { mfaEncryptionKey, isEmbedded: false, dataDir: '' },
    state: new AppState(),
  });
}
