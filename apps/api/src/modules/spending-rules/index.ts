// The spending-rules module's door (decision 0075).
export {
  companySpendingRulesRoutes,
  declinesRoutes,
  employeeSpendingExceptionRoutes,
  holidaysRoutes,
} from './spending-rules.routes';
export { walletSpending } from './spending-rules.service';
