// The sso module's door (decision 0075): OIDC sign-in for back-office users and the identity
// providers it signs in with (DESIGN 9, decision 0086).
export { OIDC_CALLBACK_PATH, OIDC_CONFIGURATIONS, secondFactorAtProvider } from './oidc.service';
export { default as ssoRoutes, OIDC_STATE_COOKIE } from './sso.routes';
