// The tokens module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export { default as tokensRoutes } from './tokens.routes';
export { distributeToEmployees, issueToCompany, updateTokenConfiguration } from './tokens.service';
