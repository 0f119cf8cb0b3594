// The jobs module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export { default as jobsRoutes } from './jobs.routes';
export {
  runApprovalExpiry,
  runMonthlyResets,
  runSettlementClosings,
  sweepExpiredCounters,
} from './jobs.service';
export { startJobTimer } from './jobs.timer';
