// The settlements module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export { default as settlementsRoutes } from './settlements.routes';
export {
  announceClosedSettlements,
  findAllStatementOrders,
  findSettlementsForExport,
  getStatementHead,
} from './settlements.service';
