/**
 * What `use-sync-external-store/shim` gives React 17 and older, for libraries that still
 * import it (react-i18next): React 19 has the hook itself, so the shim's own copy of it,
 * which every first screen would download and never run, is left out (vite.config.ts).
 */
export { useSyncExternalStore } from 'react';
