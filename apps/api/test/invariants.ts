// The ledger invariant checker lives in src (the restore script runs it too); tests import it here.
export { assertLedgerInvariants, type LedgerSummary } from '../src/modules/ledger';
