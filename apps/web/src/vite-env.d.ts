/// <reference types="vite/client" />

/** Set by vite.config.ts at build time. */
declare const __BUILD_ID__: string;

/** One language's contract catalogues, made at build by vite.config.ts (`contractCatalogues`). */
declare module 'virtual:contract-catalogue/*' {
  const catalogue: Record<'validation' | 'errors' | 'messages' | 'roles', Record<string, unknown>>;
  export default catalogue;
}
