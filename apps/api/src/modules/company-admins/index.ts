// The company-admins module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export { default as companyAdminsRoutes } from './company-admins.routes';
export { COMPANY_ADMIN_RULES, createCompanyAdmin } from './company-admins.service';
