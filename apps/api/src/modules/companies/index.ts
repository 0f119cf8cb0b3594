// The companies module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export {
  companyScope,
  lookupCompany,
  shareLockCompany,
  updateCompany,
} from './companies.repository';
export { default as companiesRoutes } from './companies.routes';
export { createCompany, createCompanyIn, getCompany, setCompanyStatus } from './companies.service';
