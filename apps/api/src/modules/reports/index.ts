// The reports module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export {
  countEmployeeRowsUpTo,
  lookupCompanyInScope,
  findCompanyMonthTotals,
  findDailyFlows,
  findCountedDailyFlows,
  findDailyFlowsBetween,
  lookupEmployeeMonth,
  findEmployeeMonthBatch,
  getMerchantMonth,
  type LedgerSlice,
  type MonthFlows,
  type MonthView,
} from './reports.repository';
export { default as reportsRoutes } from './reports.routes';
export {
  calendarMonth,
  findSummaryRows,
  getCompanyMonth,
  monthViewOf,
  sumTotals,
  totalsOf,
  viewTotals,
  ZERO_TOTALS,
} from './reports.service';
