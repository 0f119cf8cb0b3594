// The SCIM module's door (decision 0087): what app.ts and tests outside the module may import.
export { default as scimRoutes } from './scim.routes';
export { default as scimTokensRoutes } from './scim-tokens.routes';
