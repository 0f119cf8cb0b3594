// The audit module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export { countAuditRows, findAuditRows } from './audit.repository';
export { default as auditRoutes } from './audit.routes';
export { auditExportFilterFor } from './audit.service';
