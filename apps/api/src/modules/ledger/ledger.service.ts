/**
 * The ledger service: the only code that writes token_transactions, wallets, orders' amounts and
 * monthly resets (STYLE 3). Every function runs inside the caller's transaction (`tx`), locks the
 * wallets it touches in the one fixed order (an order, then the company, then employees by id),
 * decides against the locked balances, and appends ledger rows; the database applies each row to
 * its wallet and refuses any that would break a chain or a balance (migration 0002).
 */
// The ledger's door: other modules import the ledger from here. Each event lives in its own file:
// postings.ts (wallets and rows), issue.service.ts (issue and distribute), terminal-orders.service.ts
// (orders and refunds), reset.service.ts (the monthly reset), sql/*.sql (the database's side).
export { distributeTokens, issueCompanyTokens, openCompanyWallet } from './issue.service';
export { timeOrderedUuid } from './postings';
export { renewEmployee, resetCompany, type ResetHooks } from './reset.service';
export {
  placeOrder,
  placeKeyedOrders,
  placeOrders,
  refundOrder,
  type KeyedOrderCheck,
  type KeyedOrderRequest,
  type KeyedOrderResult,
  type OrderRequest,
  type TerminalAnswer,
} from './terminal-orders.service';

// What the jobs and the company and token services need of the ledger's data access.
export { findCompaniesDueForReset, findOpenOrdersBefore, lockCompany } from './ledger.repository';
