// The orders module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export { default as ordersRoutes } from './orders.routes';
export {
  placeTerminalOrder,
  placeTerminalOrderIn,
  refundTerminalOrder,
  refundTerminalOrderIn,
} from './orders.service';
export { default as tillRoutes } from './till.routes';
