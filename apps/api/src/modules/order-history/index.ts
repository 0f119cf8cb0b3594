// The order-history module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export {
  countOrdersUpTo,
  findOrderHistory,
  type OrderCursor,
  type OrderHistoryRow,
} from './order-history.repository';
export { default as orderHistoryRoutes } from './order-history.routes';
export { toOrderFilter } from './order-history.service';
