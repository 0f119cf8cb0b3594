/** The app's languages and the namespaces made from the contract, without the catalogues themselves. */
export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

export const CONTRACT_NAMESPACES = ['validation', 'errors', 'messages', 'roles'] as const;
