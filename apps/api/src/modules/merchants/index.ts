// The merchants module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export { lookupMerchant } from './merchants.repository';
export { default as merchantsRoutes } from './merchants.routes';
export { createMerchant, createMerchantIn, setMerchantStatus } from './merchants.service';
