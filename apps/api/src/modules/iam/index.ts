// The iam module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export {
  countUsers,
  insertUser,
  isUsernameTaken,
  lookupUserByEmail,
  lookupUserById,
  toAuthUser,
  type UserRow,
} from './iam.repository';
export { default as iamRoutes } from './iam.routes';
export { confirmCurrentPassword, createUserAccount, setPassword } from './iam.service';
export { default as mfaAdminRoutes } from './mfa-admin.routes';
export { default as mfaGatePlugin } from './mfa-gate';
export { requireMfaKeyring, type MfaKeyring } from './mfa-keys';
export { beginMfaChallenge, hasTotpEnabled } from './mfa.service';
export { default as mfaRoutes } from './mfa.routes';
export { hashAtLeastCostForTests, hashPassword } from './passwords';
export {
  clearSessionCookies,
  readSessionCookie,
  setMfaChallengeCookie,
  setSessionCookies,
  XSRF_HEADER,
} from './session-cookies';
export { csrfTokenMatches, hashToken, newToken } from './session-tokens';
export { revokeUserSessions } from './sessions.repository';
export { openSession, resolveSession } from './sessions.service';
export { sweepSignInThrottles } from './sign-in-throttle.service';
export { default as signInThrottleRoutes } from './throttle.routes';
export {
  findUserLink,
  linkedAmong,
  linkedSql,
  linkWindowStart,
  recordUserLink,
} from './user-links';
