// The users module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export { default as usersRoutes } from './users.routes';
export {
  type AccountRules,
  type AfterCreate,
  changeAccountStatus,
  changeAccountWith,
  createAccount,
  createUser,
  listAccounts,
  updateAccount,
  type UpdateUserInput,
  usersScopeOf,
} from './users.service';
