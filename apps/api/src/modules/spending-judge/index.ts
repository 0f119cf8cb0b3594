// The spending-judge module's door (decision 0077): the SQL that judges an order by its company's
// spending rules (sql/rules.sql), called by the ledger's order statement, and the refusals it
// answers. The rules' management (routes, exceptions, holidays, declines) is modules/spending-rules.
export { SPENDING_REFUSALS } from './refusals';
export { previewRules, remainingToday } from './judge.repository';
