// The spending rules' refusals (DESIGN 7): the codes the order's statement answers when a rule
// refuses an order (sql/rules.sql's spending_judge and the ledger's place_terminal_orders), each
// sent as a 409 with its figures in the envelope's `details`.
import { SPENDING_RULE_CODES, type ErrorCode } from '@app/contract';

export const SPENDING_REFUSALS: readonly ErrorCode[] = SPENDING_RULE_CODES;
