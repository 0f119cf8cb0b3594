// The employees module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export {
  countEmployeesUpTo,
  EMPLOYEE_MONTH_TOTALS,
  type EmployeeExportRow,
  findEmployeeBatch,
  lookupEmployeeRow,
} from './employees.repository';
export { default as employeesRoutes } from './employees.routes';
export {
  createEmployee,
  createEmployeeIn,
  emailDuplicateError,
  getEmployee,
  listEmployeesFrom,
  renewEmployee,
  setEmployeeStatus,
  updateEmployee,
} from './employees.service';
