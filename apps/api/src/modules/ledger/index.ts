/**
 * The ledger module: the only code that writes token_transactions, wallets, orders' amounts and
 * monthly resets (STYLE 3). Every function runs inside the caller's transaction (`tx`), locks the
 * wallets it touches in the one fixed order (an order, then the company, then employees by id),
 * decides against the locked balances, and appends ledger rows; the database applies each row to
 * its wallet and refuses any that would break a chain or a balance (migration 0002).
 */
// The ledger's door: what other modules, app.ts, seed, scripts and tests outside the module may
// import (decision 0075). Each event lives in its own file: postings.ts (wallets and rows),
// issue.service.ts (issue and distribute), apply.service.ts (a top-up or distribution with its
// audit, for the tokens and the approvals), terminal-orders.service.ts (orders and refunds),
// reset.service.ts (the monthly reset), sql/*.sql (the database's side).
export { applyDistribution, applyTopUp } from './apply.service';
export { assertLedgerInvariants, type LedgerSummary } from './invariants';
export { distributeTokens, issueCompanyTokens, openCompanyWallet } from './issue.service';
// What the jobs and the company and token services need of the ledger's data access.
export {
  findCompaniesDueForReset,
  findOpenOrdersBefore,
  lockCompany,
  terminalOrderJson,
} from './ledger.repository';
export { renewEmployee, resetCompany, type ResetHooks } from './reset.service';
export {
  orderAnswer,
  placeOrder,
  placeOrders,
  refundOrder,
  terminalOrderRow,
  type OrderRequest,
  type TerminalAnswer,
  type TerminalOrderOutcome,
  type TerminalOrderRow,
} from './terminal-orders.service';
