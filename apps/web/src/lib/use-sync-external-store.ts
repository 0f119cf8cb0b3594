/**
 * `use-sync-external-store/shim` in the builds (vite.config.ts, decision 0060): react-i18next
 * imports the shim for React before 18, which uses React's own hook when there is one. React 19
 * has it: the shim's fallback and its CommonJS wrapper were sent with every first load for nothing.
 */
export { useSyncExternalStore } from 'react';
